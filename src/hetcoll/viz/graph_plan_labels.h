// What the pictures of a plan on a platform graph say about its nodes and
// messages: each participant's site, each message's route and the slowest
// class of link it crosses (LAN / MAN / WAN, makespan/graph/sites.h), and
// the shared one-port network nodes the messages cross. Shared by the Gantt
// chart and the tree drawings so that they colour and name alike.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct GraphPlanLabels {
  std::string population;                               // "8 participants, 3 routers, 40 links"
  std::function<std::string(ProcessorIndex)> node_detail;  // "site 2", "link", or ""
  // Colour slots 0..3 (blue, green, vermilion, purple) and their names; the
  // slowest class takes vermilion ("LAN", "", "WAN" for two classes).
  std::vector<std::string> class_names;
  // Per transfer (plan order):
  std::vector<int> transfer_class;                      // the colour slot of the slowest link on its route
  std::vector<std::string> route_text;                  // " via router sw, link wan (...) (WAN)"
  std::vector<std::string> link_label;                  // the links it crosses, a line each (route_links_label)
  std::vector<std::vector<ProcessorIndex>> crossed;     // one-port routers and links it crosses
  std::vector<std::size_t> crossings;                   // per node: messages crossing it
  std::size_t unlimited_crossed = 0;  // distinct routers and links of unlimited ports the routes cross
};

// Transfers without a route get the platform's; out-of-range ones are
// skipped (class 0, no route).
GraphPlanLabels graph_plan_labels(const MakespanPlan& plan, const GraphNetwork& network);

}  // namespace hetcoll
