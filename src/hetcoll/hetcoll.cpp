#include "hetcoll/hetcoll.h"

#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/plan/plan_json.h"
#include "hetcoll/report/plan_text.h"
#include "hetcoll/verify/verify.h"

#ifndef HETCOLL_VERSION
#error "HETCOLL_VERSION is defined by CMakeLists.txt from project(VERSION)"
#endif

namespace hetcoll {

std::string_view version() { return HETCOLL_VERSION; }

ProcessorIndex ProcessorRef::resolve(const Cluster& cluster, std::string_view parameter) const {
  if (const auto* index = std::get_if<ProcessorIndex>(&name_)) {
    if (*index < 0 || *index >= cluster.size()) {
      throw InputError(std::string(parameter),
                       fmt::format("no processor with index {} (the platform has {}: 0..{})", *index, cluster.size(),
                                   cluster.size() - 1));
    }
    return *index;
  }
  if (const auto* id = std::get_if<std::string>(&name_)) {
    if (auto found = cluster.find(*id)) return *found;
    throw InputError(std::string(parameter), fmt::format("no processor \"{}\" (give an id or an index 0..{})", *id,
                                                         cluster.size() - 1));
  }
  return kNoProcessor;
}

namespace {

MakespanPlan plan_verified(const Cluster& platform, Operation operation, const ProcessorRef& root,
                           const PlanOptions& options, std::vector<ProcessorIndex> targets = {}) {
  MakespanRequest request;
  request.operation = operation;
  const bool is_reduce = operation == Operation::reduce || operation == Operation::allreduce;
  request.root = root.resolve(platform, is_reduce ? "root" : "source");
  request.targets = std::move(targets);
  if (!options.order.empty()) {
    std::vector<ProcessorIndex> order;
    for (const auto& processor : options.order) {
      ProcessorIndex index = processor.resolve(platform, "order");
      if (index == kNoProcessor) throw InputError("order", "an empty processor reference");
      order.push_back(index);
    }
    request.order = std::move(order);
  }
  request.limits.time_limit_seconds = options.time_limit_seconds;
  request.limits.node_limit = options.node_limit;
  request.limits.progress = options.progress;
  request.eps = options.eps;
  request.eps_prime = options.eps_prime;

  if (!options.algorithm.empty() && !find_makespan_algorithm(operation, options.algorithm)) {
    std::string known;
    for (const auto& name : algorithm_names(operation)) known += (known.empty() ? "" : ", ") + name;
    throw InputError("algorithm", fmt::format("no algorithm \"{}\" for {} (known: {})", options.algorithm,
                                              to_string(operation), known));
  }
  MakespanPlan plan = plan_makespan(platform, request, options.algorithm);
  VerifyReport report = verify(platform, plan);
  if (!report.valid) {
    throw std::logic_error(fmt::format("hetcoll internal error: the {} plan of algorithm \"{}\" failed verification:\n{}",
                                       to_string(operation), plan.algorithm, report.summary()));
  }
  return plan;
}

}  // namespace

MakespanPlan plan_broadcast(const Cluster& platform, ProcessorRef source, const PlanOptions& options) {
  return plan_verified(platform, Operation::broadcast, source, options);
}

MakespanPlan plan_multicast(const Cluster& platform, ProcessorRef source, const std::vector<ProcessorRef>& targets,
                            const PlanOptions& options) {
  if (source.is_default()) throw InputError("source", "a multicast needs a source");
  if (targets.empty()) throw InputError("targets", "a multicast needs at least one target");
  std::vector<ProcessorIndex> target_indices;
  for (const auto& target : targets) {
    ProcessorIndex index = target.resolve(platform, "targets");
    if (index == kNoProcessor) throw InputError("targets", "an empty processor reference");
    target_indices.push_back(index);
  }
  return plan_verified(platform, Operation::multicast, source, options, std::move(target_indices));
}

MakespanPlan plan_reduce(const Cluster& platform, ProcessorRef root, const PlanOptions& options) {
  return plan_verified(platform, Operation::reduce, root, options);
}

MakespanPlan plan_allreduce(const Cluster& platform, ProcessorRef root, const PlanOptions& options) {
  return plan_verified(platform, Operation::allreduce, root, options);
}

std::vector<std::string> algorithm_names(Operation operation) {
  std::vector<std::string> names;
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation != operation) continue;
    if (algorithm.is_default) {
      names.insert(names.begin(), algorithm.name);
    } else {
      names.push_back(algorithm.name);
    }
  }
  return names;
}

LoadedPlatform read_platform(const std::string& path) { return load_platform_file(path); }

Cluster read_cluster(const std::string& path) {
  LoadedPlatform loaded = load_platform_file(path);
  if (!loaded.is_cluster()) {
    throw InputError(fmt::format("{}: a platform graph, not a cluster; read it with read_platform() and plan on "
                                 "sender_speed_view(platform.graph(), message_size) if that view is what you want",
                                 path));
  }
  return loaded.cluster();
}

Cluster sender_speed_view(const Platform& graph, std::optional<double> message_size) {
  return cluster_from_platform(graph, message_size, "platform");
}

std::string plan_to_json(const MakespanPlan& plan, const Cluster& platform) {
  std::ostringstream out;
  write_plan_json(out, plan, platform, {verify(platform, plan).valid, true});
  return out.str();
}

std::string plan_to_text(const MakespanPlan& plan, const Cluster& platform) {
  return plan_summary(plan, platform, verify(platform, plan)) + "\n" + tree_text(plan, platform);
}

}  // namespace hetcoll
