// The registry of makespan algorithms.
//
// Every algorithm is registered by name with its operation, the model it
// plans in, its structured guarantee, its complexity and its reference, so
// that `hetcoll algorithms` lists them, the command line dispatches through
// them, and the registry-wide property test (tests/registry_property_test.cpp)
// covers each one automatically. Adding an algorithm = one file under
// makespan/<operation>/ plus one entry in registry.cpp.
//
// STABLE INTERFACE (others build on it): CommunicationModel, ClaimCondition,
// AlgorithmGuarantee, MakespanRequest (fields are only added),
// MakespanAlgorithm (fields are only added), makespan_algorithms(),
// find_makespan_algorithm(), default_makespan_algorithm(), plan_makespan().
// A platform-graph planner registers with model = platform_graph and fills
// `run_on_platform` instead of `run`; plan_makespan() (cluster) never picks
// it, and the registry-wide cluster property test skips it (graph
// algorithms bring their own suite).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/auto_select.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct MakespanRequest;

// The model an algorithm plans in, and in which its claims are proven.
enum class CommunicationModel {
  sender_speed,    // Cluster: one transmission time per processor (Liu 2002, Liu, Kuo, Wang 2009)
  platform_graph,  // Platform: a directed graph with edge costs
};
const char* to_string(CommunicationModel model);

// A claim stronger than the worst case, and when it holds (a theorem's
// hypothesis, or an algorithm's own condition).
struct ClaimCondition {
  Guarantee::Kind kind = Guarantee::Kind::exact;  // exact, or ratio `ratio`
  double ratio = 1;
  std::string condition;  // e.g. "source a fastest processor, at most two classes"
  std::string reference;  // e.g. "Liu 2002 Thm 4.4"
  bool ratio_from_eps = false;  // the ratio is (1+eps)(1+eps')(1+3eps') (PTAS)
};

// What an algorithm proves, as values a test can check.
//  * kind/ratio: the worst case over every instance of `model` when the run
//    finishes (status finished): exact (makespan = optimum), ratio r
//    (makespan <= r x optimum) or heuristic (nothing). For the PTAS the ratio
//    depends on --eps: worst_ratio(request).
//  * stopped_kind/stopped_ratio: what still holds when a limit stops the run
//    or it refuses (the fallback's guarantee).
//  * stronger: conditions under which a plan claims more (theorems).
// Every plan carries its own, per-instance Guarantee (plan.h), never weaker
// than this one when it finished.
struct AlgorithmGuarantee {
  Guarantee::Kind kind = Guarantee::Kind::heuristic;
  double ratio = 0;
  bool ratio_from_eps = false;  // PTAS: max(ratio, (1+eps)(1+eps')(1+3eps'))
  Guarantee::Kind stopped_kind = Guarantee::Kind::heuristic;
  double stopped_ratio = 0;
  std::vector<ClaimCondition> stronger;
  std::string text;  // one line for --help and `hetcoll algorithms`

  // The worst-case factor for this request (1 for exact, infinity for
  // heuristic), when the run finishes.
  double worst_ratio(const MakespanRequest& request) const;
};

struct MakespanRequest {
  Operation operation = Operation::broadcast;
  // Source (broadcast, multicast) or root (reduce, all-reduce);
  // kNoProcessor = the algorithm's default (the first processor; for
  // all-reduce, a fastest processor).
  ProcessorIndex root = kNoProcessor;
  std::vector<ProcessorIndex> targets;              // multicast group
  std::optional<std::vector<ProcessorIndex>> order;  // `ep`: the sender order
  SearchLimits limits;                 // node/time limits and progress (core/limits.h)
  AutoBudget auto_budget;              // `auto`: its search budget (makespan/auto_select.h)
  double eps = 0.5;                    // PTAS: guessing precision
  std::optional<double> eps_prime;     // PTAS: fast/slow split (default eps)
  // Algorithms that can run long say here, before starting, what work they
  // will do (e.g. the PTAS's predicted states and seconds).
  std::function<void(std::string_view)> announce;
};

struct MakespanAlgorithm {
  std::string name;        // as given to --algo
  Operation operation;
  CommunicationModel model = CommunicationModel::sender_speed;
  AlgorithmGuarantee guarantee;
  std::string complexity;  // e.g. "O(n log n)"
  std::string reference;   // paper and section (docs/REFERENCES.md keys)
  std::string summary;     // one line for `hetcoll algorithms`
  bool is_default = false; // the best guaranteed algorithm that finishes quickly (per operation and model)
  // model == sender_speed:
  std::function<MakespanPlan(const Cluster&, const MakespanRequest&)> run;
  // model == platform_graph:
  std::function<MakespanPlan(const Platform&, const MakespanRequest&)> run_on_platform;
};

const std::vector<MakespanAlgorithm>& makespan_algorithms();
const MakespanAlgorithm* find_makespan_algorithm(Operation operation, std::string_view name,
                                                 CommunicationModel model = CommunicationModel::sender_speed);
const MakespanAlgorithm& default_makespan_algorithm(Operation operation,
                                                    CommunicationModel model = CommunicationModel::sender_speed);

// Runs the named sender-speed algorithm (or the default), validates the
// request (root, limits) and times it into plan.stats. Throws InputError for
// an unknown name or an invalid request.
MakespanPlan plan_makespan(const Cluster& cluster, const MakespanRequest& request,
                           std::string_view algorithm_name = {});

}  // namespace hetcoll
