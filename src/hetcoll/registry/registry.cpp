#include "hetcoll/registry/registry.h"

#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/rows_internal.h"
#include "hetcoll/makespan/sender_speed/allreduce/binomial.h"
#include "hetcoll/makespan/sender_speed/allreduce/recursive_doubling.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/makespan/sender_speed/broadcast/binomial.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/makespan/sender_speed/reduce/binomial.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_k_class.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/reduce/generic_search.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"

namespace hetcoll {

double AlgorithmGuarantee::worst_ratio(const MakespanRequest& request) const {
  switch (kind) {
    case Guarantee::Kind::exact: return 1.0;
    case Guarantee::Kind::heuristic: return std::numeric_limits<double>::infinity();
    case Guarantee::Kind::ratio:
      return ratio_from_eps ? std::max(ratio, ptas_ratio(request.eps, request.eps_prime.value_or(request.eps))) : ratio;
  }
  return std::numeric_limits<double>::infinity();
}

namespace {

using Kind = Guarantee::Kind;

ProcessorIndex root_or_first(const MakespanRequest& request) {
  return request.root == kNoProcessor ? 0 : request.root;
}

PtasParameters ptas_parameters(const MakespanRequest& request) {
  PtasParameters parameters;
  parameters.eps = request.eps;
  parameters.eps_prime = request.eps_prime;
  parameters.limits = request.limits;
  return parameters;
}

AlgorithmGuarantee exact_search(double stopped_ratio, std::string text) {
  return {Kind::exact, 1.0, false, Kind::ratio, stopped_ratio, {}, std::move(text)};
}

// The stronger claims of FNF and SNF, and when they hold.
std::vector<ClaimCondition> fnf_conditions() {
  return {{Kind::ratio, 1.5, "source a fastest processor", "Khuller, Kim, Woeginger 2003 sec. 1 (Khuller-Kim)"},
          {Kind::exact, 1, "source a fastest processor, at most two classes of times", "Liu 2002 Thm 4.4"},
          {Kind::exact, 1, "source a fastest processor, times a divisibility chain", "Liu 2002 Thm 4.5"},
          {Kind::exact, 1, "any source, every time t_min x 2^k", "Liu 2002 sec. 4.4, Lemmas 4.7-4.8"}};
}

std::vector<ClaimCondition> snf_conditions() {
  return {{Kind::exact, 1, "the senders' times a divisibility chain", "Liu, Kuo, Wang 2009 sec. 1, Thm 1"},
          {Kind::exact, 1, "two classes of senders with ratio >= 2", "Liu, Kuo, Wang 2009 Thm 4"}};
}

void add_broadcast(std::vector<MakespanAlgorithm>& algorithms) {
  algorithms.push_back({
      "fnf", Operation::broadcast, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, false, Kind::ratio, 2.0, fnf_conditions(),
       "<= 2 x optimal; <= 1.5 x from a fastest source; optimal from a fastest source for 2 classes or a "
       "divisibility chain"},
      "O(n log n)", "Liu 2002 sec. 3, Thms 4.4-4.7; Khuller, Kim, Woeginger 2003 sec. 1",
      "fastest-node-first: the earliest-finishing sender serves the fastest uninformed processor", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_fnf(cluster, root_or_first(request));
      }, {}});
  algorithms.push_back({
      "ptas", Operation::broadcast, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, true, Kind::ratio, 2.0,
       {{Kind::ratio, 0, "source a fastest processor", "Khuller, Kim, Woeginger 2003 Thm 3", true}},
       "<= (1+eps)(1+eps')(1+3eps') x optimal (source a fastest processor), else FNF's <= 2 x"},
      "O(log_{1+eps}(n) (n log n + P |U| k)), P = prod(s_i+1) count vectors; refused beyond the time limit",
      "Khuller, Kim, Woeginger 2003 sec. 3, Thms 2-3",
      "approximation scheme: FNF on the fast processors, DP over trees of rounded slow processors (eps, eps_prime)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        const ProcessorIndex source = root_or_first(request);
        if (request.announce) {
          std::vector<ProcessorIndex> receivers;
          for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
            if (p != source) receivers.push_back(p);
          }
          const double limit = request.limits.has_time_limit() ? request.limits.time_limit_seconds
                                                               : kPtasDefaultRefusalSeconds;
          request.announce(estimate_broadcast_ptas(cluster, source, receivers, request.eps,
                                                   request.eps_prime.value_or(request.eps), limit)
                               .describe());
        }
        return plan_broadcast_ptas(cluster, source, ptas_parameters(request));
      }, {}});
  algorithms.push_back({
      "optimal", Operation::broadcast, CommunicationModel::sender_speed,
      exact_search(2.0, "exact (when the search finishes; else best so far, never worse than FNF)"),
      "exponential worst case; O(k + holders) per node plus an O(slot times x holders) bound",
      "Liu 2002 sec. 5, eq. 1, Thms 4.1-4.3 (Table 1); exchange rule of hetcoll's exact search",
      "branch-and-bound over slot groups of receiver classes: exchange rule, relaxation/fluid/partial bounds, "
      "target passes, memo, FNF incumbent (time and node limits)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_optimal(cluster, root_or_first(request), request.limits);
      }, {}});
  algorithms.push_back({
      "generic-bnb", Operation::broadcast, CommunicationModel::sender_speed,
      exact_search(2.0, "exact (when the search finishes; else best so far, never worse than FNF)"),
      "O(N) nodes, N = class-sequence prefixes", "Liu 2002 sec. 5, Table 1 (generic column)",
      "Liu 2002 sec. 5's plain branch-and-bound over eq. 1 class sequences (baseline for `optimal`)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_generic_bnb(cluster, root_or_first(request), request.limits);
      }, {}});
  algorithms.push_back({
      "binomial", Operation::broadcast, CommunicationModel::sender_speed,
      {Kind::heuristic, 0, false, Kind::heuristic, 0, {}, "none (ignores speeds; MPI's binomial tree)"},
      "O(n log n)", "MPICH MPIR_Bcast binomial; baseline for Liu 2002",
      "binomial tree in rank order from the source, as MPI libraries build it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_binomial(cluster, root_or_first(request));
      }, {}});
}

