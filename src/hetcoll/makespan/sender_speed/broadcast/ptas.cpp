// The scheme in detail (ptas.h states the contract):
//
//  * sending points: a fast processor p that finishes its FNF sends at a(p)
//    can deliver to slow processors at a(p) + m t(p), m = 1, 2, ...; the
//    |S| earliest points <= D are kept, sorted;
//  * tree table: for every vector m of class counts, B(m) = the least
//    broadcast time (rounded) of a tree made of exactly those slow
//    processors, by the recursion over count vectors
//      B(m)     = min over classes c in m of H_c(m - e_c)
//      H_c(0)   = 0
//      H_c(m')  = r_c + min over trees a <= m', a != 0, of max(B(a), H_c(m' - a))
//    (a root of class c sends its first subtree a at r_c, then acts as a
//    fresh root at r_c for the rest) — no labelled tree is enumerated;
//  * feasibility DP of sec. 3 over (j, n_1..n_k), collapsed to one number
//    per count vector: J(n) = the fewest first sending points that carry
//    trees covering exactly n; J(n) = min over trees m <= n with
//    B(m) <= D - x_{J(n-m)+1} of J(n-m) + 1. Exact for the paper's DP
//    because the deadlines D - x_j do not increase with j (exchange
//    argument: a tree can always move to an earlier free point).
//    The guess is feasible when the FNF part ends by D and J(s) <= #points.
//
// Reading taken where Khuller, Kim, Woeginger 2003 is ambiguous:
//  * the DP must test the deadline D = (1+eps')(1+3eps') T, not T: Lemma 2
//    only shows an F-first schedule within (1+3eps') T, and Theorem 2's
//    rounding adds the (1+eps'); testing T itself would not make Theorem 2
//    follow. With D, Theorem 2 reads: OPT <= T => the guess is feasible.
//  * "X_j = floor((T - c_j) / t_j)" counts slots from the completion time
//    c_j; we count them after p's FNF sends inside F (its earlier slots are
//    taken), which is what Lemma 2's schedule uses.
//  * a sending point may carry no tree (the paper's DP needs it too, or a
//    point could not be skipped).
//  * the source always sends with its true time; if t(source) > eps' T
//    (F empty) it is the only fast sender and every other processor is slow.
//

#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"

#include <algorithm>
#include <chrono>
#include <array>
#include <climits>
#include <cmath>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/ordered_tree.h"
#include "hetcoll/makespan/claims.h"

#include "hetcoll/makespan/sender_speed/broadcast/ptas_internal.h"

