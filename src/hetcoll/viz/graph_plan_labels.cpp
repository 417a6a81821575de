#include "hetcoll/viz/graph_plan_labels.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "hetcoll/makespan/graph/sites.h"
#include "hetcoll/model/element_names.h"

namespace hetcoll {

GraphPlanLabels graph_plan_labels(const MakespanPlan& plan, const GraphNetwork& network) {
  const Platform& platform = network.platform();
  auto sites = std::make_shared<const SiteHierarchy>(detect_sites(network));
  GraphPlanLabels labels;
  const std::size_t participants = network.participants().size();
  const std::size_t others = static_cast<std::size_t>(platform.size()) - participants;
  labels.population = fmt::format("{} participant{}{}", participants, participants == 1 ? "" : "s",
                                  others ? ", " + network_elements_text(platform) : std::string());
  // Site numbers in the order the hierarchy lists its sites.
  auto site_number = std::make_shared<std::vector<int>>(sites->groups.size(), -1);
  int site_count = 0;
  for (std::size_t g = 0; g < sites->groups.size(); ++g) {
    if (sites->groups[g].children.empty()) (*site_number)[g] = site_count++;
  }
  labels.node_detail = [&platform, sites, site_number, site_count](ProcessorIndex p) -> std::string {
    if (platform.node(p).router) return std::string(to_string(platform.node(p).kind));
    if (site_count < 2) return "";
    const auto site = sites->site_of[static_cast<std::size_t>(p)];
    if (site >= site_number->size()) return "";
    if (!sites->groups[site].name.empty()) return sites->groups[site].name;
    return fmt::format("site {}", (*site_number)[site]);
  };
  const int classes = sites->link_class_count();
  // Link class -> colour slot: the slowest class is always vermilion.
  auto slot = [classes](int link_class) { return classes == 2 && link_class == 1 ? 2 : std::min(link_class, 3); };
  if (classes == 2) {
    labels.class_names = {"LAN", "", "WAN"};
  } else if (classes == 3) {
    labels.class_names = {"LAN", "MAN", "WAN"};
  } else if (classes > 3) {
    labels.class_names = {"class 0 (cheapest links)", "class 1", "class 2", "class 3+"};
  } else {
    labels.class_names = {"the network"};
  }
  RouteFinder finder = network.route_finder();
  labels.crossings.assign(static_cast<std::size_t>(platform.size()), 0);
  std::vector<char> unlimited_seen(static_cast<std::size_t>(platform.size()), 0);
  labels.transfer_class.assign(plan.transfers.size(), 0);
  labels.crossed.resize(plan.transfers.size());
  labels.route_text.resize(plan.transfers.size());
  labels.link_label.resize(plan.transfers.size());
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.from < 0 || t.to < 0 || t.from >= platform.size() || t.to >= platform.size() || t.from == t.to) continue;
    Route route = t.route;
    if (route.empty()) {
      const ProcessorIndex targets[] = {t.to};
      if (auto found = finder.routes_from(t.from, targets).front()) route = *found;
    }
    int link_class = 0;
    const std::string via = route_via_text(platform, route, /*figures=*/true);
    labels.link_label[i] = route_links_label(platform, route);
    for (std::size_t k = 0; k < route.size() && route[k] < platform.edges().size(); ++k) {
      link_class = std::max(link_class, static_cast<int>(sites->edge_class[route[k]]));
      if (k + 1 == route.size()) break;
      const ProcessorIndex inner = platform.edges()[route[k]].to;
      if (network.one_port(inner) && !network.is_participant(inner)) {
        labels.crossed[i].push_back(inner);
        ++labels.crossings[static_cast<std::size_t>(inner)];
      } else if (!network.one_port(inner) && !unlimited_seen[static_cast<std::size_t>(inner)]) {
        unlimited_seen[static_cast<std::size_t>(inner)] = 1;
        ++labels.unlimited_crossed;
      }
    }
    labels.transfer_class[i] = classes > 1 ? slot(link_class) : 0;
    const std::string& name = labels.class_names[static_cast<std::size_t>(labels.transfer_class[i])];
    labels.route_text[i] = classes > 1 ? fmt::format("{} ({})", via, name) : via;
  }
  return labels;
}

}  // namespace hetcoll
