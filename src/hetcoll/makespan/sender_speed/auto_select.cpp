#include "hetcoll/makespan/sender_speed/auto_select.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;

std::string budget_text(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} µs", seconds * 1e6);
}

// The search's limits under `auto`, and which of them are our own budget.
struct SearchBudgetChoice {
  SearchLimits limits;
  bool own_nodes = false;  // limits.node_limit is our budget
  bool own_time = false;   // limits.time_limit_seconds is our budget
  std::string what;        // for the notes: "its budget of 5 ms (...)"
};

SearchBudgetChoice choose_budget(const SearchLimits& user, const AutoBudget& budget, const MakespanPlan& greedy,
                                 double greedy_seconds) {
  SearchBudgetChoice choice;
  choice.limits = user;
  if (user.node_limit != kNoNodeLimit) {  // honoured exactly, deterministic
    choice.what = fmt::format("your node limit of {} nodes", user.node_limit);
    return choice;
  }
  if (budget.nodes) {
    choice.limits.node_limit = *budget.nodes;
    choice.own_nodes = true;
    choice.what = fmt::format("its budget of {} nodes", *budget.nodes);
    return choice;
  }
  double seconds = 0;
  if (budget.seconds) {
    seconds = *budget.seconds;
    choice.what = fmt::format("its budget of {} (as asked)", budget_text(seconds));
  } else {
    const double scaled = kAutoBudgetGreedyFactor * greedy_seconds;
    seconds = std::max(kAutoBudgetFloorSeconds, scaled);
    choice.what = fmt::format("its budget of {} (max of {} and {:g} x {}'s {})", budget_text(seconds),
                              budget_text(kAutoBudgetFloorSeconds), kAutoBudgetGreedyFactor, greedy.algorithm,
                              budget_text(greedy_seconds));
  }
  if (seconds < user.time_limit_seconds) {
    choice.limits.time_limit_seconds = seconds;
    choice.own_time = true;
  } else {
    choice.what = fmt::format("your time limit of {}", budget_text(user.time_limit_seconds));
  }
  return choice;
}

// Keeps the greedy plan's guarantee; takes the searched plan's schedule when
// it is proven optimal or simply shorter. A stop caused by the user's
// limits (or callback) is reported as such; a stop at our own budget is
// the normal end of `auto`.
MakespanPlan choose(const Cluster& cluster, MakespanPlan greedy, MakespanPlan searched, const char* search_name,
                    const SearchBudgetChoice& budget) {
  const std::uint64_t nodes = searched.stats.nodes;
  if (searched.optimal) {
    searched.notes.insert(searched.notes.begin(),
                          nodes == 0 ? fmt::format("auto: {}'s own bounds did not prove it optimal; the exact {} "
                                                   "search's bounds did, without branching",
                                                   greedy.algorithm, search_name)
                                     : fmt::format("auto: {}'s own bounds did not prove it optimal, so the exact {} "
                                                   "search ran and finished ({} nodes)",
                                                   greedy.algorithm, search_name, nodes));
    return searched;
  }
  const bool own_budget = (budget.own_nodes && searched.status == SearchStatus::node_limit) ||
                          (budget.own_time && searched.status == SearchStatus::time_limit);
  const SearchStatus status = own_budget ? SearchStatus::finished : searched.status;
  const double lower_bound = std::max(greedy.lower_bound, searched.lower_bound);
  const double greedy_makespan = greedy.makespan;
  const std::string greedy_name = greedy.algorithm;
  MakespanPlan best = std::move(greedy);
  if (!searched.transfers.empty() && time_less(searched.makespan, best.makespan, cluster.tolerance())) {
    best.transfers = std::move(searched.transfers);
    best.makespan = searched.makespan;
    best.algorithm = searched.algorithm;
  }
  best.stats.nodes = nodes;
  best.stats.seconds = searched.stats.seconds;
  best.status = status;
  settle_claims(best, lower_bound, cluster.tolerance(), kBoundMetProof);
  const std::string tried = fmt::format("auto: tried {} (makespan {:.6g}), then the exact {} search within {}",
                                        greedy_name, greedy_makespan, search_name, budget.what);
  if (own_budget) {
    best.notes.push_back(fmt::format("{}: stopped there after {} nodes, best makespan {:.6g}, proven lower bound "
                                     "{:.6g}; --auto-budget, or algorithm \"optimal\" with a time limit, searches "
                                     "further",
                                     tried, nodes, best.makespan, lower_bound));
  } else {
    best.notes.push_back(fmt::format("{}: stopped ({}) after {} nodes: best plan so far", tried, to_string(status),
                                     nodes));
  }
  return best;
}

