#include "hetcoll/makespan/registry.h"

#include <chrono>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/allreduce/binomial.h"
#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/auto_select.h"
#include "hetcoll/makespan/broadcast/binomial.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/broadcast/generic_search.h"
#include "hetcoll/makespan/broadcast/optimal_search.h"
#include "hetcoll/makespan/broadcast/ptas.h"
#include "hetcoll/makespan/multicast/multicast.h"
#include "hetcoll/makespan/reduce/binomial.h"
#include "hetcoll/makespan/reduce/dp_k_class.h"
#include "hetcoll/makespan/reduce/ep.h"
#include "hetcoll/makespan/reduce/generic_search.h"
#include "hetcoll/makespan/reduce/optimal_search.h"
#include "hetcoll/makespan/reduce/snf.h"

namespace hetcoll {

namespace {

ProcessorIndex root_or_first(const MakespanRequest& request) {
  return request.root == kNoProcessor ? 0 : request.root;
}

PtasParameters ptas_parameters(const MakespanRequest& request) {
  PtasParameters parameters;
  parameters.eps = request.eps;
  parameters.eps_prime = request.eps_prime;
  parameters.time_limit_seconds = request.time_limit_seconds;
  parameters.progress = request.progress;
  return parameters;
}

std::vector<MakespanAlgorithm> build_registry() {
  std::vector<MakespanAlgorithm> algorithms;
  algorithms.push_back({
      "fnf", Operation::broadcast,
      "<= 2 x optimal; <= 1.5 x from a fastest source; optimal from a fastest source for 2 classes or a divisibility chain",
      "O(n log n)",
      "Liu 2002 sec. 3, Thms 4.4-4.7; Khuller, Kim, Woeginger 2003 sec. 1",
      "fastest-node-first: the earliest-finishing sender serves the fastest uninformed processor", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_fnf(cluster, root_or_first(request));
      }});
  algorithms.push_back({
      "ptas", Operation::broadcast, "<= (1+eps)(1+eps')(1+3eps') x optimal (source a fastest processor)",
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
          request.announce(estimate_broadcast_ptas(cluster, source, receivers, request.eps,
                                                   request.eps_prime.value_or(request.eps))
                               .describe());
        }
        return plan_broadcast_ptas(cluster, source, ptas_parameters(request));
      }});
  algorithms.push_back({
      "optimal", Operation::broadcast, "exact (when the search finishes; else best so far, never worse than FNF)",
      "exponential worst case; O(k + holders) per node plus an O(slot times x holders) bound",
      "Liu 2002 sec. 5, eq. 1, Thms 4.1-4.3 (Table 1); exchange rule of optimal_search.h",
      "branch-and-bound over slot groups of receiver classes: exchange rule, relaxation/fluid/partial bounds, "
      "target passes, memo, FNF incumbent (time and node limits)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_optimal(cluster, root_or_first(request), SearchLimits::from_request(request));
      }});
  algorithms.push_back({
      "generic-bnb", Operation::broadcast, "exact (when the search finishes)", "O(N) nodes, N = class-sequence prefixes",
      "Liu 2002 sec. 5, Table 1 (generic column)",
      "Liu 2002 sec. 5's plain branch-and-bound over eq. 1 class sequences (baseline for `optimal`)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_generic_bnb(cluster, root_or_first(request), SearchLimits::from_request(request));
      }});
  register_multicast_algorithms(algorithms);
  algorithms.push_back({
      "snf", Operation::reduce, "<= 2 x optimal; optimal for 2 classes with ratio >= 2", "O(n log n)",
      "Liu, Kuo, Wang 2009 secs. 3-5, Thms 1, 2, 4",
      "slowest-node-first: EP schedule of the senders, slowest first", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_snf(cluster, root_or_first(request));
      }});
  algorithms.push_back({
      "ep", Operation::reduce, "none (depends on the order)", "O(n log n)", "Liu, Kuo, Wang 2009 sec. 3, Fig. 2, Lemma 1",
      "earliest-possible schedule of a given sender order (parameter order)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        if (!request.order) throw InputError("order", "algorithm \"ep\" needs the sending order (every processor but the root)");
        return plan_reduce_ep(cluster, root_or_first(request), *request.order);
      }});
  algorithms.push_back({
      "optimal", Operation::reduce, "exact (when the search finishes; else best so far, <= 2 x optimal)",
      "exponential worst case; O(k x open slots) per node",
      "Liu, Kuo, Wang 2009 secs. 3, 5.3.1, 6.2 (Cor. 1, Obs. 1, Table 1)",
      "branch-and-bound over heap-ordered MCP trees (EP sequences read backwards), SNF incumbent, class "
      "symmetry, capacity bound, memo (time and node limits)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_optimal(cluster, root_or_first(request), request);
      }});
  algorithms.push_back({
      "generic-bnb", Operation::reduce, "exact (when the search finishes)", "O(N) nodes, N = class-sequence prefixes",
      "Liu, Kuo, Wang 2009 sec. 6.2, Table 1 (generic column)",
      "Liu, Kuo, Wang 2009 sec. 6.2's plain branch-and-bound over EP class sequences (baseline for `optimal`)", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_generic_bnb(cluster, root_or_first(request), request);
      }});
  algorithms.push_back({
      "dp", Operation::reduce, "exact", "2 classes: O(L f^2) (L lattice deadlines); k classes: O(n^(2k-1) log n)",
      "Liu, Kuo, Wang 2009 secs. 5.3.2-5.3.5, eqs. 2-4, Lemmas 4-5, Thms 5-6",
      "dynamic programming over class counts: two-class capacity DP, else the k-class DP (refuses huge tables)",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_dp(cluster, root_or_first(request));
      }});
  algorithms.push_back({
      "snf+fnf", Operation::allreduce, "<= 3.5 x optimal (root a fastest processor)", "O(n log n)",
      "Liu, Kuo, Wang 2009 sec. 5.2, Thm 3", "SNF reduce to the root, then FNF broadcast of the result from it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_snf_fnf(cluster, request.root);
      }});
  // The default: greedy, then a node-budgeted exact search when no theorem
  // proves the greedy plan optimal (makespan/auto_select.h).
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    const char* summary = operation == Operation::broadcast
                              ? "FNF; if not provably optimal, the exact search within a fixed node budget"
                          : operation == Operation::reduce
                              ? "SNF; if not provably optimal, the exact search within a fixed node budget"
                              : "reduce into a fastest processor, then broadcast from it, each phase chosen as auto";
    const char* guarantee = operation == Operation::broadcast ? "optimal when the search finishes, else FNF's"
                            : operation == Operation::reduce  ? "optimal when the search finishes, else <= 2 x"
                                                              : "<= 3.5 x optimal; <= 2 x when both phases are exact";
    algorithms.push_back({"auto", operation, guarantee, "O(n log n) + a bounded search",
                          "selector over Liu, Kuo, Wang 2009 and Liu 2002 (makespan/auto_select.h)", summary, true,
                          [operation](const Cluster& cluster, const MakespanRequest& request) {
                            switch (operation) {
                              case Operation::broadcast: return plan_broadcast_auto(cluster, root_or_first(request), request);
                              case Operation::reduce: return plan_reduce_auto(cluster, root_or_first(request), request);
                              default: return plan_allreduce_auto(cluster, request.root, request);
                            }
                          }});
  }
  // Baselines: what MPI libraries do (binomial trees in rank order).
  algorithms.push_back({
      "binomial", Operation::broadcast, "none (ignores speeds; MPI's binomial tree)", "O(n log n)",
      "MPICH MPIR_Bcast binomial; baseline for Liu 2002",
      "binomial tree in rank order from the source, as MPI libraries build it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_broadcast_binomial(cluster, root_or_first(request));
      }});
  algorithms.push_back({
      "binomial", Operation::reduce, "none (ignores speeds; MPI's binomial tree)", "O(n log n)",
      "MPICH MPIR_Reduce binomial; Liu, Kuo, Wang 2009 sec. 6.1 compares SNF with it",
      "binomial tree in rank order into the root, as MPI libraries build it", false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_reduce_binomial(cluster, root_or_first(request));
      }});
  algorithms.push_back({
      "binomial", Operation::allreduce, "none (ignores speeds; MPI's binomial reduce + broadcast)", "O(n log n)",
      "MPICH MPIR_Allreduce reduce + bcast; the mpi-baseline experiment's all-reduce",
      "binomial reduce into the root (default the first processor, MPI's rank 0), then binomial broadcast from it",
      false,
      [](const Cluster& cluster, const MakespanRequest& request) {
        return plan_allreduce_binomial(cluster, request.root);
      }});
  return algorithms;
}

}  // namespace

