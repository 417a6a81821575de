// The SimGrid XML importer (simgrid_xml.h says what is supported), shared
// by the files that hold its steps: simgrid_xml_import.cpp (units, messages,
// attributes, declarations, the entry points), simgrid_xml_tree.cpp (step
// 1: the walk of the XML tree: zones, hosts, links, clusters) and
// simgrid_xml_routes.cpp (step 2: the routes, resolved once every name is
// known; step 3 is simgrid_graph.cpp's). Internal to model/simgrid/.
#pragma once

#include "hetcoll/model/simgrid/simgrid_xml.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/model/simgrid/simgrid_network.h"

namespace hetcoll::simgrid_import {

// Helpers of simgrid_xml_import.cpp the importer's files share.
std::string_view trim(std::string_view text);
// A value echoed in a message: cut to 80 bytes, printable UTF-8.
std::string shown(std::string_view value);
double parse_quantity(std::string_view text, std::string_view kind_name, std::string_view where, bool allow_zero);

using simgrid::ElementId;
using simgrid::kNoElement;
using simgrid::NetpointKind;
using simgrid::ZoneKind;

inline bool element_is(const pugi::xml_node& element, std::string_view name) { return name == element.name(); }

// Elements that carry nothing hetcoll models (properties, disks, traces,
// deployment, configuration); they are skipped with their content.
inline bool is_ignored_element(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kIgnored = {
      "prop",    "disk",     "trace",    "trace_connect", "config",     "actor", "process",
      "argument", "model_prop", "storage_type", "storage", "mount", "random", "mstorage"};
  return std::find(kIgnored.begin(), kIgnored.end(), name) != kIgnored.end();
}

// Known SimGrid elements hetcoll cannot honour; ignoring them would change the platform.
inline std::optional<std::string> unsupported_element_reason(std::string_view name) {
  if (name == "include") return "<include> is not supported (put the included platform inline)";
  return std::nullopt;
}

inline bool is_route_element(std::string_view name) {
  return name == "route" || name == "zoneRoute" || name == "ASroute" || name == "bypassRoute" ||
         name == "bypassZoneRoute" || name == "bypassASroute";
}

inline std::string lowercase(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

// What a <link> name stands for: one link node, or a split-duplex pair.
struct LinkName {
  ElementId element = kNoElement;  // the link, or for a split-duplex link its UP half
  ElementId down = kNoElement;     // a split-duplex link's DOWN half
  bool split = false;
  bool wifi = false;
  size_t line = 0;
};

class SimgridImporter {
 public:
  SimgridImporter(std::string_view text, std::string_view source_name, const SimgridImportOptions& options)
      : text_(text), source_(source_name), options_(options) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  Platform run();

 private:
  // ---------------------------------------------------------- messages ---

  size_t line_of(size_t offset) const;

  std::string line_and_column(size_t offset) const;

  size_t line_of(const pugi::xml_node& element) const;

  std::string describe(const pugi::xml_node& element) const;

  std::string where(const pugi::xml_node& element, std::string_view attribute) const;

  [[noreturn]] void fail(const pugi::xml_node& element, std::string_view attribute, std::string_view message) const;

  // --------------------------------------------------------- attributes ---

  std::string_view required(const pugi::xml_node& element, const char* attribute) const;

  std::optional<std::string_view> optional_attribute(const pugi::xml_node& element, const char* attribute) const;

  std::optional<std::string_view> given_attribute(const pugi::xml_node& element, const char* attribute) const;

  double quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind) const;

  double optional_quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind,
                           double default_value) const;

  double speed(const pugi::xml_node& element, const char* attribute) const;

  bool symmetrical(const pugi::xml_node& element) const;

  std::optional<std::array<double, 3>> coordinates(const pugi::xml_node& element) const;

  // ------------------------------------------------------ declarations ---

  simgrid::Network& network() { return *network_; }
  simgrid::Zone& zone_at(int zone) { return network_->zones[static_cast<size_t>(zone)]; }
  const simgrid::Netpoint& netpoint_at(int netpoint) const { return network_->netpoints[static_cast<size_t>(netpoint)]; }