// The search under `choice`; a wall-clock budget of ours that stopped it
// before kAutoMinimumNodes nodes (a loaded machine, a slow start) gives
// way to a node budget of kAutoMinimumNodes (the user's limits still
// hold), so a small search ends alike on every machine.
template <typename Search>
MakespanPlan search_with_floor(Search&& search, SearchBudgetChoice& choice, const SearchLimits& user) {
  MakespanPlan searched = search(choice.limits);
  if (!choice.own_time || searched.status != SearchStatus::time_limit || searched.stats.nodes >= kAutoMinimumNodes) {
    return searched;
  }
  SearchBudgetChoice floor = choice;
  floor.limits = user;
  floor.limits.node_limit = kAutoMinimumNodes;
  floor.own_time = false;
  floor.own_nodes = true;
  floor.what = fmt::format("{}, at least {} nodes", choice.what, kAutoMinimumNodes);
  choice = floor;
  return search(choice.limits);
}

MakespanPlan with_size_note(MakespanPlan greedy) {
  greedy.notes.push_back(fmt::format("auto: more than {} processors, so no exact search was tried; "
                                     "algorithm \"optimal\" (with a time limit) searches anyway",
                                     kAutoSearchMaxProcessors));
  return greedy;
}

}  // namespace

void validate_auto_budget(const AutoBudget& budget) {
  if (budget.seconds && !(*budget.seconds > 0 && std::isfinite(*budget.seconds))) {
    throw InputError("auto_budget", fmt::format("seconds must be a positive number, got {}", *budget.seconds));
  }
  if (budget.nodes && *budget.nodes == 0) throw InputError("auto_budget", "nodes must be positive, got 0");
}

MakespanPlan plan_broadcast_auto(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits,
                                 const AutoBudget& budget) {
  validate_auto_budget(budget);
  const auto started = Clock::now();
  MakespanPlan greedy = plan_broadcast_fnf(cluster, source);
  const double greedy_seconds = seconds_since(started);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  SearchBudgetChoice choice = choose_budget(limits, budget, greedy, greedy_seconds);
  MakespanPlan searched = search_with_floor(
      [&](const SearchLimits& search_limits) { return plan_broadcast_optimal(cluster, source, search_limits); }, choice,
      limits);
  return choose(cluster, std::move(greedy), std::move(searched), "broadcast", choice);
}

MakespanPlan plan_reduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits,
                              const AutoBudget& budget) {
  validate_auto_budget(budget);
  const auto started = Clock::now();
  MakespanPlan greedy = plan_reduce_snf(cluster, root);
  const double greedy_seconds = seconds_since(started);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  SearchBudgetChoice choice = choose_budget(limits, budget, greedy, greedy_seconds);
  MakespanPlan searched = search_with_floor(
      [&](const SearchLimits& search_limits) { return plan_reduce_optimal(cluster, root, search_limits); }, choice,
      limits);
  return choose(cluster, std::move(greedy), std::move(searched), "reduce", choice);
}

MakespanPlan plan_allreduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits,
                                 const AutoBudget& budget) {
  if (root == kNoProcessor) root = cluster.fastest_processor();
  SearchBudget clock(limits);  // the time limit covers both phases
  MakespanPlan reduce = plan_reduce_auto(cluster, root, limits, budget);
  SearchLimits rest = limits;
  rest.time_limit_seconds = clock.remaining_seconds();
  if (!(rest.time_limit_seconds > 0)) rest.time_limit_seconds = std::numeric_limits<double>::min();
  if (limits.node_limit != kNoNodeLimit) {
    rest.node_limit = limits.node_limit > reduce.stats.nodes ? limits.node_limit - reduce.stats.nodes : 0;
  }
  MakespanPlan broadcast = plan_broadcast_auto(cluster, root, rest, budget);
  return compose_allreduce(cluster, root, reduce, broadcast, fmt::format("{}+{}", reduce.algorithm, broadcast.algorithm));
}

}  // namespace hetcoll
