// hetcoll — the public one-shot API (docs/LIBRARY.md).
//
//   #include <hetcoll/hetcoll.h>
//
//   hetcoll::Cluster cluster = hetcoll::Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
//   hetcoll::MakespanPlan plan = hetcoll::plan_broadcast(cluster, "p0");
//   // plan.makespan, plan.lower_bound, plan.guarantee, plan.optimal, plan.transfers
//
// One function per collective. Each runs the algorithm registered under
// `options.algorithm` (default "auto": the greedy plan, replaced by the exact
// optimum when a bounded search proves it), checks the plan with verify()
// against the communication model, and returns it. A plan that fails the
// check is a hetcoll bug and throws std::logic_error, so every plan returned
// here is valid: its transfers respect one-port and causality, everyone gets
// what the collective promises, and its claims (makespan, lower bound,
// `optimal`) hold.
//
// Errors. InputError when an argument is wrong; `parameter()` names it
// ("source", "targets", "algorithm", "order", "eps", ...) and `what()` starts
// with that name and says what is wrong. Reading a file: the message names
// the file and the field or line. What a solve *finds* is never an error: a
// search stopped by a limit returns its best plan with `status` saying which
// limit (core/limits.h; `limit_reached()` is true).
//
// Models. These functions plan in the sender-speed model (Liu 2002; Liu,
// Kuo, Wang 2009): processor p sends one message in t(p), to anyone, one
// message at a time. A platform graph is planned on its sender-speed view
// only when asked for (sender_speed_view()); whatever that plan proves holds
// for the view, not for the graph.
//
// Stable (changes only compatibly within 0.x minor versions): the functions
// and types declared in this header, PlanOptions' fields, and MakespanPlan's
// fields documented in docs/LIBRARY.md. The lower-level headers it includes
// (registry, planners) may change between minor versions.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The library's version, e.g. "0.1.0".
std::string_view version();

// A processor named by its id ("xeon0") or by its index (0, 1, ...), as on
// the command line. Default-constructed: "let the algorithm choose" (the
// first processor; for all-reduce, a fastest one).
class ProcessorRef {
 public:
  ProcessorRef() = default;
  ProcessorRef(std::string id) : name_(std::move(id)) {}
  ProcessorRef(const char* id) : name_(id) {}
  ProcessorRef(std::string_view id) : name_(std::string(id)) {}
  ProcessorRef(ProcessorIndex index) : name_(index) {}

  bool is_default() const { return std::holds_alternative<std::monostate>(name_); }
  // The processor's index in `cluster`; kNoProcessor when default. Throws
  // InputError(parameter, ...) when no processor has this id or index.
  ProcessorIndex resolve(const Cluster& cluster, std::string_view parameter) const;

 private:
  std::variant<std::monostate, std::string, ProcessorIndex> name_;
};

struct PlanOptions {
  // A name listed by algorithm_names(operation) (`hetcoll algorithms`);
  // empty: the default, "auto".
  std::string algorithm;
  // Exact searches stop after this many seconds or nodes and return their
  // best plan so far (status node_limit/time_limit, optimal = false unless its
  // bound proves it). Zero, negative or NaN time limits are InputErrors.
  double time_limit_seconds = std::numeric_limits<double>::infinity();
  std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max();
  // Algorithm "ptas" only: the precision eps and the fast/slow split eps'
  // (default: eps). Other algorithms ignore them.
  double eps = 0.5;
  std::optional<double> eps_prime;
  // Reduce with algorithm "ep" only: the order in which processors send
  // (every processor but the root, once).
  std::vector<ProcessorRef> order;
  // Called by long searches about twice a second; returning false stops the
  // search (its best plan so far is returned, status stopped_by_caller).
  ProgressCallback progress;
};

// One source sends a message to every processor.
MakespanPlan plan_broadcast(const Cluster& platform, ProcessorRef source = {}, const PlanOptions& options = {});
// One source sends to `targets`; other processors may receive and forward
// (helpers).
MakespanPlan plan_multicast(const Cluster& platform, ProcessorRef source, const std::vector<ProcessorRef>& targets,
                            const PlanOptions& options = {});
// Every processor's value is combined (associative, commutative operator)
// at `root`.
MakespanPlan plan_reduce(const Cluster& platform, ProcessorRef root = {}, const PlanOptions& options = {});
// A reduce into `root` (default: a fastest processor), then a broadcast of
// the result from it; the plan holds both phases.
MakespanPlan plan_allreduce(const Cluster& platform, ProcessorRef root = {}, const PlanOptions& options = {});

// The registered algorithm names for an operation, the default ("auto") first.
std::vector<std::string> algorithm_names(Operation operation);

// Platforms from files (docs/FORMATS.md). read_platform reads a cluster or
// graph JSON file or a SimGrid XML file; read_cluster insists on a cluster
// and says so, naming the file, when given a graph.
LoadedPlatform read_platform(const std::string& path);
Cluster read_cluster(const std::string& path);
// The sender-speed view of a platform graph: t(p) = the time of p's slowest
// route for a message of `message_size` bytes (unit messages when the edges
// give fixed costs). Claims of a plan made on the view hold for the view.
Cluster sender_speed_view(const Platform& graph, std::optional<double> message_size = std::nullopt);

// The plan as the JSON of docs/FORMATS.md ("valid": true: the plans
// returned above are verified), and as the text the command prints.
std::string plan_to_json(const MakespanPlan& plan, const Cluster& platform);
std::string plan_to_text(const MakespanPlan& plan, const Cluster& platform);

}  // namespace hetcoll