void add_multicast(std::vector<MakespanAlgorithm>& algorithms) {
  algorithms.push_back({
      "fnf", Operation::multicast, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, false, Kind::ratio, 2.0,
       {{Kind::ratio, 1.5, "source a fastest processor of those it may use", "Khuller, Kim, Woeginger 2003 secs. 1, 4"}},
       "<= 1.5 x optimal (source a fastest processor of those it may use), else <= 2 x optimal (groups whose "
       "helper counts can all be tried; larger ones: none)"},
      "O(|targets| g log g), g = targets + helpers", "Khuller, Kim, Woeginger 2003 sec. 4, Thm 4; Liu 2002 Thm 4.7",
      "FNF over the targets plus the k fastest non-members, for every k; idle helpers pruned", true,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_multicast_fnf(cluster, root_or_first(request), request.targets);
      }, {}});
  algorithms.push_back({
      "ptas", Operation::multicast, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, true, Kind::ratio, 2.0,
       {{Kind::ratio, 0, "source a fastest processor", "Khuller, Kim, Woeginger 2003 Thms 3-4", true}},
       "<= (1+eps)(1+eps')(1+3eps') x optimal (source a fastest processor), else FNF's <= 2 x"},
      "|targets| runs of the broadcast PTAS", "Khuller, Kim, Woeginger 2003 secs. 3-4, Thms 3-4",
      "the broadcast PTAS over the targets plus the k fastest non-members, for every k (parameters eps, eps_prime)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_multicast_ptas(cluster, root_or_first(request), request.targets, ptas_parameters(request));
      }, {}});
  algorithms.push_back({
      "optimal", Operation::multicast, CommunicationModel::sender_speed,
      exact_search(2.0, fmt::format("exact (at most {} receivers: targets + helpers; else refused, FNF's plan)",
                                    kExactMulticastMaxReceivers)),
      fmt::format("exponential; at most {} receivers (targets + helpers)", kExactMulticastMaxReceivers),
      "Khuller, Kim, Woeginger 2003 sec. 4; Liu 2002 sec. 5",
      "the optimal broadcast search for every number k of fastest helpers (time and node limits)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_multicast_exact(cluster, root_or_first(request), request.targets, request.limits);
      }, {}});
}

