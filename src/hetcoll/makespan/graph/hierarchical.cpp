#include "hetcoll/makespan/graph/hierarchical.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/makespan/graph/lookahead.h"
#include "hetcoll/makespan/graph/sites.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {

namespace {

// A group whose members cannot reach each other without relaying through a
// participant outside it: the hierarchy does not fit the platform.
struct NotSelfContained {};

bool self_contained(const RouteMatrix& table, std::size_t source) {
  std::vector<char> reached(table.size(), 0);
  std::vector<std::size_t> stack{source};
  reached[source] = 1;
  while (!stack.empty()) {
    const std::size_t u = stack.back();
    stack.pop_back();
    for (std::size_t v = 0; v < table.size(); ++v) {
      if (!reached[v] && table.connected(u, v)) {
        reached[v] = 1;
        stack.push_back(v);
      }
    }
  }
  return std::all_of(reached.begin(), reached.end(), [](char r) { return r != 0; });
}

class HierarchicalPlanner {
 public:
  HierarchicalPlanner(const GraphNetwork& network, const BroadcastTask& task)
      : network_(network),
        task_(task),
        sites_(detect_sites(network)),
        timeline_(network),
        relevant_(static_cast<std::size_t>(network.node_count()), 0) {
    for (std::size_t i = 0; i < task.members.size(); ++i) {
      if (task.must_receive[i] || task.members[i] == task.source) {
        relevant_[static_cast<std::size_t>(task.members[i])] = 1;
      }
    }
    const auto tree = task.reversed ? shortest_paths_to(network.platform(), task.source, network.edge_costs())
                                    : shortest_paths_from(network.platform(), task.source, network.edge_costs());
    distance_ = tree.distance;
  }

  EngineResult run() {
    plan_group(0, task_.source, task_.source_ready);
    EngineResult result;
    result.transfers = std::move(transfers_);
    result.notes.push_back(sites_text());
    return result;
  }

 private:
  // "hierarchical: 9 sites as the platform names them (AS_bordeaux, ...)",
  // or "hierarchical: 4 sites found by link cost, in 2 regions".
  std::string sites_text() const {
    const auto& groups = sites_.groups;
    const int classes = sites_.link_class_count();
    const std::string link_classes = classes > 1 ? fmt::format("; {} classes of links by cost", classes) : "";
    if (sites_.declared) {
      std::string names;
      const auto& top = groups[0].children;
      for (std::size_t i = 0; i < top.size() && i < 4; ++i) names += (i ? ", " : "") + groups[top[i]].name;
      if (top.size() > 4) names += ", ...";
      const std::size_t chunks = sites_.site_count() - top.size();
      return fmt::format("hierarchical: {} sites as the platform names them ({}){}{}", top.size(), names,
                         chunks ? ", the largest cut into parts for flat planning" : "",
                         link_classes);
    }
    std::size_t regions = 0;
    for (std::size_t g = 1; g < groups.size(); ++g) regions += groups[g].children.empty() ? 0 : 1;
    const std::size_t sites = sites_.site_count();
    return fmt::format("hierarchical: {} site{} found by link cost{}{}", sites, sites == 1 ? "" : "s",
                       regions ? fmt::format(", in {} region{}", regions, regions == 1 ? "" : "s") : "",
                       link_classes);
  }

  std::vector<ProcessorIndex> relevant_in(const SiteGroup& group) const {
    std::vector<ProcessorIndex> members;
    for (auto v : group.participants) {
      if (relevant_[static_cast<std::size_t>(v)]) members.push_back(v);
    }
    return members;
  }

  // Broadcasts from `gateway` (holding the message at `ready`) to `members`
  // on the shared timeline; returns when each member holds it.
  std::vector<double> flat(std::vector<ProcessorIndex> members, ProcessorIndex gateway, double ready) {
    std::sort(members.begin(), members.end());
    std::vector<double> informed(members.size(), ready);
    if (members.size() < 2) return informed;
    BroadcastTask level;
    level.source = gateway;
    level.members = members;
    level.reversed = task_.reversed;
    level.source_ready = ready;
    for (auto v : members) level.must_receive.push_back(v != gateway);
    FlatBroadcast state(network_, level, "hierarchical", &timeline_);
    if (!self_contained(state.table, state.table.index_of(gateway))) throw NotSelfContained{};
    run_lookahead(network_, state);
    for (const auto& t : state.builder.transfers()) transfers_.push_back(t);
    for (std::size_t i = 0; i < members.size(); ++i) informed[i] = state.builder.informed_at(i);
    return informed;
  }

  void plan_group(std::size_t g, ProcessorIndex gateway, double ready) {
    const SiteGroup& group = sites_.groups[g];
    if (group.children.empty()) {
      flat(relevant_in(group), gateway, ready);
      return;
    }
    // A gateway per subgroup holding relevant participants.
    struct Sub {
      std::size_t group;
      ProcessorIndex gateway;
    };
    std::vector<Sub> subs;
    for (auto c : group.children) {
      ProcessorIndex best = kNoProcessor;
      for (auto v : relevant_in(sites_.groups[c])) {
        if (v == gateway) {
          best = v;
          break;
        }
        if (best == kNoProcessor || distance_[static_cast<std::size_t>(v)] < distance_[static_cast<std::size_t>(best)]) {
          best = v;
        }
      }
      if (best != kNoProcessor) subs.push_back({c, best});
    }
    std::vector<ProcessorIndex> gateways;
    for (const auto& sub : subs) gateways.push_back(sub.gateway);
    const std::vector<double> informed = flat(gateways, gateway, ready);
    std::vector<ProcessorIndex> sorted = gateways;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& sub : subs) {
      const auto position = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), sub.gateway) -
                                                     sorted.begin());
      plan_group(sub.group, sub.gateway, informed[position]);
    }
  }

  const GraphNetwork& network_;
  const BroadcastTask& task_;
  SiteHierarchy sites_;
  PortTimeline timeline_;
  std::vector<char> relevant_;
  std::vector<double> distance_;
  std::vector<Transfer> transfers_;
};

}  // namespace

EngineResult broadcast_hierarchical(const GraphNetwork& network, const BroadcastTask& task) {
  try {
    return HierarchicalPlanner(network, task).run();
  } catch (const NotSelfContained&) {
    EngineResult flat = broadcast_lookahead(network, task);
    flat.notes.push_back("hierarchical: the hosts of a site cannot reach each other without relaying through "
                         "another site, so the plan is flat (look-ahead)");
    return flat;
  }
}

}  // namespace hetcoll
