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
#include "hetcoll/makespan/multicast/multicast.h"
#include "hetcoll/makespan/multicast/multicast_internal.h"

namespace hetcoll {

namespace {

struct Prediction {
  double seconds = 0, bytes = 0;
};

Prediction predict(const Cluster& cluster, const MulticastGroup& group, int k_max, double eps, double eps_prime) {
  Prediction total;
  for (int k = 0; k <= k_max; ++k) {
    auto work = estimate_broadcast_ptas(cluster, group.source, group.receivers_with_helpers(k), eps, eps_prime);
    total.seconds += work.seconds;
    total.bytes = std::max(total.bytes, work.bytes);
  }
  return total;
}

}  // namespace

MakespanPlan plan_multicast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& targets, const PtasParameters& parameters,
                                 std::optional<int> max_helpers) {
  const auto started = std::chrono::steady_clock::now();
  MulticastGroup group = make_multicast_group(cluster, source, targets);
  int k_max = group.max_useful_helpers;
  if (max_helpers) k_max = std::clamp(*max_helpers, 0, k_max);
  const double eps = parameters.eps;
  const double eps_prime = parameters.eps_prime.value_or(eps);
  if (!(eps > 0) || !std::isfinite(eps)) throw InputError("eps", fmt::format("must be a positive number, got {}", eps));
  if (!(eps_prime > 0) || !std::isfinite(eps_prime)) {
    throw InputError("eps_prime", fmt::format("must be a positive number, got {}", eps_prime));
  }
  const bool limited = std::isfinite(parameters.time_limit_seconds);
  const double refusal = limited ? parameters.time_limit_seconds : kPtasDefaultRefusalSeconds;
  Prediction predicted = predict(cluster, group, k_max, eps, eps_prime);
  if (parameters.refuse_long_runs && (predicted.seconds > refusal || predicted.bytes > 6e9)) {
    std::string advice = "no eps_prime below 8 fits: use algorithm \"fnf\"";
    for (double candidate = eps_prime * 1.1; candidate < 8; candidate *= 1.1) {
      Prediction p = predict(cluster, group, k_max, eps, candidate);
      if (p.seconds <= refusal && p.bytes <= 6e9) {
        advice = fmt::format("the finest eps_prime that fits is about {:.3g} (predicted {:.3g} s)", candidate * 1.001,
                             p.seconds);
        break;
      }
    }
    throw InputError("eps_prime", fmt::format(
        "{:g}: the multicast PTAS ({} runs, one per helper count) would take about {:.3g} s; the limit "
        "is {:g} s ({}); {}",
        eps_prime, k_max + 1, predicted.seconds, refusal, limited ? "the time limit" : "the default refusal threshold",
        advice));
  }

  std::vector<Transfer> best;
  double best_makespan = std::numeric_limits<double>::infinity();
  double lower_bound = std::numeric_limits<double>::infinity();
  int best_k = 0;
  bool all_guaranteed = true, stopped = false;
  SearchStats stats;
  for (int k = 0; k <= k_max; ++k) {
    PtasParameters run = parameters;
    run.refuse_long_runs = false;
    if (limited) {
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      run.time_limit_seconds = std::max(0.0, parameters.time_limit_seconds - elapsed);
    }
    MakespanPlan sub = plan_broadcast_ptas(cluster, source, group.receivers_with_helpers(k), run);
    stats.nodes += sub.stats.nodes;
    stats.table_references += sub.stats.table_references;
    lower_bound = std::min(lower_bound, sub.lower_bound);
    if (sub.limit_reached) stopped = true;
    if (sub.guarantee.kind == Guarantee::Kind::heuristic) all_guaranteed = false;
    auto transfers = prune_idle_helpers(cluster, source, sub.transfers, group.targets);
    double makespan = last_completion(transfers);
    if (makespan < best_makespan - cluster.tolerance()) {
      best_makespan = makespan;
      best = std::move(transfers);
      best_k = k;
    }
    if (stopped) break;
  }
  MakespanPlan plan = multicast_detail::finish_plan(cluster, group, best, "ptas", k_max);
  plan.stats = stats;
  plan.limit_reached = stopped;
  plan.notes.push_back(fmt::format("best PTAS run: the {} fastest non-members offered as helpers", best_k));
  const bool every_k = k_max == group.max_useful_helpers && !stopped;
  if (every_k) plan.lower_bound = std::max(plan.lower_bound, lower_bound);
  const double ratio = ptas_ratio(eps, eps_prime);
  if (every_k && all_guaranteed &&
      multicast_detail::source_fastest_for_helpers(cluster, group, group.max_useful_helpers)) {
    plan.guarantee = Guarantee::at_most(ratio);
    plan.guarantee.text =
        fmt::format("<= (1+eps)(1+eps')(1+3eps') = {:.4g} x optimal (Khuller, Kim, Woeginger 2003 Thms 3-4, every helper count)", ratio);
  } else if (every_k) {
    plan.guarantee = Guarantee::at_most(2.0);
    plan.guarantee.text =
        "<= 2 x optimal (the source is slower than a processor it may use: FNF's bound, Liu 2002 Thm 4.7)";
  } else {
    plan.guarantee = Guarantee::none();
    plan.guarantee.text = stopped ? "none: stopped before every helper count was tried"
                                  : "none: helper counts were capped";
  }
  if (plan.makespan <= plan.lower_bound + cluster.tolerance()) {
    plan.optimal = true;
    plan.optimality_proof = "the makespan equals a proven lower bound";
    plan.guarantee = Guarantee::exact();
  }
  return plan;
}

}  // namespace hetcoll