void add_reduce(std::vector<MakespanAlgorithm>& algorithms) {
  algorithms.push_back({
      "snf", Operation::reduce, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, false, Kind::ratio, 2.0, snf_conditions(),
       "<= 2 x optimal; optimal for 2 classes with ratio >= 2 or a divisibility chain"},
      "O(n log n)", "Liu, Kuo, Wang 2009 secs. 3-5, Thms 1, 2, 4",
      "slowest-node-first: EP schedule of the senders, slowest first", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_snf(cluster, root_or_first(request));
      }, {}});
  algorithms.push_back({
      "ep", Operation::reduce, CommunicationModel::sender_speed,
      {Kind::heuristic, 0, false, Kind::heuristic, 0, {}, "none (depends on the order)"},
      "O(n log n)", "Liu, Kuo, Wang 2009 sec. 3, Fig. 2, Lemma 1",
      "earliest-possible schedule of a given sender order (parameter order)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        if (!request.order) throw InputError("order", "algorithm \"ep\" needs the sending order (every processor but the root)");
        return plan_reduce_ep(cluster, root_or_first(request), *request.order);
      }, {}});
  algorithms.push_back({
      "optimal", Operation::reduce, CommunicationModel::sender_speed,
      exact_search(2.0, "exact (when the search finishes; else best so far, <= 2 x optimal)"),
      "exponential worst case; O(k x open slots) per node",
      "Liu, Kuo, Wang 2009 secs. 3, 5.3.1, 6.2 (Cor. 1, Obs. 1, Table 1)",
      "branch-and-bound over heap-ordered MCP trees (EP sequences read backwards), SNF incumbent, class "
      "symmetry, capacity bound, memo; with mostly distinct times built bottom up (slowest sender first) "
      "with leaf-average and Kraft bounds (time and node limits)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_optimal(cluster, root_or_first(request), request.limits);
      }, {}});
  algorithms.push_back({
      "generic-bnb", Operation::reduce, CommunicationModel::sender_speed,
      exact_search(2.0, "exact (when the search finishes; else best so far, <= 2 x optimal)"),
      "O(N) nodes, N = class-sequence prefixes", "Liu, Kuo, Wang 2009 sec. 6.2, Table 1 (generic column)",
      "Liu, Kuo, Wang 2009 sec. 6.2's plain branch-and-bound over EP class sequences (baseline for `optimal`)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_generic_bnb(cluster, root_or_first(request), request.limits);
      }, {}});
  algorithms.push_back({
      "dp", Operation::reduce, CommunicationModel::sender_speed,
      exact_search(2.0, "exact (refused beyond the time limit or the memory cap: then SNF's plan, <= 2 x)"),
      "2 classes: O(L f^2) (L lattice deadlines); k classes: O(n^(2k-1) log n)",
      "Liu, Kuo, Wang 2009 secs. 5.3.2-5.3.5, eqs. 2-4, Lemmas 4-5, Thms 5-6",
      "dynamic programming over class counts: two-class capacity DP, else the k-class DP (predicts its time and "
      "memory first)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_dp(cluster, root_or_first(request), request.limits);
      }, {}});
  algorithms.push_back({
      "binomial", Operation::reduce, CommunicationModel::sender_speed,
      {Kind::heuristic, 0, false, Kind::heuristic, 0, {}, "none (ignores speeds; MPI's binomial tree)"},
      "O(n log n)", "MPICH MPIR_Reduce binomial; Liu, Kuo, Wang 2009 sec. 6.1 compares SNF with it",
      "binomial tree in rank order into the root, as MPI libraries build it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_binomial(cluster, root_or_first(request));
      }, {}});
}

void add_allreduce(std::vector<MakespanAlgorithm>& algorithms) {
  algorithms.push_back({
      "snf+fnf", Operation::allreduce, CommunicationModel::sender_speed,
      {Kind::ratio, 6.0, false, Kind::ratio, 6.0,
       {{Kind::ratio, 3.5, "root a fastest processor (the default)", "Liu, Kuo, Wang 2009 Thm 3"}},
       "<= 3.5 x optimal (root a fastest processor), else <= 6 x, among reduce-then-broadcast schedules"},
      "O(n log n)", "Liu, Kuo, Wang 2009 sec. 5.2, Thm 3",
      "SNF reduce to the root, then FNF broadcast of the result from it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_snf_fnf(cluster, request.root);
      }, {}});
  algorithms.push_back({
      "binomial", Operation::allreduce, CommunicationModel::sender_speed,
      {Kind::heuristic, 0, false, Kind::heuristic, 0, {}, "none (ignores speeds; MPI's binomial reduce + broadcast)"},
      "O(n log n)", "MPICH MPIR_Allreduce reduce + bcast; the mpi-baseline experiment's all-reduce",
      "binomial reduce into the root (default the first processor, MPI's rank 0), then binomial broadcast from it",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_binomial(cluster, request.root);
      }, {}});
  algorithms.push_back({
      "recursive-doubling", Operation::allreduce, CommunicationModel::sender_speed,
      {Kind::heuristic, 0, false, Kind::heuristic, 0, {}, "none (ignores speeds; MPI's recursive doubling)"},
      "O(n log n)", "MPICH MPIR_Allreduce recursive doubling; Open MPI coll_tuned all-reduce algorithm 3",
      "pairwise exchanges of partial results in rank order, log2 n rounds (the extra ranks of a "
      "non-power-of-two count fold in first); every processor ends with the result; the root plays rank 0",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_recursive_doubling(cluster, root_or_first(request));
      },
      {}});
}

