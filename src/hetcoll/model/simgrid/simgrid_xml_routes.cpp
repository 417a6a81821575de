// SimGrid import, step 2: the routes, resolved once every name is known
// (SimGrid wants links declared before use; accepting any order is
// harmless), and the zones finished (routing tables, shared up links)
// (simgrid_importer_internal.h).
#include "hetcoll/model/simgrid/simgrid_importer_internal.h"

namespace hetcoll::simgrid_import {

int SimgridImporter::find_netpoint(const pugi::xml_node& element, const char* attribute) const {
  std::string name(required(element, attribute));
  auto found = netpoint_index_.find(name);
  if (found == netpoint_index_.end()) {
    fail(element, attribute, fmt::format("unknown host, router or zone \"{}\"", shown(name)));
  }
  return found->second;
}

const LinkName& SimgridImporter::find_link(const pugi::xml_node& element, const char* attribute) const {
  std::string name(required(element, attribute));
  auto found = link_index_.find(name);
  if (found == link_index_.end()) fail(element, attribute, fmt::format("unknown link \"{}\"", shown(name)));
  return found->second;
}

bool SimgridImporter::zone_contains(int zone, int netpoint) const {
  for (int z = netpoint_at(netpoint).zone; z >= 0; z = network_->zones[static_cast<size_t>(z)].parent) {
    if (z == zone) return true;
  }
  return false;
}

void SimgridImporter::resolve_pending_elements() {
  for (const PendingElement& pending : pending_routes_) resolve_route(pending.element, pending.zone);
  for (const PendingElement& pending : pending_host_links_) resolve_host_link(pending.element, pending.zone);
  for (const CabinetHost& cabinet : cabinet_hosts_) {
    // sg_platf_cluster_set_hostlink: up [, backbone] and [backbone,] down.
    simgrid::StarLinks links;
    ElementId backbone = zone_backbones_[static_cast<size_t>(cabinet.zone)];
    links.up.push_back(cabinet.up);
    if (backbone != kNoElement) {
      links.up.push_back(backbone);
      links.down.push_back(backbone);
    }
    links.down.push_back(cabinet.down);
    zone_at(cabinet.zone).star[cabinet.host] = std::move(links);
  }
  for (size_t z = 0; z < network_->zones.size(); ++z) {
    const simgrid::Zone& zone = network_->zones[z];
    if (zone.kind != ZoneKind::star || zone.center == kNoElement || network_->netpoints[static_cast<size_t>(zone.netpoint)].gateway >= 0) {
      continue;  // <cluster>s give every host its links
    }
    for (int member : zone.members) {
      if (netpoint_at(member).kind == NetpointKind::host && !zone.star.count(member)) {
        throw InputError(fmt::format("{}: line {}: <zone id=\"{}\">: host \"{}\" has no <host_link>", source_,
                                     zone_lines_[z], shown(zone.id), shown(netpoint_at(member).name)));
      }
    }
  }
}

// The link nodes of a <link_ctn>; `backwards` for the reverse of a
// symmetrical route (NetZoneImpl::get_link_list_impl swaps the halves).
ElementId SimgridImporter::resolve_link_ctn(const pugi::xml_node& child, bool backwards) const {
  const LinkName& link = find_link(child, "id");
  if (!link.split) return link.element;
  std::string_view direction = "NONE";
  if (auto given = optional_attribute(child, "direction")) direction = trim(*given);
  if (direction == "UP") return backwards ? link.down : link.element;
  if (direction == "DOWN") return backwards ? link.element : link.down;
  fail(child, "direction",
       fmt::format("\"{}\" is a SPLITDUPLEX link: give direction=\"UP\" or \"DOWN\" (or name {}_UP or {}_DOWN)",
                   shown(child.attribute("id").value()), shown(child.attribute("id").value()),
                   shown(child.attribute("id").value())));
}

void SimgridImporter::resolve_route(const pugi::xml_node& element, int zone) {
  std::string_view name = element.name();
  const bool is_bypass = name.substr(0, 6) == "bypass";
  const bool is_zone_route = name == "zoneRoute" || name == "ASroute" || name == "bypassZoneRoute" ||
                             name == "bypassASroute";
  const simgrid::Zone& zone_info = zone_at(zone);
  const std::string& zone_id = zone_info.id;
  if (!is_bypass) {
    if (zone_info.kind == ZoneKind::none || zone_info.kind == ZoneKind::star) {
      fail(element, "", fmt::format("a zone with routing \"{}\" takes no <{}>",
                                    trim(element.parent().attribute("routing").value()), name));
    }
    if (zone_info.kind != ZoneKind::full && zone_info.kind != ZoneKind::floyd &&
        zone_info.kind != ZoneKind::dijkstra) {
      fail(element, "", fmt::format("zone \"{}\" routes by itself and takes no <{}>", shown(zone_id), name));
    }
  }
  simgrid::DeclaredRoute route;
  route.source = find_netpoint(element, "src");
  route.destination = find_netpoint(element, "dst");
  for (const char* end : {"src", "dst"}) {
    const auto& netpoint = netpoint_at(end[0] == 's' ? route.source : route.destination);
    const auto& declared = declared_at_[static_cast<size_t>(end[0] == 's' ? route.source : route.destination)];
    bool inside = is_bypass && is_zone_route ? zone_contains(zone, end[0] == 's' ? route.source : route.destination) &&
                                                   netpoint.zone >= 0 && netpoint.own_zone != zone
                                             : netpoint.zone == zone;
    if (!inside) {
      fail(element, end, fmt::format("\"{}\" is not declared {} zone \"{}\" (it is a <{}> at line {})",
                                     shown(netpoint.name), is_bypass && is_zone_route ? "inside" : "directly in",
                                     shown(zone_id), declared.first, declared.second));
    }
    if (is_zone_route && netpoint.kind != NetpointKind::zone) {
      fail(element, end, fmt::format("\"{}\" is a {}: a <{}> joins two zones (use <{}>)", shown(netpoint.name),
                                     netpoint.kind == NetpointKind::host ? "host" : "router", name,
                                     is_bypass ? "bypassRoute" : "route"));
    }
    if (!is_zone_route && netpoint.kind == NetpointKind::zone) {
      fail(element, end, fmt::format("\"{}\" is a zone: use <{}> with gw_src and gw_dst", shown(netpoint.name),
                                     is_bypass ? "bypassZoneRoute" : "zoneRoute"));
    }
  }
  route.gateway_source = route.source;
  route.gateway_destination = route.destination;
  if (is_zone_route) {
    route.gateway_source = find_gateway(element, "gw_src", route.source);
    route.gateway_destination = find_gateway(element, "gw_dst", route.destination);
    if (route.gateway_source == route.gateway_destination && route.source != route.destination) {
      fail(element, "gw_dst", "the two gateways are the same");
    }
  }
  std::vector<pugi::xml_node> link_elements;
  for (pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    if (!element_is(child, "link_ctn")) {
      if (is_ignored_element(child.name())) continue;
      fail(child, "", fmt::format("unexpected element inside <{}> (expected <link_ctn>)", name));
    }
    if (auto direction = optional_attribute(child, "direction")) {
      std::string_view value = trim(*direction);
      if (value != "UP" && value != "DOWN" && value != "NONE") {
        fail(child, "direction", fmt::format("must be UP, DOWN or NONE, got \"{}\"", shown(value)));
      }
    }
    link_elements.push_back(child);
  }
  if (link_elements.empty()) fail(element, "", "a route needs at least one <link_ctn> (SimGrid forbids empty routes)");
  auto build_path = [&](bool backwards) {
    simgrid::Path path;
    path.push_back(netpoint_at(backwards ? route.gateway_destination : route.gateway_source).element);
    for (size_t k = 0; k < link_elements.size(); ++k) {
      const pugi::xml_node& child = link_elements[backwards ? link_elements.size() - 1 - k : k];
      ElementId link = resolve_link_ctn(child, backwards);
      if (link == path.back()) {
        fail(child, "id", "the route crosses this link twice in a row (a link is one node of the graph)");
      }
      path.push_back(link);
    }
    // Each link at most once (sorted copy: routes may be long).
    std::vector<ElementId> links(path.begin() + 1, path.end());
    std::sort(links.begin(), links.end());
    if (auto twice = std::adjacent_find(links.begin(), links.end()); twice != links.end()) {
      const size_t second = static_cast<size_t>(std::find(std::find(path.begin() + 1, path.end(), *twice) + 1,
                                                          path.end(), *twice) - path.begin()) - 1;
      const pugi::xml_node& child = link_elements[backwards ? link_elements.size() - 1 - second : second];
      fail(child, "id",
           fmt::format("the route crosses link \"{}\" twice; a route crosses each link at most once",
                       shown(child.attribute("id").value())));
    }
    path.push_back(netpoint_at(backwards ? route.gateway_source : route.gateway_destination).element);
    return path;
  };
  // A loopback route (src == dst) serves a host talking to itself: no
  // transfer between two nodes uses it. Its links are checked above.
  if (route.source == route.destination) {
    for (const pugi::xml_node& child : link_elements) resolve_link_ctn(child, false);
    return;
  }
  route.path = build_path(false);
  route.link_count = link_elements.size();
  if (is_bypass) {
    add_bypass(element, zone, std::move(route));
    return;
  }
  note_dijkstra_node(zone, route.source);
  note_dijkstra_node(zone, route.destination);
  simgrid::DeclaredRoute reverse;
  bool symmetric = symmetrical(element);
  if (symmetric) {
    reverse = route;
    std::swap(reverse.source, reverse.destination);
    std::swap(reverse.gateway_source, reverse.gateway_destination);
    reverse.path = build_path(true);
  }
  add_route(element, zone, std::move(route), false);
  if (symmetric) add_route(element, zone, std::move(reverse), true);
}

void SimgridImporter::note_dijkstra_node(int zone, int netpoint) {
  simgrid::Zone& z = zone_at(zone);
  int position = z.member_position.at(netpoint);
  if (std::find(z.dijkstra_order.begin(), z.dijkstra_order.end(), position) == z.dijkstra_order.end()) {
    z.dijkstra_order.push_back(position);
  }
}

int SimgridImporter::find_gateway(const pugi::xml_node& element, const char* attribute, int zone_netpoint) const {
  int gateway = find_netpoint(element, attribute);
  const auto& netpoint = netpoint_at(gateway);
  if (netpoint.kind == NetpointKind::zone) {
    fail(element, attribute, fmt::format("\"{}\" is a zone: a gateway is a host or a router", shown(netpoint.name)));
  }
  int zone = netpoint_at(zone_netpoint).own_zone;
  if (!zone_contains(zone, gateway)) {
    fail(element, attribute, fmt::format("\"{}\" is not inside zone \"{}\"", shown(netpoint.name),
                                         shown(network_->zones[static_cast<size_t>(zone)].id)));
  }
  return gateway;
}

void SimgridImporter::add_route(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route,
                                bool is_reverse) {
  simgrid::Zone& zone = zone_at(zone_index);
  auto [it, inserted] = zone.route_index.emplace(simgrid::pair_key(route.source, route.destination), zone.routes.size());
  if (!inserted) {
    size_t earlier_line = route_lines_[static_cast<size_t>(zone_index)][it->second];
    bool earlier_reverse = route_reversed_[static_cast<size_t>(zone_index)][it->second];
    fail(element, "",
         fmt::format("a route from \"{}\" to \"{}\" is already given at line {}{}", shown(netpoint_at(route.source).name),
                     shown(netpoint_at(route.destination).name), earlier_line,
                     earlier_reverse || is_reverse ? " (routes are symmetrical unless symmetrical=\"NO\")" : ""));
  }
  zone.routes.push_back(std::move(route));
  route_lines_.resize(network_->zones.size());
  route_reversed_.resize(network_->zones.size());
  route_lines_[static_cast<size_t>(zone_index)].push_back(line_of(element));
  route_reversed_[static_cast<size_t>(zone_index)].push_back(is_reverse);
}

void SimgridImporter::add_bypass(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route) {
  simgrid::Zone& zone = zone_at(zone_index);
  auto [it, inserted] =
      zone.bypass_index.emplace(simgrid::pair_key(route.source, route.destination), zone.bypass_routes.size());
  if (!inserted) {
    fail(element, "", fmt::format("a bypass route from \"{}\" to \"{}\" is already given",
                                  shown(netpoint_at(route.source).name), shown(netpoint_at(route.destination).name)));
  }
  zone.bypass_routes.push_back(std::move(route));
}

void SimgridImporter::resolve_host_link(const pugi::xml_node& element, int zone_index) {
  int host = find_netpoint(element, "id");
  const auto& netpoint = netpoint_at(host);
  if (netpoint.kind != NetpointKind::host || netpoint.zone != zone_index) {
    fail(element, "id", fmt::format("\"{}\" is not a host of zone \"{}\"", shown(netpoint.name),
                                    shown(network_->zones[static_cast<size_t>(zone_index)].id)));
  }
  ElementId up = kNoElement, down = kNoElement;
  for (const char* direction : {"up", "down"}) {
    const LinkName& link = find_link(element, direction);
    if (link.split) {
      fail(element, direction,
           fmt::format("\"{}\" is a SPLITDUPLEX link: name one direction ({}_UP or {}_DOWN)",
                       shown(element.attribute(direction).value()), shown(element.attribute(direction).value()),
                       shown(element.attribute(direction).value())));
    }
    (direction[0] == 'u' ? up : down) = link.element;
  }
  simgrid::StarLinks links;
  ElementId backbone = zone_backbones_[static_cast<size_t>(zone_index)];
  links.up.push_back(up);
  if (backbone != kNoElement) {
    links.up.push_back(backbone);
    links.down.push_back(backbone);
  }
  links.down.push_back(down);
  auto [it, inserted] = zone_at(zone_index).star.emplace(host, std::move(links));
  if (!inserted) fail(element, "id", fmt::format("host \"{}\" already has a <host_link>", shown(netpoint.name)));
}

void SimgridImporter::finish_zones() {
  for (const PendingElement& pending : access_points_) {
    std::string name(required(pending.element, "value"));
    auto found = netpoint_index_.find(name);
    if (found == netpoint_index_.end() || netpoint_at(found->second).kind == NetpointKind::zone) {
      fail(pending.element, "value", fmt::format("the access point \"{}\" is no host or router", shown(name)));
    }
    zone_at(pending.zone).access_point = found->second;
  }
  for (size_t z = 0; z < network_->zones.size(); ++z) {
    simgrid::Zone& zone = network_->zones[z];
    if (zone.kind == ZoneKind::star) {
      simgrid::find_shared_up_sets(zone);
      if (zone.shared_up_sets.size() > kMaxSharedLinkSets) {
        throw InputError(fmt::format("{}: line {}: zone \"{}\": its hosts' links are shared in {} different ways; "
                                     "hetcoll handles at most {}",
                                     source_, zone_lines_[z], shown(zone.id), zone.shared_up_sets.size(),
                                     kMaxSharedLinkSets));
      }
    } else if (zone.kind == ZoneKind::floyd || zone.kind == ZoneKind::dijkstra) {
      simgrid::precompute_chains(zone);
    } else if (zone.kind == ZoneKind::vivaldi) {
      if (zone.members.size() > options_.max_vivaldi_members) {
        throw InputError(fmt::format("{}: line {}: Vivaldi zone \"{}\" has {} members: the graph joins every pair "
                                     "and hetcoll stops at {} members",
                                     source_, zone_lines_[z], shown(zone.id), zone.members.size(),
                                     options_.max_vivaldi_members));
      }
      for (int member : zone.members) {
        auto& point = network_->netpoints[static_cast<size_t>(member)];
        if (point.kind != NetpointKind::zone) continue;
        // VivaldiZone::get_local_route: a child zone is reached through "router_<zone>".
        auto found = netpoint_index_.find("router_" + point.name);
        if (found != netpoint_index_.end() && netpoint_at(found->second).kind == NetpointKind::router &&
            zone_contains(point.own_zone, found->second)) {
          point.gateway = found->second;
        }
      }
    } else if (zone.kind == ZoneKind::wifi && zone.wifi_link == kNoElement) {
      // No cell link (an ns-3 Wi-Fi description): SimGrid's routes in the
      // zone cross no link; a free switch stands for the cell.
      zone.wifi_link = network_->add_switch(zone.id);
    }
  }
}

}  // namespace hetcoll::simgrid_import
