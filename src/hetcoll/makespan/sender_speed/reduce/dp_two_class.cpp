// The lemma5 DP in detail (dp_two_class.h states the contract):
//
//  * lemma5: Lemma 4 plus the three cases of Figs. 13-15 on the diagonal
//    point A = (a, a + 1) of column f_l = a and its buddy B = (f - 1 - a,
//    s - a - 1):
//      case 1, S(A) <= S(B) + 1 (2a + 1 <= s): points below A in column a
//        are dominated (their buddies B' satisfy T(B') >= T(B) by Lemma 4
//        and T(B') >= T(A) by Lemmas 4 and 5, the latter needing
//        F(B) >= F(A), true since we only visit f_l <= f_r);
//      case 2, S(A) > S(B) + 1 and T(A) <= T(B): points below A dominated;
//      case 3, S(A) > S(B) + 1 and T(A) > T(B): from this column a3 on,
//        region 1 (f_l >= a3, s_l >= a3 + 1: T >= T(A) by Lemmas 4, 5) and
//        region 2 (buddy in region 1's image: s_l <= s - a3 - 1) are
//        dominated; only the rectangle s - a3 <= s_l <= a3 remains.
//    When T(A) >= T(B) in cases 1-2 the crossover is A itself and the
//    column costs one reference. Columns whose diagonal point lies above s
//    (f_l >= s, the Fig. 16 situation) are searched in full. Before a
//    binary search, the ends of the range are compared with the best value
//    (the rectangle elimination of Fig. 12): the column is skipped when
//    T(a, lo) or T(b, s - hi) already reaches it, and the loop stops when
//    that happens at lo = 0 (Lemma 5 at s = 0: no later column can do
//    better).
//    Reading taken: the OCR text lost Figs. 13-16; the regions above are
//    the ones whose dominance the Lemma 4/5 arguments of sec. 5.3.4 prove,
//    and the tests check this DP against the naive one cell by cell.
//
// The capacity DP in detail (dp_two_class.h states the contract):
//
// (-1 if even s = 0 does not fit). By (2), S(f; D) = max over f_l + f_r =
// f - 1 of S(f_l; D - t_f) + S(f_r; D - t_f) (a max-plus self-convolution),
// S(0; D) = 2^floor(D / t_s) - 1, and S(f; .) only changes at the lattice
// points a t_f + b t_s where critical paths end — with a <= f_max, since a
// path holds at most f_max fast senders (a lattice on a alone would hold
// ~6e8 points for t_s / t_f = 3e8). T(f, s) = the least lattice D with
// S(f; D) >= s. Cost O(#lattice points x f_max^2 / 4), independent of
// s_max: the whole 1001 x 1001 table in milliseconds. Before building,
// estimate() predicts the lattice size, the work and the memory, and the
// planner refuses (status refused, SNF's plan) what exceeds the time limit
// or kDpMaxBytes; while building it stops at the time limit.
//

#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"