const std::vector<MakespanAlgorithm>& makespan_algorithms() {
  static const std::vector<MakespanAlgorithm> algorithms = build_registry();
  return algorithms;
}

const MakespanAlgorithm* find_makespan_algorithm(Operation operation, std::string_view name) {
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation == operation && algorithm.name == name) return &algorithm;
  }
  return nullptr;
}

const MakespanAlgorithm& default_makespan_algorithm(Operation operation) {
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation == operation && algorithm.is_default) return algorithm;
  }
  throw InputError(fmt::format("no algorithm is registered for {}", to_string(operation)));
}

MakespanPlan plan_makespan(const Cluster& cluster, const MakespanRequest& request, std::string_view algorithm_name) {
  const MakespanAlgorithm* algorithm = algorithm_name.empty() ? &default_makespan_algorithm(request.operation)
                                                              : find_makespan_algorithm(request.operation, algorithm_name);
  if (!algorithm) {
    std::string known;
    for (const auto& candidate : makespan_algorithms()) {
      if (candidate.operation == request.operation) known += (known.empty() ? "" : ", ") + candidate.name;
    }
    throw InputError("algorithm", fmt::format("unknown algorithm \"{}\" for {} (known: {})", algorithm_name,
                                 to_string(request.operation), known));
  }
  if (request.root != kNoProcessor && (request.root < 0 || request.root >= cluster.size())) {
    throw InputError("the source/root is not a processor of the cluster");
  }
  auto started = std::chrono::steady_clock::now();
  MakespanPlan plan = algorithm->run(cluster, request);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (plan.stats.seconds == 0) plan.stats.seconds = elapsed;
  return plan;
}

}  // namespace hetcoll