namespace hetcoll {

namespace {

// Cost of one predicted elementary step (one "is tree m <= n, does it fit"
// test), calibrated with `hetcoll experiment ptas-quality`. Predictions are
// upper estimates: the run stops at the first feasible guess.
constexpr double kSecondsPerOperation = 4e-9;

constexpr double kMaxBytes = kPtasMaxBytes;

// Bisection rounds of PtasParameters::tighten_deadline (each re-runs the DP).
constexpr int kTighteningRounds = 8;

using ptas_internal::Clock;
using ptas_internal::GuessSetup;
using ptas_internal::GuessSolver;
using ptas_internal::GuessWork;
using ptas_internal::Instance;
using ptas_internal::kInfinity;
using ptas_internal::predict_guess;
using ptas_internal::setup_guess;

Instance make_instance(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& receivers,
                       double eps, double eps_prime) {
  if (!(eps > 0) || !std::isfinite(eps)) throw InputError("eps", fmt::format("must be a positive number, got {}", eps));
  if (!(eps_prime > 0) || !std::isfinite(eps_prime)) {
    throw InputError("eps_prime", fmt::format("must be a positive number, got {}", eps_prime));
  }
  // Below this the guarantee changes by less than a millionth while the
  // number of guesses and of slow classes explodes.
  if (eps < kMinPtasEps) throw InputError("eps", fmt::format("must be at least {:g}, got {:g}", kMinPtasEps, eps));
  if (eps_prime < kMinPtasEps) {
    throw InputError("eps_prime", fmt::format("must be at least {:g}, got {:g}", kMinPtasEps, eps_prime));
  }
  if (source < 0 || source >= cluster.size()) throw InputError("the source is not a processor of the cluster");
  Instance instance{cluster, source, {}, 0, eps, eps_prime, 0, 0};
  std::vector<char> seen(static_cast<size_t>(cluster.size()), 0);
  seen[static_cast<size_t>(source)] = 1;
  for (ProcessorIndex p : receivers) {
    if (p < 0 || p >= cluster.size()) throw InputError("a receiver is not a processor of the cluster");
    if (!seen[static_cast<size_t>(p)]) {
      seen[static_cast<size_t>(p)] = 1;
      instance.receivers.push_back(p);
    }
  }
  sort_by_time_class(cluster, instance.receivers);  // fastest first; equal times (core/ids.h) by index
  instance.fastest = cluster.transmission_time(source);
  for (ProcessorIndex p : instance.receivers) instance.fastest = std::min(instance.fastest, cluster.transmission_time(p));
  instance.fnf_makespan = last_completion(fnf_transfers(cluster, source, instance.receivers));
  // bounds.h's broadcast bound, on the participating processors only (same proof).
  const auto participants = static_cast<std::int64_t>(instance.receivers.size()) + 1;
  instance.simple_lower_bound =
      participants < 2 ? 0.0 : cluster.transmission_time(source) + instance.fastest * (ceil_log2(participants) - 1);
  // The guesses T = t_min (1+eps)^j run from the lower bound to FNF's
  // makespan; a tiny eps makes that count explode before any other work.
  const double span = instance.fnf_makespan / std::max(instance.simple_lower_bound, instance.fastest);
  if (span > 1) {
    const double guesses = std::log(span) / std::log1p(eps) + 2;
    if (guesses > kMaxPtasGuesses) {
      throw InputError("eps", fmt::format("{} is too small: the scheme would try about {:.3g} guesses of the makespan "
                                          "(at most {:g} are allowed); use {:.3g} or more",
                                   eps, guesses, kMaxPtasGuesses, std::expm1(std::log(span) / (kMaxPtasGuesses - 2))));
    }
  }
  return instance;
}

bool source_is_fastest(const Instance& instance) {
  return time_leq(instance.cluster.transmission_time(instance.source), instance.fastest, instance.tolerance());
}

PtasWorkEstimate estimate(const Instance& instance, bool tighten, double stop_above_seconds = kInfinity) {
  PtasWorkEstimate result;
  result.eps = instance.eps;
  result.eps_prime = instance.eps_prime;
  if (instance.receivers.empty()) return result;
  // The run does at least every guess's set-up, so when predicting takes
  // longer than the threshold, so would the run: stop on the clock too.
  const auto started = std::chrono::steady_clock::now();
  double elapsed = 0;
  double previous = 0, largest_dp = 0;
  for (int j = instance.first_guess_index(); previous < instance.fnf_makespan; ++j) {
    double guess = instance.guess(j);
    previous = guess;
    GuessWork work = predict_guess(instance, setup_guess(instance, guess));
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ++result.guesses;
    result.max_classes = std::max(result.max_classes, work.classes);
    result.max_tree_vectors = std::max(result.max_tree_vectors, work.tree_vectors);
    result.max_useful_trees = std::max(result.max_useful_trees, work.useful_trees);
    result.max_dp_states = std::max(result.max_dp_states, work.dp_states);
    result.bytes = std::max(result.bytes, work.bytes);
    result.operations += work.operations;
    largest_dp = std::max(largest_dp, work.dp_operations);
    if (std::max(result.operations * kSecondsPerOperation, elapsed) > stop_above_seconds ||
        result.bytes > kMaxBytes) {
      result.truncated = true;  // already too long: no need to predict the rest
      break;
    }
  }
  // Tightening re-runs the DP of the feasible guess (PtasParameters).
  if (tighten) result.operations += kTighteningRounds * largest_dp;
  result.seconds = std::max(result.operations * kSecondsPerOperation, elapsed);
  return result;
}

std::string round_up_3(double value) {
  double scale = std::pow(10.0, std::floor(std::log10(value)) - 2);
  return fmt::format("{:g}", std::ceil(value / scale - 1e-9) * scale);
}

std::string human_seconds(double seconds) {
  if (!std::isfinite(seconds)) return "forever";
  if (seconds < 1) return fmt::format("{:.2g} s", seconds);
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{:.1f} h", seconds / 3600);
  if (seconds < 2 * 365 * 86400.0) return fmt::format("{:.0f} days", seconds / 86400);
  return fmt::format("{:.2g} years", seconds / (365 * 86400.0));
}

MakespanPlan fnf_fallback(const Instance& instance) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.root = instance.source;
  plan.transfers = fnf_transfers(instance.cluster, instance.source, instance.receivers);
  plan.makespan = last_completion(plan.transfers);
  return plan;
}

}  // namespace

