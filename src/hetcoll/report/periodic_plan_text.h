// Human-readable views of a periodic (steady-state) plan for the terminal,
// with the verifier's verdict: reports sit above plan/ and verify/.
//
// By default numbers are decimals with 6 significant digits and the
// platform's time unit ("s" for latency/bandwidth and SimGrid platforms,
// "time units" when the platform declares none); `exact` prints the exact
// rationals and every digit of the period instead.
#pragma once

#include <string>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/sim/periodic_simulator.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {

struct PeriodicTextOptions {
  bool exact = false;  // exact rationals instead of decimals
};

// A few aligned lines: operation, throughput and what is proven about it
// (optimal, or the optimum and the loss of a rounded period), period,
// slots, trees, the linear program, validity, notes.
std::string periodic_plan_summary(const PeriodicPlan& plan, const Platform& platform,
                                  const PeriodicVerifyReport& report, const PeriodicTextOptions& options = {});

// The slots of one period, one line each ("slot 1  length 0.5 s: A->B 3xB,
// ..."), at most `max_slots`, then the trees (at most `max_trees`).
std::string periodic_plan_schedule_text(const PeriodicPlan& plan, const Platform& platform, std::size_t max_slots = 12,
                                        std::size_t max_trees = 6, const PeriodicTextOptions& options = {});

// "2.58064 operations per s" (`exact`: "1/2 (0.5) operations per time unit").
std::string periodic_rate_text(const Rational& throughput, const Platform& platform, bool exact = false);

// A period in the platform's unit: "100 s", "~1.338e+31 s" (32 digits),
// every digit when `exact`.
std::string period_text(const BigInteger& period, const Platform& platform, bool exact = false);

// "K operations in 41.3 s: 2.42 per s = 0.9382 x the throughput (start-up:
// first done at 0.61 s)".
std::string periodic_simulation_text(const PeriodicSimulationResult& result, const Platform& platform);

}  // namespace hetcoll