namespace hetcoll {

std::string_view to_string(TwoClassDp variant) {
  switch (variant) {
    case TwoClassDp::naive: return "naive";
    case TwoClassDp::lemma4: return "lemma4";
    case TwoClassDp::lemma5: return "lemma5";
  }
  return "?";
}

namespace {

void check_times(double t_fast, double t_slow, int max_f, int max_s) {
  if (!(t_fast > 0) || !(t_slow >= t_fast) || !std::isfinite(t_slow)) {
    throw InputError(fmt::format("two-class DP: need 0 < t_fast <= t_slow, got {} and {}", t_fast, t_slow));
  }
  if (max_f < 0 || max_s < 0) throw InputError("two-class DP: negative processor count");
}

// One cell of eq. (2), f >= 1 and s >= 1, reading T from `value` (cells with
// fewer fast senders are final).
template <class Lookup>
double dp_cell(const Lookup& value, double t_fast, int f, int s, TwoClassDp variant, std::uint64_t* references) {
  double best = std::numeric_limits<double>::infinity();
  const int last_column = (f - 1) / 2;  // f_l <= f_r: buddy pairs are unordered
  switch (variant) {
    case TwoClassDp::naive:
      for (int a = 0; a <= last_column; ++a) {
        const int b = f - 1 - a;
        const int top = (a == b) ? s / 2 : s;  // a == b: (x, s - x) and (s - x, x) are one pair
        for (int x = 0; x <= top; ++x) {
          ++*references;
          best = std::min(best, std::max(value(a, x), value(b, s - x)));
        }
      }
      break;
    case TwoClassDp::lemma4:
      for (int a = 0; a <= last_column; ++a) {
        best = std::min(best, detail::crossover_search(value, a, f - 1 - a, s, 0, s, references).first);
      }
      break;
    case TwoClassDp::lemma5: {
      int case3_column = -1;  // a3 once case 3 has occurred
      for (int a = 0; a <= last_column; ++a) {
        const int b = f - 1 - a;
        int lo = 0, hi = s;
        if (case3_column >= 0) {
          lo = std::max(0, s - case3_column);
          hi = std::min(s, case3_column);
        } else if (a + 1 <= s) {
          // Diagonal point A = (a, a + 1), buddy B = (b, s - a - 1).
          ++*references;
          const double at_a = value(a, a + 1), at_b = value(b, s - a - 1);
          best = std::min(best, std::max(at_a, at_b));
          if (2 * a + 1 <= s || at_a <= at_b) {
            // Cases 1 and 2: below A is dominated. If T(A) >= T(B) the
            // crossover is A itself: the column is done.
            if (at_a >= at_b) continue;
            lo = a + 2;
          } else {
            case3_column = a;  // case 3: only the rectangle remains, from here on
            lo = std::max(0, s - a);
            hi = std::min(s, a);
          }
        }
        if (lo > hi) {
          if (case3_column >= 0) break;  // the rectangle is empty for every later column too
          continue;
        }
        // Fig. 12: a point already no better than the best value rules out
        // the points above it (Lemma 4) and, at s = 0, every later column
        // (Lemma 5: T(a', x) >= T(a', 0) >= T(a, 0) for a' >= a).
        ++*references;
        const double low_end = value(a, lo), high_end = value(b, s - hi);
        if (low_end >= best) {
          if (lo == 0) break;
          continue;
        }
        if (high_end >= best) continue;
        best = std::min(best, detail::crossover_search(value, a, b, s, lo, hi, references).first);
      }
      break;
    }
  }
  return t_fast + best;
}

double one_class_time(int count, double t) { return ceil_log2(static_cast<std::int64_t>(count) + 1) * t; }

}  // namespace

TwoClassTable two_class_table(double t_fast, double t_slow, int max_f, int max_s, TwoClassDp variant) {
  check_times(t_fast, t_slow, max_f, max_s);
  TwoClassTable table;
  table.t_fast = t_fast;
  table.t_slow = t_slow;
  table.max_f = max_f;
  table.max_s = max_s;
  const size_t cells = static_cast<size_t>(max_f + 1) * static_cast<size_t>(max_s + 1);
  table.values.assign(cells, 0.0);
  table.cell_references.assign(cells, 0);
  const size_t width = static_cast<size_t>(max_s + 1);
  auto value = [&](int f, int s) { return table.values[static_cast<size_t>(f) * width + static_cast<size_t>(s)]; };
  for (int f = 0; f <= max_f; ++f) {
    for (int s = 0; s <= max_s; ++s) {
      const size_t index = static_cast<size_t>(f) * width + static_cast<size_t>(s);
      if (f == 0) {
        table.values[index] = one_class_time(s, t_slow);  // eq. (3)
      } else if (s == 0) {
        table.values[index] = one_class_time(f, t_fast);
      } else {
        std::uint64_t references = 0;
        table.values[index] = dp_cell(value, t_fast, f, s, variant, &references);
        table.cell_references[index] = references;
        table.total_references += references;
      }
    }
  }
  return table;
}

namespace {

// Calibrated with bench_exact: one pair
// evaluation of the capacity DP, one lattice point built and sorted.
constexpr double kSecondsPerPair = 1.5e-9;
constexpr double kSecondsPerLatticePoint = 6e-8;

// Every T(f, s) <= a complete tree of depth ceil(log2(f + s + 1)) of slow nodes.
double lattice_horizon(double t_fast, double t_slow, int max_f, int max_s) {
  const double horizon = ceil_log2(static_cast<std::int64_t>(max_f) + max_s + 1) * t_slow;
  return horizon + tie_tolerance(horizon, horizon, time_tolerance(t_fast, t_slow));
}

}  // namespace

DpWorkEstimate TwoClassCapacity::estimate(double t_fast, double t_slow, int max_f, int max_s) {
  check_times(t_fast, t_slow, max_f, max_s);
  const double bound = lattice_horizon(t_fast, t_slow, max_f, max_s);
  const auto slow_steps = static_cast<std::int64_t>(std::floor(bound / t_slow));
  double lattice_points = 0;
  for (std::int64_t b = 0; b <= slow_steps; ++b) {
    lattice_points += std::min<double>(max_f, std::floor((bound - b * t_slow) / t_fast)) + 1;
  }
  DpWorkEstimate work;
  work.table_entries = lattice_points;
  const double pairs = lattice_points * (max_f + 1.0) * (max_f + 1.0) / 4.0;
  work.operations = pairs + lattice_points;
  work.bytes = lattice_points * (16.0 + 32.0 + 4.0 * (max_f + 1.0));
  work.seconds = pairs * kSecondsPerPair + lattice_points * kSecondsPerLatticePoint;
  return work;
}

TwoClassCapacity::TwoClassCapacity(double t_fast, double t_slow, int max_f, int max_s, SearchBudget* budget)
    : t_fast_(t_fast), t_slow_(t_slow), max_f_(max_f), max_s_(max_s) {
  check_times(t_fast, t_slow, max_f, max_s);
  const double tolerance = time_tolerance(t_fast, t_slow);
  const std::int64_t cap = static_cast<std::int64_t>(max_s) + 1;
  const double bound = lattice_horizon(t_fast, t_slow, max_f, max_s);
  const auto slow_steps = static_cast<std::int64_t>(std::floor(bound / t_slow));
  // A critical path holds at most max_f fast senders: a <= max_f.
  for (std::int64_t b = 0; b <= slow_steps; ++b) {
    for (std::int64_t a = 0; a <= max_f && a * t_fast + b * t_slow <= bound; ++a) {
      deadlines_.push_back(a * t_fast + b * t_slow);
    }
    if (budget && !budget->check()) {
      stopped_ = true;
      return;
    }
  }
  std::sort(deadlines_.begin(), deadlines_.end());
  std::vector<double> merged;
  for (double d : deadlines_) {
    if (merged.empty() || !time_leq(d, merged.back(), tolerance)) merged.push_back(d);
  }
  deadlines_ = std::move(merged);

  rows_.assign(deadlines_.size(), std::vector<std::int32_t>(static_cast<size_t>(max_f) + 1, -1));
  std::int64_t previous_source = -2;
  for (size_t d = 0; d < deadlines_.size(); ++d) {
    if (budget) {
      budget->table_references = references_;
      if (!budget->check()) {
        stopped_ = true;
        return;
      }
    }
    const double deadline = deadlines_[d];
    auto& row = rows_[d];
    // S(0; D): a complete tree of slow senders of depth floor(D / t_s).
    // Up to the tolerance rule (relative to the deadline: the rounding noise
    // of a * t_f + b * t_s is relative to it, not to the fastest time).
    const auto depth =
        static_cast<std::int64_t>(std::floor((deadline + tie_tolerance(deadline, deadline, tolerance)) / t_slow));
    row[0] = static_cast<std::int32_t>(depth >= 31 ? cap : std::min<std::int64_t>(cap, (std::int64_t{1} << depth) - 1));
    // The fast root takes t_f: subtrees must fit by D - t_f (the lattice point at or below it).
    const double rest = deadline - t_fast;
    auto it = std::upper_bound(deadlines_.begin(), deadlines_.end(), rest + tie_tolerance(deadline, rest, tolerance));
    const std::int64_t source = (it == deadlines_.begin()) ? -1 : (it - deadlines_.begin()) - 1;
    if (source == previous_source && d > 0) {
      std::copy(rows_[d - 1].begin() + 1, rows_[d - 1].end(), row.begin() + 1);
      continue;
    }
    previous_source = source;
    if (source < 0) continue;  // f >= 1 does not fit
    const auto& below = rows_[static_cast<size_t>(source)];
    int feasible = -1;  // the largest f with S(f; D - t_f) >= 0 (feasibility is a prefix in f)
    while (feasible + 1 <= max_f && below[static_cast<size_t>(feasible + 1)] >= 0) ++feasible;
    for (int f = 1; f <= max_f; ++f) {
      if (f - 1 > 2 * feasible) break;
      std::int64_t best = -1;
      for (int a = std::max(0, f - 1 - feasible); a <= (f - 1) / 2; ++a) {
        ++references_;
        best = std::max<std::int64_t>(best, std::int64_t{below[static_cast<size_t>(a)]} + below[static_cast<size_t>(f - 1 - a)]);
      }
      row[static_cast<size_t>(f)] = static_cast<std::int32_t>(std::min(best, cap));
    }
  }
}


double TwoClassCapacity::value(int f, int s) const {
  if (f < 0 || f > max_f_ || s < 0 || s > max_s_) throw std::out_of_range("TwoClassCapacity::value");
  size_t lo = 0, hi = rows_.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (rows_[mid][static_cast<size_t>(f)] >= s) hi = mid; else lo = mid + 1;
  }
  if (lo == rows_.size()) throw std::logic_error("TwoClassCapacity: deadline lattice too short");
  return deadlines_[lo];
}

