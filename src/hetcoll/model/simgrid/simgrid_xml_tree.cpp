// SimGrid import, step 1: one walk of the XML tree creates the zones, the
// netpoints (hosts, routers, zones), the links and the structure of
// clusters and cabinets, and sets the route elements aside
// (simgrid_importer_internal.h).
#include "hetcoll/model/simgrid/simgrid_importer_internal.h"

namespace hetcoll::simgrid_import {

void SimgridImporter::read_platform(const pugi::xml_node& platform) {
  std::string_view version = trim(required(platform, "version"));
  if (!(version == "4" || version.substr(0, 2) == "4.")) {
    fail(platform, "version",
         fmt::format("platform version \"{}\" is not supported: hetcoll reads version 4.x (SimGrid's "
                     "simgrid_update_xml upgrades older files)",
                     shown(version)));
  }
  bool has_root_zone = false;
  for (pugi::xml_node child : platform.children()) {
    if (child.type() != pugi::node_element) continue;
    std::string_view name = child.name();
    if (name == "zone" || name == "AS" || name == "cluster") {
      if (has_root_zone) {
        fail(child, "", "a platform has a single root <zone> or <cluster>; put this one inside it");
      }
      has_root_zone = true;
      if (name == "cluster") {
        read_cluster(child, -1);
      } else {
        read_zone(child, -1);
      }
    } else {
      check_other_element(child);
    }
  }
  if (!has_root_zone) fail(platform, "", "no <zone> or <cluster>: the platform has no hosts");
}

// Called for an element that the context does not handle itself.
void SimgridImporter::check_other_element(const pugi::xml_node& element) const {
  std::string_view name = element.name();
  if (is_ignored_element(name)) return;
  if (auto reason = unsupported_element_reason(name)) fail(element, "", *reason);
  fail(element, "", fmt::format("unexpected element <{}> inside <{}>", shown(name), shown(element.parent().name())));
}

ZoneKind SimgridImporter::routing_kind(const pugi::xml_node& zone_element) const {
  std::string routing = lowercase(trim(required(zone_element, "routing")));
  // SimGrid compares routing names without case (sg_platf_create_zone).
  if (routing == "full") return ZoneKind::full;
  if (routing == "floyd") return ZoneKind::floyd;
  if (routing == "dijkstra" || routing == "dijkstracache") return ZoneKind::dijkstra;
  if (routing == "none") return ZoneKind::none;
  if (routing == "cluster") return ZoneKind::star;
  if (routing == "vivaldi") return ZoneKind::vivaldi;
  if (routing == "wifi") return ZoneKind::wifi;
  fail(zone_element, "routing",
       fmt::format("unknown routing \"{}\" (expected Full, Floyd, Dijkstra, DijkstraCache, None, Cluster, "
                   "Vivaldi or Wifi)",
                   shown(trim(zone_element.attribute("routing").value()))));
}

void SimgridImporter::read_zone(const pugi::xml_node& element, int parent) {
  std::string id(required(element, "id"));
  ZoneKind kind = routing_kind(element);
  int zone = add_zone(element, std::move(id), kind, parent);
  if (kind == ZoneKind::star) zone_at(zone).center = network_->add_switch(zone_at(zone).id);
  for (pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    std::string_view name = child.name();
    if (name == "host") {
      int host = add_host(child, std::string(required(child, "id")), zone, speed(child, "speed"));
      set_coordinates(child, host, kind);
    } else if (name == "router") {
      int router = add_router(child, std::string(required(child, "id")), zone);
      set_coordinates(child, router, kind);
    } else if (name == "peer") {
      read_peer(child, zone);
    } else if (name == "link") {
      read_link(child, zone);
    } else if (name == "zone" || name == "AS") {
      read_zone(child, zone);
    } else if (name == "cluster") {
      read_cluster(child, zone);
    } else if (name == "cabinet") {
      if (kind != ZoneKind::star) fail(child, "", "<cabinet> belongs in a zone with routing \"Cluster\"");
      read_cabinet(child, zone);
    } else if (is_route_element(name)) {
      pending_routes_.push_back({child, zone});
    } else if (name == "backbone" || name == "host_link") {
      if (kind != ZoneKind::star) fail(child, "", fmt::format("<{}> belongs in a zone with routing \"Cluster\"", name));
      if (name == "backbone") {
        if (zone_backbones_[static_cast<size_t>(zone)] != kNoElement) fail(child, "", "a cluster zone has one <backbone>");
        zone_backbones_[static_cast<size_t>(zone)] = read_link(child, zone);
      } else {
        pending_host_links_.push_back({child, zone});
      }
    } else if (name == "prop") {
      if (kind == ZoneKind::wifi && trim(child.attribute("id").value()) == "access_point") {
        access_points_.push_back({child, zone});
      }
    } else {
      check_other_element(child);
    }
  }
}

void SimgridImporter::set_coordinates(const pugi::xml_node& element, int netpoint, ZoneKind zone_kind) {
  auto values = coordinates(element);
  if (!values && zone_kind == ZoneKind::vivaldi) {
    fail(element, "coordinates", "missing: a member of a Vivaldi zone needs \"x y z\" (milliseconds)");
  }
  network_->netpoints[static_cast<size_t>(netpoint)].coordinates = values;
}

simgrid::LinkSharing SimgridImporter::link_sharing(const pugi::xml_node& element, const char* attribute,
                                                   simgrid::LinkSharing default_sharing, bool* wifi) const {
  auto policy = given_attribute(element, attribute);
  if (!policy) return default_sharing;
  std::string_view value = trim(*policy);
  if (value == "SPLITDUPLEX" || value == "FULLDUPLEX") return simgrid::LinkSharing::split_duplex;
  if (value == "SHARED") return simgrid::LinkSharing::shared;
  if (value == "FATPIPE") return simgrid::LinkSharing::fatpipe;
  if (value == "WIFI" && wifi) {
    *wifi = true;
    return simgrid::LinkSharing::shared;
  }
  fail(element, attribute,
       fmt::format("unknown sharing policy \"{}\" (expected SHARED, SPLITDUPLEX{} or FATPIPE)", shown(value),
                   wifi ? ", WIFI" : ""));
}

ElementId SimgridImporter::read_link(const pugi::xml_node& element, int zone) {
  std::string id(required(element, "id"));
  bool wifi = false;
  simgrid::LinkSharing sharing = link_sharing(element, "sharing_policy", simgrid::LinkSharing::shared, &wifi);
  const bool in_wifi_zone = zone_at(zone).kind == ZoneKind::wifi;
  if (wifi && !in_wifi_zone) fail(element, "sharing_policy", "a WIFI link belongs in a zone with routing \"Wifi\"");
  double bandwidth = 0;
  if (in_wifi_zone) {
    // WifiZone::do_create_link: the zone's one link is its cell, whatever
    // its policy; its bandwidths are the stations' rates, the first is the
    // rate of a station whose rate is not set (hetcoll uses it for all).
    if (zone_at(zone).wifi_link != kNoElement) {
      fail(element, "", fmt::format("zone \"{}\" is a Wifi zone and already has its link (one per zone)",
                                    shown(zone_at(zone).id)));
    }
    std::string_view list = required(element, "bandwidth");
    bandwidth = parse_simgrid_quantity(list.substr(0, list.find(',')), "bandwidth", where(element, "bandwidth"));
    sharing = simgrid::LinkSharing::shared;
  } else {
    bandwidth = quantity(element, "bandwidth", "bandwidth");
  }
  double latency = optional_quantity(element, "latency", "latency", 0.0);
  ElementId link = add_link(element, id, bandwidth, latency, sharing);
  if (in_wifi_zone) zone_at(zone).wifi_link = link;
  return link;
}

// <peer id speed bw_in bw_out coordinates>: a host of a Vivaldi zone with
// its own links, "link_<id>_UP" (bw_out) and "link_<id>_DOWN" (bw_in).
void SimgridImporter::read_peer(const pugi::xml_node& element, int zone) {
  if (zone_at(zone).kind != ZoneKind::vivaldi) fail(element, "", "<peer> belongs in a zone with routing \"Vivaldi\"");
  std::string id(required(element, "id"));
  double bandwidth_in = quantity(element, "bw_in", "bandwidth");
  double bandwidth_out = quantity(element, "bw_out", "bandwidth");
  int host = add_host(element, id, zone, speed(element, "speed"));
  set_coordinates(element, host, ZoneKind::vivaldi);
  ElementId up = add_link(element, "link_" + id + "_UP", bandwidth_out, 0.0, simgrid::LinkSharing::shared);
  ElementId down = add_link(element, "link_" + id + "_DOWN", bandwidth_in, 0.0, simgrid::LinkSharing::shared);
  zone_at(zone).star[host] = simgrid::StarLinks{{up}, {down}};
}

// "0-15", "0-3,8,10-11" -> the numbers, in order.
std::vector<long long> SimgridImporter::expand_radical(const pugi::xml_node& element) const {
  std::string_view radical = required(element, "radical");
  auto parse_number = [&](std::string_view text) {
    text = trim(text);
    long long value = -1;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0) {
      fail(element, "radical",
           fmt::format("\"{}\" is not a non-negative integer (expected a list like \"0-15\" or \"0-3,8,10-11\")",
                       shown(text)));
    }
    return value;
  };
  std::vector<long long> numbers;
  size_t position = 0;
  while (position <= radical.size()) {
    size_t comma = std::min(radical.find(',', position), radical.size());
    std::string_view item = radical.substr(position, comma - position);
    size_t dash = item.find('-');
    long long first = parse_number(item.substr(0, dash));
    long long last = dash == std::string_view::npos ? first : parse_number(item.substr(dash + 1));
    if (last < first) {
      fail(element, "radical", fmt::format("the range \"{}\" is empty (its end is before its start)", shown(trim(item))));
    }
    // Checked before expanding, so that "0-99999999999" fails at once.
    size_t room = options_.max_hosts - std::min(options_.max_hosts, host_count_ + numbers.size());
    if (static_cast<unsigned long long>(last - first) >= room) {
      fail(element, "radical", fmt::format("too many hosts: hetcoll stops at {} hosts", options_.max_hosts));
    }
    for (long long number = first; number <= last; ++number) numbers.push_back(number);
    position = comma + 1;
  }
  return numbers;
}