// The default: greedy, then a node-budgeted exact search when no theorem
// proves the greedy plan optimal (makespan/sender_speed/auto_select.h).
void add_auto(std::vector<MakespanAlgorithm>& algorithms) {
  algorithms.push_back({
      "auto", Operation::broadcast, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, false, Kind::ratio, 2.0,
       {{Kind::exact, 1, "the bounded search finishes (or a theorem proves FNF optimal)", "hetcoll's auto selector"}},
       "optimal when the search finishes, else FNF's"},
      "O(n log n) + a bounded search", "selector over Liu 2002",
      "FNF; if not provably optimal, the exact search within a time budget (about 10 x FNF's time, at least 5 ms)", true,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_auto(cluster, root_or_first(request), request.limits, request.auto_budget);
      }, {}});
  algorithms.push_back({
      "auto", Operation::reduce, CommunicationModel::sender_speed,
      {Kind::ratio, 2.0, false, Kind::ratio, 2.0,
       {{Kind::exact, 1, "the bounded search finishes (or a theorem proves SNF optimal)", "hetcoll's auto selector"}},
       "optimal when the search finishes, else <= 2 x"},
      "O(n log n) + a bounded search", "selector over Liu, Kuo, Wang 2009",
      "SNF; if not provably optimal, the exact search within a time budget (about 10 x SNF's time, at least 5 ms)", true,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_auto(cluster, root_or_first(request), request.limits, request.auto_budget);
      }, {}});
  algorithms.push_back({
      "auto", Operation::allreduce, CommunicationModel::sender_speed,
      {Kind::ratio, 6.0, false, Kind::ratio, 6.0,
       {{Kind::ratio, 3.5, "root a fastest processor (the default)", "Liu, Kuo, Wang 2009 Thm 3"},
        {Kind::ratio, 2.0, "root a fastest processor, both phases proven optimal", "hetcoll's reduce-then-broadcast composition bound"}},
       "<= 3.5 x optimal (fastest root); <= 2 x when both phases are exact; among reduce-then-broadcast schedules"},
      "O(n log n) + a bounded search",
      "selector over Liu, Kuo, Wang 2009 and Liu 2002",
      "reduce into a fastest processor, then broadcast from it, each phase chosen as auto", true,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_auto(cluster, request.root, request.limits, request.auto_budget);
      }, {}});
}

// What each sender-speed row accepts beyond its root (the command line
// checks options against these).
void set_sender_speed_capabilities(std::vector<PlannerEntry>& rows) {
  for (auto& row : rows) {
    PlannerCapabilities& can = row.capabilities;
    const bool search = row.name == "optimal" || row.name == "generic-bnb" || row.name == "dp";
    can.exact_search = search;
    can.limits = search || row.name == "ptas" || row.name == "auto";
    can.eps = row.name == "ptas";
    can.order = row.name == "ep";
    can.auto_budget = row.name == "auto";
    can.threads = (row.name == "optimal" || row.name == "auto") &&
                  (row.operation == Operation::broadcast || row.operation == Operation::multicast);
    can.baseline = row.name == "binomial" || row.name == "recursive-doubling" || row.name == "generic-bnb";
    row.is_selector = row.name == "auto";
  }
}

}  // namespace

void add_sender_speed_planners(std::vector<PlannerEntry>& rows) {
  std::vector<PlannerEntry> family;
  add_broadcast(family);
  add_multicast(family);
  add_reduce(family);
  add_allreduce(family);
  add_auto(family);
  set_sender_speed_capabilities(family);
  for (auto& row : family) rows.push_back(std::move(row));
}