TwoClassTable TwoClassCapacity::table() const {
  TwoClassTable table;
  table.t_fast = t_fast_;
  table.t_slow = t_slow_;
  table.max_f = max_f_;
  table.max_s = max_s_;
  const size_t width = static_cast<size_t>(max_s_) + 1;
  table.values.assign(static_cast<size_t>(max_f_ + 1) * width, 0.0);
  table.cell_references.assign(table.values.size(), 0);
  table.total_references = references_;
  for (int f = 0; f <= max_f_; ++f) {
    size_t d = 0;
    for (int s = 0; s <= max_s_; ++s) {
      while (d < rows_.size() && rows_[d][static_cast<size_t>(f)] < s) ++d;
      if (d == rows_.size()) throw std::logic_error("TwoClassCapacity: deadline lattice too short");
      table.values[static_cast<size_t>(f) * width + static_cast<size_t>(s)] = deadlines_[d];
    }
  }
  return table;
}

std::string DpWorkEstimate::describe() const {
  return fmt::format("{:.3g} table entries, about {:.3g} steps, {:.3g} MB, predicted {:.3g} s", table_entries,
                     operations, bytes / 1e6, seconds);
}

std::optional<std::string> dp_refusal(const DpWorkEstimate& work, const SearchLimits& limits) {
  const double seconds = limits.has_time_limit() ? limits.time_limit_seconds : kDpDefaultRefusalSeconds;
  if (work.seconds <= seconds && work.bytes <= kDpMaxBytes) return std::nullopt;
  return fmt::format("refused: the DP would need {}; the limit is {:.3g} s ({}) and {:.3g} MB; the SNF plan is returned "
                     "(algorithm \"optimal\" searches with a time limit instead)",
                     work.describe(), seconds, limits.has_time_limit() ? "the time limit" : "the default when no limit is given",
                     kDpMaxBytes / 1e6);
}