void SimgridImporter::read_cluster(const pugi::xml_node& element, int parent) {
  std::string id(required(element, "id"));
  std::string topology = given_attribute(element, "topology") ? std::string(trim(*given_attribute(element, "topology")))
                                                              : std::string("FLAT");
  if (topology != "FLAT" && topology != "TORUS" && topology != "FAT_TREE" && topology != "DRAGONFLY") {
    fail(element, "topology",
         fmt::format("unknown topology \"{}\" (expected FLAT, TORUS, FAT_TREE or DRAGONFLY)", shown(topology)));
  }
  std::string prefix(optional_attribute(element, "prefix").value_or(""));
  std::string suffix(optional_attribute(element, "suffix").value_or(""));
  double flop_rate = speed(element, "speed");
  simgrid::ClusterShape shape;
  shape.id = id;
  shape.bandwidth = quantity(element, "bw", "bandwidth");
  shape.latency = optional_quantity(element, "lat", "latency", 0.0);
  shape.sharing = link_sharing(element, "sharing_policy", simgrid::LinkSharing::split_duplex);
  if (given_attribute(element, "limiter_link")) shape.limiter_bandwidth = quantity(element, "limiter_link", "bandwidth");
  std::vector<long long> numbers = expand_radical(element);
  if (topology != "FLAT") {
    read_topology_cluster(element, parent, topology, shape, prefix, suffix, flop_rate, numbers);
    return;
  }
  std::optional<double> backbone_bandwidth;
  if (given_attribute(element, "bb_bw")) backbone_bandwidth = quantity(element, "bb_bw", "bandwidth");
  double backbone_latency = optional_quantity(element, "bb_lat", "latency", 0.0);
  simgrid::LinkSharing backbone_sharing = link_sharing(element, "bb_sharing_policy", simgrid::LinkSharing::shared);
  if (backbone_sharing == simgrid::LinkSharing::split_duplex) {
    fail(element, "bb_sharing_policy", "a backbone is SHARED or FATPIPE");
  }

  // sg_platf_new_cluster_flat: a star zone; each host reaches the centre
  // through [limiter,] its link (up half) [, the backbone], and back.
  int zone = add_zone(element, id, ZoneKind::star, parent);
  zone_at(zone).center = network_->add_switch(id);
  ElementId backbone = kNoElement;
  if (backbone_bandwidth) {
    backbone = add_link(element, id + "_backbone", *backbone_bandwidth, backbone_latency, backbone_sharing);
  }
  for (long long number : numbers) {
    int host = add_host(element, fmt::format("{}{}{}", prefix, number, suffix), zone, flop_rate);
    // SimGrid's names for the private links, so that routes elsewhere may name them.
    std::string link_name = fmt::format("{}_link_{}", id, number);
    ElementId limiter = kNoElement;
    if (shape.limiter_bandwidth) {
      limiter = add_link(element, link_name + "_limiter", *shape.limiter_bandwidth, 0.0, simgrid::LinkSharing::shared);
    }
    ElementId up = add_link(element, link_name, shape.bandwidth, shape.latency, shape.sharing);
    ElementId down = shape.sharing == simgrid::LinkSharing::split_duplex ? up + 1 : up;
    simgrid::StarLinks links;
    if (limiter != kNoElement) links.up.push_back(limiter);
    links.up.push_back(up);
    if (backbone != kNoElement) {
      links.up.push_back(backbone);
      links.down.push_back(backbone);
    }
    links.down.push_back(down);
    if (limiter != kNoElement) links.down.push_back(limiter);
    zone_at(zone).star[host] = std::move(links);
  }
  std::string router = std::string(optional_attribute(element, "router_id").value_or(""));
  if (trim(router).empty()) router = prefix + id + "_router" + suffix;
  int router_netpoint = add_router(element, std::move(router), zone);
  network_->netpoints[static_cast<size_t>(zone_at(zone).netpoint)].gateway = router_netpoint;
}