  int add_netpoint(const pugi::xml_node& element, std::string name, NetpointKind kind, int zone);

  int add_host(const pugi::xml_node& element, std::string name, int zone, double flop_rate);

  int add_router(const pugi::xml_node& element, std::string name, int zone);

  void register_link_name(const pugi::xml_node& element, const std::string& name, LinkName link);

  ElementId add_link(const pugi::xml_node& element, const std::string& name, double bandwidth, double latency,
                     simgrid::LinkSharing sharing);

  void check_element_budget(const pugi::xml_node& element) const;

  int add_zone(const pugi::xml_node& element, std::string id, ZoneKind kind, int parent);

  // ------------------------------------------------------- tree walk ---

  void read_platform(const pugi::xml_node& platform);

  void check_other_element(const pugi::xml_node& element) const;

  ZoneKind routing_kind(const pugi::xml_node& zone_element) const;

  void read_zone(const pugi::xml_node& element, int parent);

  void set_coordinates(const pugi::xml_node& element, int netpoint, ZoneKind zone_kind);

  simgrid::LinkSharing link_sharing(const pugi::xml_node& element, const char* attribute,
                                    simgrid::LinkSharing default_sharing, bool* wifi = nullptr) const;

  ElementId read_link(const pugi::xml_node& element, int zone);

  void read_peer(const pugi::xml_node& element, int zone);

  std::vector<long long> expand_radical(const pugi::xml_node& element) const;

  void read_cluster(const pugi::xml_node& element, int parent);

  void read_topology_cluster(const pugi::xml_node& element, int parent, const std::string& topology,
                             simgrid::ClusterShape shape, const std::string& prefix, const std::string& suffix,
                             double flop_rate, const std::vector<long long>& numbers);

  void read_cabinet(const pugi::xml_node& element, int zone);

  // --------------------------------------------------------- routes ---

  struct PendingElement {
    pugi::xml_node element;
    int zone = -1;
  };

  struct CabinetHost {
    int zone = -1;
    int host = -1;
    ElementId up = kNoElement;
    ElementId down = kNoElement;
  };

  int find_netpoint(const pugi::xml_node& element, const char* attribute) const;

  const LinkName& find_link(const pugi::xml_node& element, const char* attribute) const;

  bool zone_contains(int zone, int netpoint) const;

  void resolve_pending_elements();

  ElementId resolve_link_ctn(const pugi::xml_node& child, bool backwards) const;

  void resolve_route(const pugi::xml_node& element, int zone);

  void note_dijkstra_node(int zone, int netpoint);

  int find_gateway(const pugi::xml_node& element, const char* attribute, int zone_netpoint) const;

  void add_route(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route, bool is_reverse);

  void add_bypass(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route);

  void resolve_host_link(const pugi::xml_node& element, int zone_index);

  void finish_zones();

  static constexpr size_t kMaxSharedLinkSets = 64;

  std::string_view text_;
  std::string source_;
  SimgridImportOptions options_;
  std::vector<size_t> line_starts_;

  std::shared_ptr<simgrid::Network> network_ = std::make_shared<simgrid::Network>();
  std::unordered_map<std::string, int> netpoint_index_;
  std::vector<std::pair<std::string, size_t>> declared_at_;  // per netpoint: element name, line
  std::unordered_map<std::string, LinkName> link_index_;
  std::vector<size_t> zone_lines_;
  std::vector<ElementId> zone_backbones_;
  std::vector<std::vector<size_t>> route_lines_;
  std::vector<std::vector<bool>> route_reversed_;
  std::vector<PendingElement> pending_routes_;
  std::vector<PendingElement> pending_host_links_;
  std::vector<PendingElement> access_points_;
  std::vector<CabinetHost> cabinet_hosts_;
  std::vector<simgrid::TopologyLayout> layouts_;
  size_t host_count_ = 0;
};

}  // namespace hetcoll::simgrid_import