MakespanPlan dp_fallback_plan(const Cluster& cluster, ProcessorIndex root, SearchStatus status, std::string note) {
  MakespanPlan plan = reduce_plan_from_order(cluster, root, snf_order(cluster, root), "dp");
  plan.status = status;
  plan.guarantee = Guarantee::at_most(2.0);
  plan.notes.push_back(std::move(note));
  settle_claims(plan, reduce_lower_bound(cluster, root), cluster.tolerance(), kBoundMetProof);
  return plan;
}

MakespanPlan plan_reduce_dp_two_class(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  SearchBudget budget(limits);
  SenderClasses classes = sender_classes(cluster, root);
  if (classes.times.size() > 2) {
    throw InputError(fmt::format("the two-class DP needs at most two sender time classes, found {}",
                                 classes.times.size()));
  }
  McpTree tree;
  double optimum = 0;
  std::uint64_t references = 0;
  if (!classes.times.empty()) {
    const bool two = classes.times.size() == 2;
    const double t_fast = classes.times.front(), t_slow = classes.times.back();
    const int f = two ? static_cast<int>(classes.members[0].size()) : 0;
    const int s = static_cast<int>(classes.members.back().size());
    const DpWorkEstimate work = TwoClassCapacity::estimate(t_fast, t_slow, f, s);
    if (auto refusal = dp_refusal(work, limits)) {
      return dp_fallback_plan(cluster, root, SearchStatus::refused, *refusal);
    }
    TwoClassCapacity capacity(t_fast, t_slow, f, s, &budget);
    if (capacity.stopped()) {
      return dp_fallback_plan(cluster, root, budget.status(),
                              fmt::format("the two-class DP stopped ({}) after {:.3g} s; the SNF plan is returned",
                                          to_string(budget.status()), budget.elapsed_seconds()));
    }
    tree = two_class_mcp_tree([&](int a, int b) { return capacity.value(a, b); }, f, s);
    if (!two) {
      for (auto& node : tree.nodes) node.class_index = 0;  // the only class
    }
    optimum = capacity.value(f, s);
    references = capacity.references();
  }
  MakespanPlan plan = plan_from_optimal_mcp_tree(
      cluster, root, tree, classes, optimum, "two-class DP",
      fmt::format("two-class DP finished (Liu, Kuo, Wang 2009 eqs. 2-4): T({}, {}) = {}",
                  classes.times.size() == 2 ? classes.members[0].size() : 0,
                  classes.times.empty() ? 0 : classes.members.back().size(), optimum));
  plan.stats.table_references = references;
  plan.stats.seconds = budget.elapsed_seconds();
  return plan;
}

}  // namespace hetcoll
