// Sites of a platform graph: the hierarchy of groups that cheap links hold
// together (hosts of a cluster, clusters of a region, regions of a grid), for
// the hierarchical planner and for pictures that colour links by class.
//
// Detection, top-down: within a group, sort the distinct costs of the edges
// joining its nodes and find the most expensive gap where a cost is at
// least kSiteGapRatio times the one below it; the edges below that gap are
// the group's cheap links, and the connected components they form
// (directions ignored) are its subgroups (regions first, then, inside each,
// the next gap down: sites). A group is a leaf (a site) when no such gap exists or
// the cheap links connect it whole. A gap that would leave every
// participant alone (hosts behind private links dearer than the backbone)
// is retried with each participant joined to its own links, then skipped
// for the next gap down. Routers belong to groups like hosts, so
// a site's switch is inside the site; subgroups without participants are
// dropped (their nodes only route). Leaves of more than `max_leaf`
// participants are cut into chunks of consecutive node indices, and a group
// of more than `max_leaf` subgroups gets a level of batches of at most
// `max_leaf` consecutive subgroups, so every flat plan stays small.
// Declared sites: when the platform names the site of its hosts
// (PlatformNode::site: SimGrid zones, JSON "site") and they name two or
// more, the sites are those, in order of first appearance (hosts without
// one form a site named "(no site)"), each a leaf under the root (cut into
// chunks like any leaf); the link classes are still found by cost.
// Link classes (for colours): the gaps found at every level, applied to all
// edges: class 0 = the cheapest (LAN), then MAN, WAN, ...
// Complexity: O(m log m) per level of the hierarchy (union-find, sorting
// each group's edge costs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hetcoll/model/graph_network.h"

namespace hetcoll {

inline constexpr double kSiteGapRatio = 2.0;

struct SiteGroup {
  std::vector<ProcessorIndex> participants;  // by node index
  std::vector<std::size_t> children;         // subgroups (indices into SiteHierarchy::groups); empty = a site
  std::size_t parent = 0;                    // the root is its own parent
  int depth = 0;                             // 0 for the whole platform
  std::string name;                          // a declared site's name ("" when found by cost)
};

struct SiteHierarchy {
  std::vector<SiteGroup> groups;  // groups[0] = the whole platform (every participant)
  // Cost thresholds separating link classes, ascending: an edge of cost c
  // is of class #{thresholds <= c}... precisely: the number of thresholds
  // strictly below c.
  std::vector<double> class_thresholds;
  std::vector<std::uint8_t> edge_class;  // per platform edge
  std::vector<std::size_t> site_of;      // per node: its leaf group (SIZE_MAX for nodes in no group)
  bool declared = false;                 // the sites are the platform's own (see above)

  std::size_t site_count() const;
  int link_class_count() const { return static_cast<int>(class_thresholds.size()) + 1; }
};

SiteHierarchy detect_sites(const GraphNetwork& network, std::size_t max_leaf = 1024);

}  // namespace hetcoll