std::string PtasWorkEstimate::describe() const {
  return fmt::format(
      "PTAS work (eps = {:g}, eps' = {:g}): up to {} guesses of T; per guess at most {} slow classes, a tree table of "
      "{:.3g} count vectors ({:.3g} trees within the slack, upper estimate), a feasibility DP over {:.3g} count "
      "vectors; about {:.3g} steps, predicted {}, {:.3g} MB",
      eps, eps_prime, guesses, max_classes, max_tree_vectors, max_useful_trees, max_dp_states, operations,
      human_seconds(seconds), bytes / 1e6);
}

double ptas_ratio(double eps, double eps_prime) { return (1 + eps) * (1 + eps_prime) * (1 + 3 * eps_prime); }

PtasWorkEstimate estimate_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& receivers, double eps, double eps_prime,
                                         double stop_above_seconds) {
  return estimate(make_instance(cluster, source, receivers, eps, eps_prime), /*tighten=*/true, stop_above_seconds);
}

std::optional<double> finest_fitting_eps_prime(const Cluster& cluster, ProcessorIndex source,
                                               const std::vector<ProcessorIndex>& receivers, double eps,
                                               double eps_prime, double seconds, double search_seconds) {
  const auto started = Clock::now();
  for (double candidate = eps_prime; candidate < 8; candidate *= 1.1) {
    PtasWorkEstimate work = estimate_broadcast_ptas(cluster, source, receivers, eps, candidate, seconds);
    if (!work.truncated && work.seconds <= seconds && work.bytes <= kMaxBytes) return candidate;
    if (std::chrono::duration<double>(Clock::now() - started).count() > search_seconds) break;
  }
  return std::nullopt;
}

MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& receivers, const PtasParameters& parameters) {
  SearchBudget budget(parameters.limits);
  const double eps = parameters.eps;
  const double eps_prime = parameters.eps_prime.value_or(parameters.eps);
  Instance instance = make_instance(cluster, source, receivers, eps, eps_prime);
  const bool fastest_source = source_is_fastest(instance);
  const double ratio = ptas_ratio(eps, eps_prime);
  const bool subset = instance.receivers.size() + 1 < static_cast<size_t>(cluster.size());
  const double simple_bound =
      subset ? instance.simple_lower_bound
             : std::max(instance.simple_lower_bound, broadcast_lower_bound(cluster, source));

  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "ptas";
  plan.root = source;
  if (subset) {
    // A subset: checkable as a multicast to exactly these receivers.
    plan.operation = Operation::multicast;
    plan.targets = instance.receivers;
  }
  // FNF: the fallback when refused or stopped before a feasible guess.
  auto use_fnf = [&](std::string why) {
    MakespanPlan fallback = fnf_fallback(instance);
    plan.transfers = std::move(fallback.transfers);
    plan.makespan = fallback.makespan;
    plan.guarantee = Guarantee::at_most(fastest_source ? 1.5 : 2.0);
    plan.guarantee.text = fastest_source ? "<= 1.5 x optimal (FNF from a fastest source: the PTAS did not run to a plan)"
                                         : "<= 2 x optimal (FNF, Liu 2002 Thm 4.7: the PTAS did not run to a plan)";
    plan.notes.push_back(std::move(why));
    settle_claims(plan, simple_bound, cluster.tolerance(), kBoundMetProof);
    plan.stats.seconds = budget.elapsed_seconds();
    return plan;
  };

  const bool limited = parameters.limits.has_time_limit();
  const double refusal = limited ? parameters.limits.time_limit_seconds : kPtasDefaultRefusalSeconds;
  if (parameters.refuse_long_runs) {
    PtasWorkEstimate predicted = estimate(instance, parameters.tighten_deadline, refusal);
    if (predicted.truncated || predicted.seconds > refusal || predicted.bytes > kMaxBytes) {
      // The advice costs a few more predictions: at most about the limit.
      auto fitting = finest_fitting_eps_prime(cluster, source, receivers, eps, eps_prime * 1.1, refusal,
                                              std::max(0.0, refusal - budget.elapsed_seconds()));
      std::string advice = fitting ? fmt::format("the finest eps_prime that fits is about {}", round_up_3(*fitting))
                                   : std::string("no eps_prime below 8 fits (or finding one would take longer than "
                                                 "the limit): use algorithm \"fnf\"");
      plan.status = SearchStatus::refused;
      return use_fnf(fmt::format(
          "refused: with eps_prime {:g} the PTAS would take {}{} and {:.3g} MB on this instance ({} classes, {:.3g} "
          "DP states x {:.3g} trees per guess, {} guesses predicted); the limit is {} ({}); {}. The FNF plan is "
          "returned.",
          eps_prime, predicted.truncated ? "more than " : "about ", human_seconds(predicted.seconds),
          predicted.bytes / 1e6, predicted.max_classes, predicted.max_dp_states, predicted.max_useful_trees,
          predicted.guesses, human_seconds(refusal), limited ? "the time limit" : "the default when no limit is given",
          advice));
    }
    plan.notes.push_back(predicted.describe());
  }
  if (instance.receivers.empty()) {
    plan.guarantee = Guarantee::exact();
    settle_claims(plan, 0.0, cluster.tolerance(), "nothing to send");
    return plan;
  }

  std::function<bool()> should_stop = [&]() {
    budget.table_references = plan.stats.table_references;
    return !budget.check(instance.fnf_makespan);
  };

  double largest_infeasible = 0;
  double feasible_guess = 0, feasible_deadline = 0, rounded_makespan = 0;
  int tried = 0;
  std::vector<Transfer> scheme_transfers;
  double previous = 0;
  bool stopped = false;
  for (int j = instance.first_guess_index(); previous < instance.fnf_makespan; ++j) {
    if (!budget.check(instance.fnf_makespan)) {
      stopped = true;
      break;
    }
    const double guess = instance.guess(j);
    previous = guess;
    ++tried;
    GuessSetup setup = setup_guess(instance, guess);
    using Verdict = GuessSetup::Verdict;
    if (setup.verdict == Verdict::fast_part_too_late || setup.verdict == Verdict::no_sending_point) {
      largest_infeasible = guess;
      continue;
    }
    std::vector<std::vector<ProcessorIndex>> children;
    rounded_makespan = setup.fast_makespan;
    if (setup.verdict == Verdict::feasible_fast_only) {
      children = ordered_children(setup.fast_transfers, cluster.size());
    } else {
      GuessSolver solver(instance, setup, plan.stats, should_stop);
      auto outcome = solver.run();
      if (outcome == GuessSolver::Outcome::stopped) {
        stopped = true;
        break;
      }
      if (outcome == GuessSolver::Outcome::infeasible) {
        largest_infeasible = guess;
        continue;
      }
      rounded_makespan = parameters.tighten_deadline ? solver.tighten(kTighteningRounds) : solver.achieved();
      children = solver.children();
    }
    scheme_transfers = ordered_tree_transfers(cluster, source, children);
    feasible_guess = guess;
    feasible_deadline = setup.deadline;
    break;
  }

  // By the contrapositive of Theorem 2, an infeasible guess proves OPT > T
  // (Lemma 1 needs a fastest source).
  const double proven = fastest_source ? std::max(simple_bound, largest_infeasible) : simple_bound;
  plan.stats.seconds = budget.elapsed_seconds();
  const bool scheme_done = !scheme_transfers.empty();
  if (!scheme_done) {
    plan.status = stopped ? budget.status() : SearchStatus::finished;
    use_fnf(stopped ? fmt::format("the PTAS stopped ({}) before a feasible guess; the FNF plan is returned",
                                  to_string(budget.status()))
                    : "internal inconsistency: no guess up to the FNF makespan was feasible; the FNF plan is returned");
    settle_claims(plan, proven, cluster.tolerance(), kBoundMetProof);
    return plan;
  }
  // A feasible guess is a finished run, even if the limit cut the optional
  // deadline tightening short.
  const double scheme_makespan = last_completion(scheme_transfers);
  plan.transfers = std::move(scheme_transfers);
  plan.makespan = scheme_makespan;
  plan.notes.push_back(fmt::format(
      "first feasible guess T = {:g} (after {} guesses); deadline D = (1+eps')(1+3eps')T = {:g}; rounded "
      "makespan {:g}{}; true makespan {:g}",
      feasible_guess, tried, feasible_deadline, rounded_makespan,
      parameters.tighten_deadline ? " (least deadline the guess's tables meet)" : "", scheme_makespan));
  if (!time_leq(scheme_makespan, feasible_deadline, instance.tolerance())) {
    plan.notes.push_back("internal inconsistency: the re-timed tree exceeds its rounded deadline");
  }
  if (largest_infeasible > 0 && fastest_source) {
    plan.notes.push_back(fmt::format(
        "guess T = {:g} is infeasible, so OPT > {:g} (contrapositive of Khuller, Kim, Woeginger 2003 Thm 2)",
        largest_infeasible, largest_infeasible));
  }
  if (fastest_source) {
    plan.guarantee = Guarantee::at_most(ratio);
    plan.guarantee.text =
        fmt::format("<= (1+eps)(1+eps')(1+3eps') = {:.4g} x optimal (Khuller, Kim, Woeginger 2003 Thm 3)", ratio);
  } else {
    MakespanPlan fallback = fnf_fallback(instance);
    plan.notes.push_back(fmt::format(
        "the source is not a fastest processor: Khuller, Kim, Woeginger 2003's guarantee (Lemma 1) does not apply; "
        "the scheme gave {:g}, FNF gives {:g}; the better is kept, with FNF's <= 2 x optimal (Liu 2002 Thm 4.7)",
        scheme_makespan, fallback.makespan));
    if (fallback.makespan < scheme_makespan) {
      plan.transfers = std::move(fallback.transfers);
      plan.makespan = fallback.makespan;
    }
    plan.guarantee = Guarantee::at_most(2.0);
    plan.guarantee.text = "<= 2 x optimal (FNF bound; the PTAS bound needs a fastest source)";
  }
  settle_claims(plan, proven, cluster.tolerance(), kBoundMetProof);
  if (!plan.optimal && plan.lower_bound > 0) {
    plan.notes.push_back(fmt::format("a posteriori: makespan / lower bound = {:.4g}", plan.makespan / plan.lower_bound));
  }
  return plan;
}

MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source, const PtasParameters& parameters) {
  std::vector<ProcessorIndex> receivers;
  receivers.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  return plan_broadcast_ptas(cluster, source, receivers, parameters);
}

}  // namespace hetcoll
