// Internals of the broadcast PTAS (ptas.h), not installed: the instance, one
// guess's set-up (ptas_guess.cpp) and the tables and DP that decide it
// (ptas_guess_solver.cpp), shared with the driver in ptas.cpp.
#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll::ptas_internal {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Count vectors are packed 16 bits per class, 4 classes per word, so that
// "a <= n componentwise" is two word operations (SWAR).
constexpr std::uint64_t kLaneHighBits = 0x8000800080008000ULL;
constexpr int kLanesPerWord = 4;
constexpr int kMaxWords = 8;
constexpr int kMaxClasses = kLanesPerWord * kMaxWords;
constexpr int kMaxDigit = 0x7fff;
using PackedCounts = std::array<std::uint64_t, kMaxWords>;

struct Instance {
  const Cluster& cluster;
  ProcessorIndex source = kNoProcessor;
  std::vector<ProcessorIndex> receivers;  // fastest first, then by index
  double fastest = 0;                     // t_min over the source and the receivers
  double eps = 0, eps_prime = 0;
  double fnf_makespan = 0;                // FNF over the same processors
  double simple_lower_bound = 0;

  // The tolerance rule of core/ids.h for every decision of the scheme.
  double tolerance() const { return cluster.tolerance(); }
  double guess(int j) const { return fastest * std::pow(1 + eps, j); }
  int first_guess_index() const {
    if (simple_lower_bound <= fastest) return 0;
    return std::max(0, static_cast<int>(std::floor(std::log(simple_lower_bound / fastest) / std::log1p(eps) + 1e-9)));
  }
};

struct SlowClass {
  double rounded = 0;  // every member is rounded up to this; infinity for the leaf-only class
  bool leaf_only = false;
  std::vector<ProcessorIndex> members;  // fastest first
};

struct SendingPoint {
  double time;  // when the slow processor served at this point has received
  ProcessorIndex sender;
};

// Everything one guess needs before its tables.
struct GuessSetup {
  double guess = 0, deadline = 0, tolerance = 0;
  std::vector<ProcessorIndex> fast;  // F without the source, fastest first
  std::vector<ProcessorIndex> slow;  // S, fastest first
  std::vector<Transfer> fast_transfers;
  double fast_makespan = 0;
  std::vector<SendingPoint> points;  // the |S| earliest, sorted
  std::vector<SlowClass> classes;    // by rounded time; the leaf-only class last
  int sending_classes = 0;           // classes that may have children
  double slack = 0;                  // deadline - earliest point
  std::int64_t max_tree_size = 0;    // no tree within the slack is larger
  enum class Verdict { undecided, feasible_fast_only, fast_part_too_late, no_sending_point } verdict =
      Verdict::undecided;
};

// Classes, sending points and the largest useful tree of one guess (the
// verdict decides the guesses that need no tables).
GuessSetup setup_guess(const Instance& instance, double guess);

struct GuessWork {
  double tree_vectors = 0, useful_trees = 0, dp_states = 0, operations = 0, bytes = 0;
  double dp_operations = 0;  // one run of the feasibility DP
  int classes = 0;
  int largest_class = 0;
};

// The predicted tables, DP states, operations and bytes of one guess.
GuessWork predict_guess(const Instance& instance, const GuessSetup& setup);

using Clock = std::chrono::steady_clock;

// Runs the tables and the DP of one guess; on success fills `children`.
class GuessSolver {
 public:
  GuessSolver(const Instance& instance, const GuessSetup& setup, SearchStats& stats,
              const std::function<bool()>& should_stop)
      : instance_(instance), setup_(setup), stats_(stats), should_stop_(should_stop) {}

  enum class Outcome { feasible, infeasible, stopped };

  Outcome run();

  // After a feasible run(): the rounded makespan of the solution found.
  double achieved() const;

  // After a feasible run(): the guess's deadline D only bounds the answer;
  // bisect for the least deadline the same tables and points can meet (the
  // DP alone is re-run; the guarantee only gets better). Leaves the tables
  // describing the best solution found. Returns its rounded makespan.
  double tighten(int max_rounds);

  // The ordered tree: the FNF part, then the slow trees at their points.
  std::vector<std::vector<ProcessorIndex>> children() const;

 private:
  struct Useful {
    std::uint32_t tree_index;  // in the tree table
    std::uint64_t dp_offset;   // the same vector in the DP's radix
    double time;               // B(m)
    PackedCounts packed;
  };

  void init_radix();

  PackedCounts pack(const std::vector<int>& digits) const;
  // a <= n in every lane (digits < 2^15, so no borrow crosses a lane).
  bool fits(const PackedCounts& a, const PackedCounts& n) const;

  void decode(std::uint64_t index, const std::vector<std::uint64_t>& stride, const std::vector<int>& cap,
              std::vector<int>& digits) const;

  bool build_tree_table();

  Outcome run_feasibility_dp(double deadline, bool may_stop = true);

  const Instance& instance_;
  const GuessSetup& setup_;
  SearchStats& stats_;
  const std::function<bool()>& should_stop_;

  std::vector<int> tree_cap_, counts_;
  std::vector<std::uint64_t> tree_stride_, dp_stride_;
  std::uint64_t tree_size_ = 1, dp_size_ = 1;
  int words_ = 1;
  std::vector<double> best_;
  std::vector<std::int8_t> root_class_;
  std::vector<std::vector<double>> fresh_;
  std::vector<std::vector<std::uint32_t>> first_subtree_;
  std::vector<Useful> useful_;
  std::vector<std::vector<int>> useful_digits_;
  std::vector<int> points_used_;
  std::vector<std::uint32_t> choice_;
};

}  // namespace hetcoll::ptas_internal
