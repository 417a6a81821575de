// Human-readable reports of a makespan plan for the terminal: a summary
// (makespan, bound, guarantee, status, the verifier's verdict) and the
// communication tree. Reports sit above plan/ and verify/ (they show both);
// plan/ itself depends on neither.
#pragma once

#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

// A few aligned lines: operation, algorithm, makespan, lower bound, gap,
// guarantee, optimality (with its proof), validity, notes, statistics.
std::string plan_summary(const MakespanPlan& plan, const Cluster& cluster, const VerifyReport& report);

// The tree as indented text, children in time order, e.g.
//   p0 (t=1) holds the message at 0
//   ├── p1 (t=1) receives 0..1
//   │   └── p3 (t=2) receives 1..2
// Broadcast: from the source down; reduce: the root and who sent to it
// (recursively); all-reduce: both phases. At most `max_lines` lines.
std::string tree_text(const MakespanPlan& plan, const Cluster& cluster, std::size_t max_lines = 40);

}  // namespace hetcoll