void SimgridImporter::read_topology_cluster(const pugi::xml_node& element, int parent, const std::string& topology,
                                            simgrid::ClusterShape shape, const std::string& prefix,
                                            const std::string& suffix, double flop_rate,
                                            const std::vector<long long>& numbers) {
  shape.parameters = std::string(required(element, "topo_parameters"));
  size_t count = 0;
  try {
    count = simgrid::topology_host_count(topology, shape.parameters);
  } catch (const std::invalid_argument& error) {
    fail(element, "topo_parameters", error.what());
  }
  if (count > numbers.size()) {
    fail(element, "radical",
         fmt::format("the {} topology \"{}\" has {} hosts but the radical names {}", topology,
                     shown(shape.parameters), count, numbers.size()));
  }
  ZoneKind kind = topology == "TORUS"      ? ZoneKind::torus
                  : topology == "FAT_TREE" ? ZoneKind::fat_tree
                                           : ZoneKind::dragonfly;
  int zone = add_zone(element, shape.id, kind, parent);
  std::vector<ElementId> hosts;
  // SimGrid creates one host per position of the topology, from the first radicals.
  for (size_t rank = 0; rank < count; ++rank) {
    int host = add_host(element, fmt::format("{}{}{}", prefix, numbers[rank], suffix), zone, flop_rate);
    zone_at(zone).rank_of.emplace(host, static_cast<int>(rank));
    hosts.push_back(netpoint_at(host).element);
  }
  simgrid::TopologyLayout layout;
  network_->element_limit = options_.max_elements;
  try {
    if (kind == ZoneKind::torus) {
      layout = simgrid::build_torus(*network_, shape, hosts);
    } else if (kind == ZoneKind::fat_tree) {
      layout = simgrid::build_fat_tree(*network_, shape, hosts);
    } else {
      layout = simgrid::build_dragonfly(*network_, shape, hosts);
    }
  } catch (const std::invalid_argument& error) {
    fail(element, "topo_parameters", error.what());
  } catch (const std::length_error& error) {
    fail(element, "", error.what());
  }
  zone_at(zone).topology = layout.routing;
  layouts_.push_back(std::move(layout));
}

// <cabinet id prefix suffix radical speed bw lat>: hosts of a Cluster zone
// with links "link_<host>_UP" and "link_<host>_DOWN" (sg_platf_build_cabinet).
void SimgridImporter::read_cabinet(const pugi::xml_node& element, int zone) {
  required(element, "id");
  std::string prefix(optional_attribute(element, "prefix").value_or(""));
  std::string suffix(optional_attribute(element, "suffix").value_or(""));
  double flop_rate = speed(element, "speed");
  double bandwidth = quantity(element, "bw", "bandwidth");
  double latency = optional_quantity(element, "lat", "latency", 0.0);
  for (long long number : expand_radical(element)) {
    std::string name = fmt::format("{}{}{}", prefix, number, suffix);
    int host = add_host(element, name, zone, flop_rate);
    ElementId up = add_link(element, "link_" + name + "_UP", bandwidth, latency, simgrid::LinkSharing::shared);
    ElementId down = add_link(element, "link_" + name + "_DOWN", bandwidth, latency, simgrid::LinkSharing::shared);
    cabinet_hosts_.push_back({zone, host, up, down});
  }
}

}  // namespace hetcoll::simgrid_import
