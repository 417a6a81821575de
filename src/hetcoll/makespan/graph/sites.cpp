#include "hetcoll/makespan/graph/sites.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace hetcoll {

std::size_t SiteHierarchy::site_count() const {
  std::size_t count = 0;
  for (const auto& group : groups) count += group.children.empty() ? 1 : 0;
  return count;
}

namespace {

struct UnionFind {
  std::vector<std::size_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  std::size_t find(std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Replaces the groups found by cost with the platform's declared sites when
// its participants name two or more.
void use_declared_sites(const GraphNetwork& network, std::size_t max_leaf, SiteHierarchy& hierarchy) {
  const Platform& platform = network.platform();
  std::vector<std::string> names;
  std::vector<std::vector<ProcessorIndex>> members;
  for (auto v : network.participants()) {
    const std::string& site = platform.node(v).site.empty() ? std::string("(no site)") : platform.node(v).site;
    auto found = std::find(names.begin(), names.end(), site);
    if (found == names.end()) {
      names.push_back(site);
      members.emplace_back();
      found = names.end() - 1;
    }
    members[static_cast<std::size_t>(found - names.begin())].push_back(v);
  }
  if (names.size() < 2) return;
  std::vector<SiteGroup> groups(1);
  groups[0].participants = network.participants();
  std::fill(hierarchy.site_of.begin(), hierarchy.site_of.end(), SIZE_MAX);
  auto add = [&](std::vector<ProcessorIndex> participants, std::size_t parent, std::string name) {
    SiteGroup group;
    group.participants = std::move(participants);
    group.parent = parent;
    group.depth = groups[parent].depth + 1;
    group.name = std::move(name);
    groups.push_back(std::move(group));
    groups[parent].children.push_back(groups.size() - 1);
    return groups.size() - 1;
  };
  for (std::size_t s = 0; s < names.size(); ++s) {
    const std::size_t site = add(members[s], 0, names[s]);
    if (members[s].size() <= max_leaf) {
      for (auto v : members[s]) hierarchy.site_of[static_cast<std::size_t>(v)] = site;
      continue;
    }
    for (std::size_t first = 0, part = 1; first < members[s].size(); first += max_leaf, ++part) {
      const std::size_t last = std::min(members[s].size(), first + max_leaf);
      const std::size_t chunk =
          add(std::vector<ProcessorIndex>(members[s].begin() + static_cast<std::ptrdiff_t>(first),
                                          members[s].begin() + static_cast<std::ptrdiff_t>(last)),
              site, fmt::format("{} (part {})", names[s], part));
      for (auto v : groups[chunk].participants) hierarchy.site_of[static_cast<std::size_t>(v)] = chunk;
    }
  }
  hierarchy.groups = std::move(groups);
  hierarchy.declared = true;
}

}  // namespace

SiteHierarchy detect_sites(const GraphNetwork& network, std::size_t max_leaf) {
  const Platform& platform = network.platform();
  const auto& costs = network.edge_costs();
  const auto n = static_cast<std::size_t>(platform.size());
  SiteHierarchy hierarchy;
  hierarchy.site_of.assign(n, SIZE_MAX);
  std::vector<std::vector<ProcessorIndex>> node_sets;  // per group: every node (routers too)
  std::vector<double> thresholds;
  std::vector<std::size_t> local(n, SIZE_MAX);  // node -> index in the group being split

  auto add_group = [&](std::vector<ProcessorIndex> nodes, std::size_t parent, int depth) {
    SiteGroup group;
    group.parent = parent;
    group.depth = depth;
    for (auto v : nodes) {
      if (network.is_participant(v)) group.participants.push_back(v);
    }
    hierarchy.groups.push_back(std::move(group));
    node_sets.push_back(std::move(nodes));
    return hierarchy.groups.size() - 1;
  };
  std::vector<ProcessorIndex> everything(n);
  std::iota(everything.begin(), everything.end(), 0);
  add_group(std::move(everything), 0, 0);

  std::vector<bool> already_split;  // per group: batches of subgroups, split when made
  for (std::size_t g = 0; g < hierarchy.groups.size(); ++g) {
    if (g < already_split.size() && already_split[g]) continue;
    const std::vector<ProcessorIndex> nodes = node_sets[g];
    for (std::size_t i = 0; i < nodes.size(); ++i) local[static_cast<std::size_t>(nodes[i])] = i;
    std::vector<double> inner;
    for (auto v : nodes) {
      for (auto e : platform.out_edges(v)) {
        // Wires (cost 0) always join their ends; they take no part in gaps.
        if (costs[e] > 0 && local[static_cast<std::size_t>(platform.edges()[e].to)] != SIZE_MAX) {
          inner.push_back(costs[e]);
        }
      }
    }
    std::sort(inner.begin(), inner.end());
    inner.erase(std::unique(inner.begin(), inner.end()), inner.end());
    // The most expensive significant gap whose cheap links leave some
    // participants together: the top level of the hierarchy (regions before
    // sites); deeper gaps are found inside each subgroup. Where every host
    // hangs off a private access link that is dearer than the links behind
    // it (SimGrid clusters with fast backbones, e.g. Grid'5000), a gap
    // isolates every participant; the split then keeps each participant
    // with its own links, and if that still isolates them all, the next
    // gap down is tried.
    auto split_at = [&](double threshold, bool join_participant_links) {
      UnionFind sets(nodes.size());
      for (auto v : nodes) {
        for (auto e : platform.out_edges(v)) {
          const auto to_node = platform.edges()[e].to;
          const auto to = local[static_cast<std::size_t>(to_node)];
          const bool joins = costs[e] <= threshold ||
                             (join_participant_links && (network.is_participant(v) || network.is_participant(to_node)));
          if (to != SIZE_MAX && joins) sets.unite(local[static_cast<std::size_t>(v)], to);
        }
      }
      std::vector<std::vector<ProcessorIndex>> parts;
      std::vector<std::size_t> component_of(nodes.size(), SIZE_MAX);
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto root = sets.find(i);
        if (component_of[root] == SIZE_MAX) {
          component_of[root] = parts.size();
          parts.emplace_back();
        }
        parts[component_of[root]].push_back(nodes[i]);
      }
      return parts;
    };
    auto participants_in = [&](const std::vector<ProcessorIndex>& component) {
      return static_cast<std::size_t>(std::count_if(component.begin(), component.end(),
                                                    [&](ProcessorIndex v) { return network.is_participant(v); }));
    };
    auto isolates_everyone = [&](const std::vector<std::vector<ProcessorIndex>>& parts) {
      return std::all_of(parts.begin(), parts.end(), [&](const auto& c) { return participants_in(c) <= 1; });
    };
    double threshold = 0;
    std::vector<std::vector<ProcessorIndex>> components;
    for (std::size_t i = inner.size(); i-- > 1;) {
      if (inner[i] / inner[i - 1] < kSiteGapRatio) continue;
      auto parts = split_at(inner[i - 1], false);
      if (isolates_everyone(parts) && hierarchy.groups[g].participants.size() > 2) {
        parts = split_at(inner[i - 1], true);
        if (isolates_everyone(parts)) continue;
      }
      threshold = inner[i - 1];
      components = std::move(parts);
      break;
    }
    for (auto v : nodes) local[static_cast<std::size_t>(v)] = SIZE_MAX;
    const auto with_participants = static_cast<std::size_t>(std::count_if(
        components.begin(), components.end(), [&](const auto& component) { return participants_in(component) > 0; }));
    const int depth = hierarchy.groups[g].depth + 1;
    if (with_participants >= 2) {
      thresholds.push_back(threshold);
      std::erase_if(components, [&](const auto& component) { return participants_in(component) == 0; });
      if (components.size() <= max_leaf) {
        for (auto& component : components) {
          const std::size_t child = add_group(std::move(component), g, depth);
          hierarchy.groups[g].children.push_back(child);
        }
        continue;
      }
      // More subgroups than one flat plan takes (e.g. thousands of sites on
      // one WAN): batches of at most max_leaf consecutive subgroups, each a
      // group of its own holding them, so that every level stays small. A
      // batch is not split again: its subgroups are already known.
      for (std::size_t first = 0; first < components.size(); first += max_leaf) {
        const std::size_t last = std::min(components.size(), first + max_leaf);
        std::vector<ProcessorIndex> batch_nodes;
        for (std::size_t c = first; c < last; ++c) {
          batch_nodes.insert(batch_nodes.end(), components[c].begin(), components[c].end());
        }
        const std::size_t batch = add_group(std::move(batch_nodes), g, depth);
        hierarchy.groups[g].children.push_back(batch);
        already_split.resize(hierarchy.groups.size(), false);
        already_split[batch] = true;
        for (std::size_t c = first; c < last; ++c) {
          const std::size_t child = add_group(std::move(components[c]), batch, depth + 1);
          hierarchy.groups[batch].children.push_back(child);
        }
      }
      continue;
    }
    // A site. Too many participants for one flat plan: chunks of
    // consecutive node indices, each a site of its own.
    const auto participants = hierarchy.groups[g].participants;
    if (participants.size() > max_leaf) {
      for (std::size_t first = 0; first < participants.size(); first += max_leaf) {
        const std::size_t last = std::min(participants.size(), first + max_leaf);
        std::vector<ProcessorIndex> chunk(participants.begin() + static_cast<std::ptrdiff_t>(first),
                                          participants.begin() + static_cast<std::ptrdiff_t>(last));
        const std::size_t child = add_group(std::move(chunk), g, depth);
        hierarchy.groups[g].children.push_back(child);
        node_sets[child].clear();  // chunks own no routers; they are leaves as they stand
      }
      // The chunk groups are appended after g; mark them processed as leaves.
      for (auto child : hierarchy.groups[g].children) {
        for (auto v : hierarchy.groups[child].participants) hierarchy.site_of[static_cast<std::size_t>(v)] = child;
      }
      for (auto v : node_sets[g]) {
        if (!network.is_participant(v)) hierarchy.site_of[static_cast<std::size_t>(v)] = hierarchy.groups[g].children.front();
      }
      // Skip splitting the chunks: they were given no nodes to split.
      continue;
    }
    for (auto v : node_sets[g]) hierarchy.site_of[static_cast<std::size_t>(v)] = g;
  }
  // Chunks were queued with empty node sets: they became leaves with
  // site_of already set; nothing else to do.

  use_declared_sites(network, max_leaf, hierarchy);

  std::sort(thresholds.begin(), thresholds.end());
  for (double t : thresholds) {
    if (!hierarchy.class_thresholds.empty() && t / hierarchy.class_thresholds.back() < kSiteGapRatio) {
      hierarchy.class_thresholds.back() = t;  // same gap seen in two groups: keep the larger cut
    } else {
      hierarchy.class_thresholds.push_back(t);
    }
  }
  hierarchy.edge_class.resize(costs.size());
  for (std::size_t e = 0; e < costs.size(); ++e) {
    const auto& th = hierarchy.class_thresholds;
    hierarchy.edge_class[e] = static_cast<std::uint8_t>(std::lower_bound(th.begin(), th.end(), costs[e]) - th.begin());
  }
  return hierarchy;
}

}  // namespace hetcoll
