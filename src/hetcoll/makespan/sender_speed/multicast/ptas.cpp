// Multicast by the broadcast PTAS with the k fastest helpers, every k —
// Khuller, Kim, Woeginger 2003 sec. 4, Thm 4. Contract in multicast.h; the scheme in
// broadcast/ptas.h. The work of all runs is predicted together and refused
// together; each run's lower bound is valid for its own k, so the plan's
// lower bound is the minimum over k (OPT = min over k of OPT_k).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast_internal.h"

namespace hetcoll {

namespace {

struct Prediction {
  double seconds = 0, bytes = 0;
  bool truncated = false;  // stopped once past `stop_above`: at least this much
};

// The work of every run k = 0..k_max, summed; stops as soon as the sum
// passes `stop_above` (so a refusal costs time proportional to the limit).
Prediction predict(const Cluster& cluster, const MulticastGroup& group, int k_max, double eps, double eps_prime,
                   double stop_above) {
  Prediction total;
  const auto started = std::chrono::steady_clock::now();
  for (int k = 0; k <= k_max; ++k) {
    auto work = estimate_broadcast_ptas(cluster, group.source, group.receivers_with_helpers(k), eps, eps_prime,
                                        stop_above - total.seconds);
    total.seconds += work.seconds;
    total.bytes = std::max(total.bytes, work.bytes);
    // Predicting costs about what the runs' set-ups cost (an FNF per guess):
    // past the threshold on the clock, the runs would be too.
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    total.seconds = std::max(total.seconds, elapsed);
    if (work.truncated || total.seconds > stop_above || total.bytes > kPtasMaxBytes) {
      total.truncated = k < k_max || work.truncated;
      break;
    }
  }
  return total;
}

}  // namespace

MakespanPlan plan_multicast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& targets, const PtasParameters& parameters,
                                 std::optional<int> max_helpers) {
  SearchBudget budget(parameters.limits);
  MulticastGroup group = make_multicast_group(cluster, source, targets);
  int k_max = group.max_useful_helpers;
  if (max_helpers) k_max = std::clamp(*max_helpers, 0, k_max);
  const double eps = parameters.eps;
  const double eps_prime = parameters.eps_prime.value_or(eps);
  if (!(eps > 0) || !std::isfinite(eps)) throw InputError("eps", fmt::format("must be a positive number, got {}", eps));
  if (!(eps_prime > 0) || !std::isfinite(eps_prime)) {
    throw InputError("eps_prime", fmt::format("must be a positive number, got {}", eps_prime));
  }
  const bool limited = parameters.limits.has_time_limit();
  const double refusal = limited ? parameters.limits.time_limit_seconds : kPtasDefaultRefusalSeconds;
  if (parameters.refuse_long_runs) {
    Prediction predicted = predict(cluster, group, k_max, eps, eps_prime, refusal);
    if (predicted.truncated || predicted.seconds > refusal || predicted.bytes > kPtasMaxBytes) {
      // Advice, while it costs no more than about the limit again.
      std::string advice =
          "no eps_prime below 8 fits (or finding one would take longer than the limit): use algorithm \"fnf\"";
      for (double candidate = eps_prime * 1.1; candidate < 8 && budget.elapsed_seconds() < refusal;
           candidate *= 1.1) {
        Prediction p = predict(cluster, group, k_max, eps, candidate, refusal);
        if (!p.truncated && p.seconds <= refusal && p.bytes <= kPtasMaxBytes) {
          advice = fmt::format("the finest eps_prime that fits is about {:.3g} (predicted {:.3g} s)",
                               candidate * 1.001, p.seconds);
          break;
        }
      }
      MakespanPlan plan = plan_multicast_fnf(cluster, source, targets, max_helpers);
      plan.algorithm = "ptas";
      plan.status = SearchStatus::refused;
      plan.notes.push_back(fmt::format(
          "refused: with eps_prime {:g} the multicast PTAS ({} runs, one per helper count) would take {}{:.3g} s; "
          "the limit is {:g} s ({}); {}. The FNF multicast is returned.",
          eps_prime, k_max + 1, predicted.truncated ? "more than " : "about ", predicted.seconds, refusal,
          limited ? "the time limit" : "the default when no limit is given", advice));
      plan.stats.seconds = budget.elapsed_seconds();
      return plan;
    }
  }

  multicast_detail::BestHelperRun best;
  double lower_bound = std::numeric_limits<double>::infinity();
  bool all_guaranteed = true;
  SearchStatus status = SearchStatus::finished;
  SearchStats stats;
  for (int k = 0; k <= k_max; ++k) {
    PtasParameters run = parameters;
    run.refuse_long_runs = false;
    run.limits.time_limit_seconds = budget.remaining_seconds();
    if (k > 0 && !budget.check(best.makespan)) {
      status = budget.status();
      break;
    }
    if (!(run.limits.time_limit_seconds > 0)) {
      status = SearchStatus::time_limit;
      if (k > 0) break;
      run.limits.time_limit_seconds = std::numeric_limits<double>::min();  // k = 0 still yields FNF's plan
    }
    MakespanPlan sub = plan_broadcast_ptas(cluster, source, group.receivers_with_helpers(k), run);
    stats.nodes += sub.stats.nodes;
    stats.table_references += sub.stats.table_references;
    lower_bound = std::min(lower_bound, sub.lower_bound);
    if (sub.limit_reached()) status = sub.status;
    if (sub.guarantee.kind == Guarantee::Kind::heuristic) all_guaranteed = false;
    best.offer(cluster, group, sub.transfers, k);
    if (status != SearchStatus::finished) break;
  }
  MakespanPlan plan = multicast_detail::finish_plan(cluster, group, best.transfers, "ptas", k_max);
  plan.stats = stats;
  plan.stats.seconds = budget.elapsed_seconds();
  plan.status = status;
  plan.notes.push_back(fmt::format("best PTAS run: the {} fastest non-members offered as helpers", best.helpers));
  const bool every_k = k_max == group.max_useful_helpers && status == SearchStatus::finished;
  // OPT = min over k of OPT_k, and each run's bound holds for its own k.
  if (every_k) plan.lower_bound = std::max(plan.lower_bound, lower_bound);
  const double ratio = ptas_ratio(eps, eps_prime);
  if (every_k && all_guaranteed &&
      multicast_detail::source_fastest_for_helpers(cluster, group, group.max_useful_helpers)) {
    plan.guarantee = Guarantee::at_most(ratio);
    plan.guarantee.text = fmt::format(
        "<= (1+eps)(1+eps')(1+3eps') = {:.4g} x optimal (Khuller, Kim, Woeginger 2003 Thms 3-4, every helper count)",
        ratio);
  } else if (every_k) {
    plan.guarantee = Guarantee::at_most(2.0);
    plan.guarantee.text =
        "<= 2 x optimal (the source is slower than a processor it may use: FNF's bound, Liu 2002 Thm 4.7)";
  } else {
    plan.guarantee = Guarantee::none();
    plan.guarantee.text = status != SearchStatus::finished ? "none: stopped before every helper count was tried"
                                                           : "none: helper counts were capped";
  }
  settle_claims(plan, plan.lower_bound, cluster.tolerance(), kBoundMetProof);
  return plan;
}

}  // namespace hetcoll