namespace {

std::vector<PlannerEntry> build_planners() {
  std::vector<PlannerEntry> rows;
  add_sender_speed_planners(rows);
  add_graph_planners(rows);
  add_eager_planners(rows);
  add_split_planners(rows);
#if HETCOLL_WITH_LP
  add_steady_planners(rows);
  add_pipelined_planners(rows);
#endif
  // The generic entry point of the makespan rows, from their typed one.
  for (auto& row : rows) {
    if (row.run_plan) continue;
    if (row.run) {
      row.run_plan = [run = row.run, name = row.name](const PlannerProblem& problem, const PlannerRequest& request) {
        if (!problem.cluster) throw InputError("problem", fmt::format("{} plans on a cluster (sender-speed)", name));
        return PlanVariant(run(*problem.cluster, request.makespan));
      };
    } else if (row.run_on_graph) {
      row.run_plan = [run = row.run_on_graph, name = row.name](const PlannerProblem& problem,
                                                               const PlannerRequest& request) {
        if (!problem.platform) throw InputError("problem", fmt::format("{} plans on a platform graph", name));
        GraphNetwork network(*problem.platform, request.message_size);
        MakespanRequest makespan = request.makespan;
        return PlanVariant(run(network, makespan));
      };
    }
  }
  return rows;
}

}  // namespace

const std::vector<PlannerEntry>& planners() {
  static const std::vector<PlannerEntry> rows = build_planners();
  return rows;
}

const PlannerEntry* find_planner(Operation operation, CommunicationModel model, std::string_view name) {
  for (const auto& row : planners()) {
    if (row.operation == operation && row.model == model && row.name == name) return &row;
  }
  return nullptr;
}

const PlannerEntry* default_planner(Operation operation, CommunicationModel model) {
  for (const auto& row : planners()) {
    if (row.operation == operation && row.model == model && row.is_default) return &row;
  }
  return nullptr;
}

PlanVariant run_planner(const PlannerEntry& planner, const PlannerProblem& problem, const PlannerRequest& request) {
  if (!planner.run_plan) throw InputError("planner", fmt::format("{} has no way to run", planner.name));
  validate_limits(request.makespan.limits);
  return planner.run_plan(problem, request);
}

const std::vector<MakespanAlgorithm>& makespan_algorithms() {
  static const std::vector<MakespanAlgorithm> algorithms = [] {
    std::vector<MakespanAlgorithm> rows;
    for (const auto& row : planners()) {
      if (row.model == CommunicationModel::sender_speed) rows.push_back(row);
    }
    return rows;
  }();
  return algorithms;
}

const MakespanAlgorithm* find_makespan_algorithm(Operation operation, std::string_view name, CommunicationModel model) {
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation == operation && algorithm.model == model && algorithm.name == name) return &algorithm;
  }
  return nullptr;
}

const MakespanAlgorithm& default_makespan_algorithm(Operation operation, CommunicationModel model) {
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation == operation && algorithm.model == model && algorithm.is_default) return algorithm;
  }
  throw InputError(fmt::format("no {} algorithm is registered for {}", to_string(model), to_string(operation)));
}

MakespanPlan plan_makespan(const Cluster& cluster, const MakespanRequest& request, std::string_view algorithm_name) {
  const MakespanAlgorithm* algorithm = algorithm_name.empty() ? &default_makespan_algorithm(request.operation)
                                                              : find_makespan_algorithm(request.operation, algorithm_name);
  if (!algorithm) {
    std::string known;
    for (const auto& candidate : makespan_algorithms()) {
      if (candidate.operation == request.operation && candidate.model == CommunicationModel::sender_speed) {
        known += (known.empty() ? "" : ", ") + candidate.name;
      }
    }
    throw InputError("algorithm", fmt::format("unknown algorithm \"{}\" for {} (known: {})", algorithm_name,
                                 to_string(request.operation), known));
  }
  if (request.root != kNoProcessor && (request.root < 0 || request.root >= cluster.size())) {
    throw InputError("the source/root is not a processor of the cluster");
  }
  validate_limits(request.limits);
  auto started = std::chrono::steady_clock::now();
  MakespanPlan plan = algorithm->run(cluster, request);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (plan.stats.seconds == 0) plan.stats.seconds = elapsed;
  return plan;
}

}  // namespace hetcoll
