// The registry of makespan algorithms (sender-speed model).
//
// Every algorithm is registered by name with its operation, its guarantee,
// its complexity and its reference, so that `hetcoll algorithms` lists them,
// the command line dispatches through them, and the typed property tests
// cover each one automatically. Adding an algorithm = one file under
// makespan/<operation>/ plus one entry in registry.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// Called by long searches now and then; returning false asks them to stop
// (they then return their best plan so far with limit_reached = true).
using ProgressCallback = std::function<bool(const SearchStats& so_far, double best_makespan)>;

// Where an exact search stops early (it then returns its best plan with
// limit_reached = true): the multicast search and the graph search.
struct ExactSearchLimits {
  double time_limit_seconds = std::numeric_limits<double>::infinity();
  std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max();
  ProgressCallback progress;
};

struct MakespanRequest {
  Operation operation = Operation::broadcast;
  // Source (broadcast, multicast) or root (reduce, all-reduce);
  // kNoProcessor = the algorithm's default (the first processor; for
  // all-reduce, a fastest processor).
  ProcessorIndex root = kNoProcessor;
  std::vector<ProcessorIndex> targets;              // multicast group
  std::optional<std::vector<ProcessorIndex>> order;  // `ep`: the sender order
  double time_limit_seconds = std::numeric_limits<double>::infinity();
  std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max();
  double eps = 0.5;                    // PTAS: guessing precision
  std::optional<double> eps_prime;     // PTAS: fast/slow split (default eps)
  ProgressCallback progress;
  // Algorithms that can run long say here, before starting, what work they
  // will do (e.g. the PTAS's predicted states and seconds).
  std::function<void(std::string_view)> announce;
};

struct MakespanAlgorithm {
  std::string name;        // as given to --algo
  Operation operation;
  std::string guarantee;   // e.g. "<= 2 x optimal", "exact", "heuristic"
  std::string complexity;  // e.g. "O(n log n)"
  std::string reference;   // seed file and section
  std::string summary;     // one line for `hetcoll algorithms`
  bool is_default = false; // the best guaranteed algorithm that finishes quickly
  std::function<MakespanPlan(const Cluster&, const MakespanRequest&)> run;
};

const std::vector<MakespanAlgorithm>& makespan_algorithms();
const MakespanAlgorithm* find_makespan_algorithm(Operation operation, std::string_view name);
const MakespanAlgorithm& default_makespan_algorithm(Operation operation);

// Runs the named algorithm (or the default) and times it into plan.stats.
// Throws InputError for an unknown name or an invalid request.
MakespanPlan plan_makespan(const Cluster& cluster, const MakespanRequest& request,
                           std::string_view algorithm_name = {});

}  // namespace hetcoll
