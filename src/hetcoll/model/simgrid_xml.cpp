// SimGrid platform import: see simgrid_xml.h for what is supported.
//
// The importer works in three steps: (1) walk the XML tree once, creating
// zones, netpoints (hosts, routers, zones — SimGrid's name for anything a
// route can start or end at) and links, and setting the route elements aside;
// (2) resolve the routes, now that every name is known (SimGrid wants links
// declared before use; accepting any order is harmless); (3) compute the
// route of every ordered pair of hosts the way SimGrid's hierarchical routing
// does, and turn it into one edge.
#include "hetcoll/model/simgrid_xml.h"

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

namespace hetcoll {
namespace {

// ---------------------------------------------------------------- units ---

using UnitTable = std::unordered_map<std::string, double>;

constexpr std::array<const char*, 8> kDecimalPrefixes = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
constexpr std::array<const char*, 8> kBinaryPrefixes = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
// SimGrid spells out the prefixes of "flops" (and writes "zeta"); both spellings are accepted.
constexpr std::array<const char*, 8> kSpelledDecimalPrefixes = {"kilo", "mega", "giga", "tera",
                                                                "peta", "exa",  "zeta", "yotta"};

void add_prefixed_units(UnitTable& table, const std::string& unit, double base_value,
                        const std::array<const char*, 8>& prefixes, double step) {
  table.emplace(unit, base_value);
  double value = base_value;
  for (const char* prefix : prefixes) {
    value *= step;
    table.emplace(prefix + unit, value);
  }
}

const UnitTable& speed_units() {
  static const UnitTable table = [] {
    UnitTable units;
    add_prefixed_units(units, "f", 1.0, kDecimalPrefixes, 1e3);
    add_prefixed_units(units, "flops", 1.0, kSpelledDecimalPrefixes, 1e3);
    add_prefixed_units(units, "flops", 1.0, kDecimalPrefixes, 1e3);  // "Gflops": common, not SimGrid
    units.emplace("zettaflops", 1e21);
    return units;
  }();
  return table;
}

const UnitTable& bandwidth_units() {
  static const UnitTable table = [] {
    UnitTable units;
    add_prefixed_units(units, "Bps", 1.0, kDecimalPrefixes, 1e3);
    add_prefixed_units(units, "Bps", 1.0, kBinaryPrefixes, 1024.0);
    add_prefixed_units(units, "bps", 0.125, kDecimalPrefixes, 1e3);
    add_prefixed_units(units, "bps", 0.125, kBinaryPrefixes, 1024.0);
    units.emplace("KBps", 1e3);  // not SimGrid, but common enough to accept as "kBps"
    units.emplace("Kbps", 125.0);
    return units;
  }();
  return table;
}

const UnitTable& latency_units() {
  static const UnitTable table = {{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0},
                                  {"m", 60.0},           {"s", 1.0},          {"ms", 1e-3},
                                  {"us", 1e-6},          {"ns", 1e-9},        {"ps", 1e-12}};
  return table;
}

struct QuantityKind {
  const UnitTable& units;
  const char* base_unit;
  const char* example;
  const char* accepted;
  bool zero_allowed;
};

QuantityKind quantity_kind(std::string_view kind) {
  if (kind == "bandwidth") {
    return {bandwidth_units(), "Bps", "125MBps",
            "Bps or bps with a prefix k M G T P E Z Y or Ki Mi Gi Ti Pi Ei Zi Yi, e.g. \"125MBps\", \"10Gbps\"",
            false};
  }
  if (kind == "latency") {
    return {latency_units(), "s", "50us", "w d h m s ms us ns ps, e.g. \"50us\"", true};
  }
  if (kind == "speed") {
    return {speed_units(), "f", "1Gf", "f or flops with a prefix k M G T P E Z Y, e.g. \"1Gf\"", false};
  }
  throw std::invalid_argument(fmt::format("parse_simgrid_quantity: unknown kind \"{}\"", kind));
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpaces = " \t\r\n";
  size_t first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return {};
  size_t last = text.find_last_not_of(kSpaces);
  return text.substr(first, last - first + 1);
}

// Names become JSON strings when a platform is written (`--out`), and JSON
// is UTF-8: reject other bytes here, where the line is known.
bool is_valid_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char lead = byte(i);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned char second_low = 0x80, second_high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) second_low = 0xA0;   // overlong
      if (lead == 0xED) second_high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) second_low = 0x90;   // overlong
      if (lead == 0xF4) second_high = 0x8F;  // above U+10FFFF
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    if (byte(i + 1) < second_low || byte(i + 1) > second_high) return false;
    for (size_t k = i + 2; k < i + length; ++k) {
      if (byte(k) < 0x80 || byte(k) > 0xBF) return false;
    }
    i += length;
  }
  return true;
}

// Values echoed in messages are cut so that a hostile file cannot make them
// huge, and kept printable UTF-8 so that messages can go into JSON output.
std::string shown(std::string_view value) {
  constexpr size_t kLongest = 80;
  bool cut = value.size() > kLongest;
  if (cut) {
    size_t end = kLongest;
    while (end > 0 && (static_cast<unsigned char>(value[end]) & 0xC0) == 0x80) --end;  // whole characters
    value = value.substr(0, end);
  }
  std::string text(value);
  bool keep_non_ascii = is_valid_utf8(text);
  for (char& c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F || (byte >= 0x80 && !keep_non_ascii)) c = '?';
  }
  return cut ? text + "..." : text;
}

// ------------------------------------------------------ platform model ---

enum class NetpointKind { host, router, zone };

// Anything a route can start or end at (SimGrid's NetPoint).
struct Netpoint {
  std::string name;
  NetpointKind kind = NetpointKind::host;
  int zone = -1;       // the zone that contains it (-1 for the root zone)
  int own_zone = -1;   // for a zone: the zone it stands for
  size_t line = 0;
  std::string element;  // the element that declared it, for messages
};

struct Link {
  std::string name;
  double bandwidth = 0;  // bytes per second
  double latency = 0;    // seconds
};

// What the edge of a route needs from its links.
struct RouteMetrics {
  double latency = 0;
  double bandwidth = std::numeric_limits<double>::infinity();
  size_t link_count = 0;

  void add_link(const Link& link) {
    latency += link.latency;
    bandwidth = std::min(bandwidth, link.bandwidth);
    ++link_count;
  }
  void add(const RouteMetrics& other) {
    latency += other.latency;
    bandwidth = std::min(bandwidth, other.bandwidth);
    link_count += other.link_count;
  }
};

struct DeclaredRoute {
  int source = -1;               // netpoints of the zone (hosts/routers, or child zones for a zoneRoute)
  int destination = -1;
  int gateway_source = -1;       // for a zoneRoute: netpoints inside the source / destination zones;
  int gateway_destination = -1;  // for a route: the source and destination themselves
  RouteMetrics metrics;
  size_t line = 0;
  bool is_reverse = false;  // added because the declared route is symmetrical
};

enum class RoutingKind { full, shortest_path, none, cluster };

struct PrivateLinks {
  int up = -1;
  int down = -1;
};

struct Zone {
  std::string id;
  RoutingKind routing = RoutingKind::full;
  int parent = -1;
  int netpoint = -1;  // the zone's own netpoint
  int depth = 0;
  size_t line = 0;

  std::vector<DeclaredRoute> routes;
  std::unordered_map<std::uint64_t, size_t> route_index;  // (source, destination) -> routes

  // Cluster routing: host i to host j = up(i) + backbone + down(j); the
  // cluster's routers have no private link.
  std::unordered_map<int, PrivateLinks> private_links;
  int backbone = -1;
  std::vector<int> hosts;  // for the check that every host of a hand-written cluster has links

  // Shortest-path routing: per source netpoint, the metrics to every netpoint
  // of the zone (by position in `members`), computed on first use.
  bool members_indexed = false;
  std::vector<int> members;
  std::unordered_map<int, size_t> member_position;
  std::vector<std::vector<size_t>> routes_from;  // by position: indices into routes
  std::unordered_map<int, std::vector<std::optional<RouteMetrics>>> shortest_from;
};

std::uint64_t pair_key(int source, int destination) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(source)) << 32) |
         static_cast<std::uint32_t>(destination);
}

struct LocalRoute {
  RouteMetrics metrics;
  int gateway_source = -1;
  int gateway_destination = -1;
};

bool element_is(const pugi::xml_node& element, std::string_view name) { return name == element.name(); }

// Elements that carry nothing hetcoll models (properties, disks, traces,
// deployment, configuration); they are skipped with their content.
bool is_ignored_element(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kIgnored = {
      "prop",    "disk",     "trace",    "trace_connect", "config",     "actor", "process",
      "argument", "model_prop", "storage_type", "storage", "mount", "random", "mstorage"};
  return std::find(kIgnored.begin(), kIgnored.end(), name) != kIgnored.end();
}

// Known SimGrid elements hetcoll cannot honour; ignoring them would change the platform.
std::optional<std::string> unsupported_element_reason(std::string_view name) {
  if (name == "bypassRoute" || name == "bypassZoneRoute" || name == "bypassASroute") {
    return "bypass routes are not supported (write the route in full instead)";
  }
  if (name == "cabinet") return "<cabinet> is not supported (use <cluster>)";
  if (name == "peer") return "<peer> (Vivaldi zones) is not supported";
  if (name == "include") return "<include> is not supported (put the included platform inline)";
  if (name == "AS") return "<AS> is the version 3 name of <zone>; run simgrid_update_xml on the file";
  if (name == "ASroute") return "<ASroute> is the version 3 name of <zoneRoute>; run simgrid_update_xml on the file";
  return std::nullopt;
}

class SimgridImporter {
 public:
  SimgridImporter(std::string_view text, std::string_view source_name, const SimgridImportOptions& options)
      : text_(text), source_(source_name), options_(options) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  Platform run() {
    pugi::xml_document document;
    pugi::xml_parse_result parsed =
        document.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed) {
      auto offset = static_cast<size_t>(std::max<std::ptrdiff_t>(parsed.offset, 0));
      throw InputError(fmt::format("{}: {}: malformed XML: {}", source_, line_and_column(offset),
                                   parsed.description()));
    }
    pugi::xml_node root;
    for (pugi::xml_node child : document.children()) {
      if (child.type() != pugi::node_element) continue;
      if (root) fail(child, "", "a document has a single root element (<platform>)");
      root = child;
    }
    if (!element_is(root, "platform")) {
      fail(root, "", "the root element must be <platform> (a SimGrid platform file)");
    }
    read_platform(root);
    resolve_pending_elements();
    return build_platform();
  }

 private:
  // ---------------------------------------------------------- messages ---

  size_t line_of(size_t offset) const {
    auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return static_cast<size_t>(after - line_starts_.begin());
  }

  std::string line_and_column(size_t offset) const {
    size_t line = line_of(offset);
    size_t column = offset - line_starts_[line - 1] + 1;
    return fmt::format("line {}, column {}", line, column);
  }

  size_t line_of(const pugi::xml_node& element) const {
    std::ptrdiff_t offset = element.offset_debug();
    return offset < 0 ? 0 : line_of(static_cast<size_t>(offset));
  }

  // `file: line 12: <link id="l3">`
  std::string describe(const pugi::xml_node& element) const {
    std::string tag = fmt::format("<{}", shown(element.name()));
    for (const char* key : {"id", "src", "dst"}) {
      if (pugi::xml_attribute attribute = element.attribute(key)) {
        tag += fmt::format(" {}=\"{}\"", key, shown(attribute.value()));
      }
    }
    tag += ">";
    return fmt::format("{}: line {}: {}", source_, line_of(element), tag);
  }

  std::string where(const pugi::xml_node& element, std::string_view attribute) const {
    return attribute.empty() ? describe(element) : fmt::format("{} {}", describe(element), attribute);
  }

  [[noreturn]] void fail(const pugi::xml_node& element, std::string_view attribute, std::string_view message) const {
    throw InputError(fmt::format("{}: {}", where(element, attribute), message));
  }

  // --------------------------------------------------------- attributes ---

  std::string_view required(const pugi::xml_node& element, const char* attribute) const {
    pugi::xml_attribute found = element.attribute(attribute);
    if (!found) fail(element, attribute, "missing");
    std::string_view value = found.value();
    if (trim(value).empty()) fail(element, attribute, "must not be empty");
    return value;
  }

  std::optional<std::string_view> optional_attribute(const pugi::xml_node& element, const char* attribute) const {
    pugi::xml_attribute found = element.attribute(attribute);
    if (!found) return std::nullopt;
    return std::string_view(found.value());
  }

  double quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind) const {
    return parse_simgrid_quantity(required(element, attribute), kind, where(element, attribute));
  }

  double optional_quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind,
                           double default_value) const {
    auto value = optional_attribute(element, attribute);
    if (!value) return default_value;
    return parse_simgrid_quantity(*value, kind, where(element, attribute));
  }

  // "98.095Mf" or a pstate list "1Gf, 500Mf, 100Mf": the first (nominal) speed.
  double speed(const pugi::xml_node& element, const char* attribute) const {
    std::string_view list = required(element, attribute);
    std::optional<double> first;
    size_t position = 0;
    while (position <= list.size()) {
      size_t comma = std::min(list.find(',', position), list.size());
      double value = parse_simgrid_quantity(list.substr(position, comma - position), "speed",
                                            where(element, attribute));
      if (!first) first = value;
      position = comma + 1;
    }
    return *first;
  }

  bool symmetrical(const pugi::xml_node& element) const {
    auto value = optional_attribute(element, "symmetrical");
    if (!value) return true;
    std::string lowered(trim(*value));
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lowered == "yes" || lowered == "true") return true;
    if (lowered == "no" || lowered == "false") return false;
    fail(element, "symmetrical", fmt::format("must be YES or NO, got \"{}\"", shown(*value)));
  }

  // ------------------------------------------------------ declarations ---

  int add_netpoint(const pugi::xml_node& element, std::string name, NetpointKind kind, int zone) {
    if (name.empty()) fail(element, "id", "must not be empty");
    if (!is_valid_utf8(name)) fail(element, "id", "is not valid UTF-8");
    auto [it, inserted] = netpoint_index_.emplace(name, static_cast<int>(netpoints_.size()));
    if (!inserted) {
      const Netpoint& other = netpoints_[static_cast<size_t>(it->second)];
      fail(element, "id",
           fmt::format("duplicate name \"{}\" (also <{}> at line {}; hosts, routers and zones share one "
                       "namespace)",
                       shown(name), other.element, other.line));
    }
    Netpoint netpoint;
    netpoint.name = std::move(name);
    netpoint.kind = kind;
    netpoint.zone = zone;
    netpoint.line = line_of(element);
    netpoint.element = element.name();
    netpoints_.push_back(std::move(netpoint));
    return it->second;
  }

  int add_host(const pugi::xml_node& element, std::string name, int zone, double flop_rate) {
    if (host_netpoints_.size() >= options_.max_hosts) {
      fail(element, "", fmt::format("too many hosts: hetcoll makes one edge per ordered pair of hosts and "
                                    "stops at {} hosts",
                                    options_.max_hosts));
    }
    int netpoint = add_netpoint(element, std::move(name), NetpointKind::host, zone);
    host_netpoints_.push_back(netpoint);
    host_speeds_.push_back(flop_rate);
    zones_[static_cast<size_t>(zone)].hosts.push_back(netpoint);
    return netpoint;
  }

  int add_link(const pugi::xml_node& element, std::string name, double bandwidth, double latency,
               bool split_duplex) {
    if (name.empty()) fail(element, "id", "must not be empty");
    int index = static_cast<int>(links_.size());
    links_.push_back(Link{name, bandwidth, latency});
    std::vector<std::string> names = {name};
    if (split_duplex) {
      names.push_back(name + "_UP");
      names.push_back(name + "_DOWN");
    }
    for (auto& link_name : names) {
      auto [it, inserted] = link_index_.emplace(link_name, std::make_pair(index, line_of(element)));
      if (!inserted) {
        fail(element, "id", fmt::format("duplicate link name \"{}\" (also a link at line {})", shown(link_name),
                                        it->second.second));
      }
    }
    return index;
  }

  int add_zone(const pugi::xml_node& element, std::string id, RoutingKind routing, int parent) {
    int depth = parent < 0 ? 0 : zones_[static_cast<size_t>(parent)].depth + 1;
    if (depth >= kMaxZoneNesting) {
      fail(element, "", fmt::format("zones are nested more than {} deep", kMaxZoneNesting));
    }
    int zone_index = static_cast<int>(zones_.size());
    int netpoint = add_netpoint(element, id, NetpointKind::zone, parent);
    netpoints_[static_cast<size_t>(netpoint)].own_zone = zone_index;
    Zone zone;
    zone.id = std::move(id);
    zone.routing = routing;
    zone.parent = parent;
    zone.netpoint = netpoint;
    zone.depth = depth;
    zone.line = line_of(element);
    zones_.push_back(std::move(zone));
    return zone_index;
  }

  // ------------------------------------------------------- tree walk ---

  void read_platform(const pugi::xml_node& platform) {
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
      if (name == "zone" || name == "cluster") {
        if (has_root_zone) {
          fail(child, "", "a platform has a single root <zone> or <cluster>; put this one inside it");
        }
        has_root_zone = true;
        if (name == "zone") {
          read_zone(child, -1);
        } else {
          read_cluster(child, -1);
        }
      } else {
        check_other_element(child);
      }
    }
    if (!has_root_zone) fail(platform, "", "no <zone> or <cluster>: the platform has no hosts");
  }

  // Called for an element that the context does not handle itself.
  void check_other_element(const pugi::xml_node& element) const {
    std::string_view name = element.name();
    if (is_ignored_element(name)) return;
    if (auto reason = unsupported_element_reason(name)) fail(element, "", *reason);
    fail(element, "", fmt::format("unexpected element <{}> inside <{}>", shown(name), shown(element.parent().name())));
  }

  RoutingKind routing_kind(const pugi::xml_node& zone_element) const {
    std::string_view routing = trim(required(zone_element, "routing"));
    if (routing == "Full") return RoutingKind::full;
    if (routing == "Floyd" || routing == "Dijkstra" || routing == "DijkstraCache") return RoutingKind::shortest_path;
    if (routing == "None") return RoutingKind::none;
    if (routing == "Cluster") return RoutingKind::cluster;
    static constexpr std::array<std::string_view, 7> kKnownElsewhere = {
        "Vivaldi", "Star", "Wifi", "ClusterTorus", "ClusterFatTree", "ClusterDragonfly", "RuleBased"};
    if (std::find(kKnownElsewhere.begin(), kKnownElsewhere.end(), routing) != kKnownElsewhere.end()) {
      fail(zone_element, "routing",
           fmt::format("routing \"{}\" is not supported (Full, Floyd, Dijkstra, DijkstraCache, None and "
                       "Cluster are)",
                       routing));
    }
    fail(zone_element, "routing",
         fmt::format("unknown routing \"{}\" (expected Full, Floyd, Dijkstra, DijkstraCache, None or Cluster)",
                     shown(routing)));
  }

  void read_zone(const pugi::xml_node& element, int parent) {
    std::string id(required(element, "id"));
    RoutingKind routing = routing_kind(element);
    int zone = add_zone(element, std::move(id), routing, parent);
    for (pugi::xml_node child : element.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "host") {
        add_host(child, std::string(required(child, "id")), zone, speed(child, "speed"));
      } else if (name == "router") {
        add_netpoint(child, std::string(required(child, "id")), NetpointKind::router, zone);
      } else if (name == "link") {
        read_link(child);
      } else if (name == "zone") {
        read_zone(child, zone);
      } else if (name == "cluster") {
        read_cluster(child, zone);
      } else if (name == "route" || name == "zoneRoute") {
        if (routing == RoutingKind::none || routing == RoutingKind::cluster) {
          fail(child, "", fmt::format("a zone with routing \"{}\" takes no <{}>", trim(element.attribute("routing").value()), name));
        }
        pending_routes_.push_back({child, zone});
      } else if (name == "backbone" || name == "host_link") {
        if (routing != RoutingKind::cluster) {
          fail(child, "", fmt::format("<{}> belongs in a zone with routing \"Cluster\"", name));
        }
        if (name == "backbone") {
          if (zones_[static_cast<size_t>(zone)].backbone >= 0) fail(child, "", "a cluster zone has one <backbone>");
          zones_[static_cast<size_t>(zone)].backbone = read_link(child);
        } else {
          pending_host_links_.push_back({child, zone});
        }
      } else {
        check_other_element(child);
      }
    }
  }

  int read_link(const pugi::xml_node& element) {
    std::string id(required(element, "id"));
    double bandwidth = quantity(element, "bandwidth", "bandwidth");
    double latency = optional_quantity(element, "latency", "latency", 0.0);
    bool split_duplex = false;
    if (auto policy = optional_attribute(element, "sharing_policy")) {
      std::string_view value = trim(*policy);
      if (value == "SPLITDUPLEX" || value == "FULLDUPLEX") {
        split_duplex = true;
      } else if (value == "WIFI") {
        fail(element, "sharing_policy", "WIFI links are not supported");
      } else if (value != "SHARED" && value != "FATPIPE") {
        fail(element, "sharing_policy",
             fmt::format("unknown sharing policy \"{}\" (expected SHARED, SPLITDUPLEX or FATPIPE)", shown(value)));
      }
    }
    return add_link(element, std::move(id), bandwidth, latency, split_duplex);
  }

  // "0-15", "0-3,8,10-11" -> the numbers, in order.
  std::vector<long long> expand_radical(const pugi::xml_node& element) const {
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
      size_t room = options_.max_hosts - std::min(options_.max_hosts, host_netpoints_.size() + numbers.size());
      if (static_cast<unsigned long long>(last - first) >= room) {
        fail(element, "radical", fmt::format("too many hosts: hetcoll makes one edge per ordered pair of hosts and "
                                             "stops at {} hosts",
                                             options_.max_hosts));
      }
      for (long long number = first; number <= last; ++number) numbers.push_back(number);
      position = comma + 1;
    }
    return numbers;
  }

  void read_cluster(const pugi::xml_node& element, int parent) {
    std::string id(required(element, "id"));
    if (auto topology = optional_attribute(element, "topology"); topology && trim(*topology) != "FLAT") {
      fail(element, "topology",
           fmt::format("topology \"{}\" is not supported (only FLAT clusters are)", shown(trim(*topology))));
    }
    std::string prefix(optional_attribute(element, "prefix").value_or(""));
    std::string suffix(optional_attribute(element, "suffix").value_or(""));
    double flop_rate = speed(element, "speed");
    double bandwidth = quantity(element, "bw", "bandwidth");
    double latency = optional_quantity(element, "lat", "latency", 0.0);
    std::optional<double> backbone_bandwidth;
    if (optional_attribute(element, "bb_bw")) backbone_bandwidth = quantity(element, "bb_bw", "bandwidth");
    double backbone_latency = optional_quantity(element, "bb_lat", "latency", 0.0);
    std::vector<long long> numbers = expand_radical(element);

    int zone = add_zone(element, id, RoutingKind::cluster, parent);
    for (long long number : numbers) {
      int host = add_host(element, fmt::format("{}{}{}", prefix, number, suffix), zone, flop_rate);
      // SimGrid's names for the private links, so that routes elsewhere may name them.
      int link = add_link(element, fmt::format("{}_link_{}", id, number), bandwidth, latency, true);
      zones_[static_cast<size_t>(zone)].private_links[host] = PrivateLinks{link, link};
    }
    if (backbone_bandwidth) {
      zones_[static_cast<size_t>(zone)].backbone =
          add_link(element, id + "_backbone", *backbone_bandwidth, backbone_latency, false);
    }
    std::string router = std::string(optional_attribute(element, "router_id").value_or(""));
    if (trim(router).empty()) router = prefix + id + "_router" + suffix;
    add_netpoint(element, std::move(router), NetpointKind::router, zone);
  }

  // --------------------------------------------------------- routes ---

  struct PendingElement {
    pugi::xml_node element;
    int zone = -1;
  };

  int find_netpoint(const pugi::xml_node& element, const char* attribute) const {
    std::string name(required(element, attribute));
    auto found = netpoint_index_.find(name);
    if (found == netpoint_index_.end()) {
      fail(element, attribute, fmt::format("unknown host, router or zone \"{}\"", shown(name)));
    }
    return found->second;
  }

  int find_link(const pugi::xml_node& element) const {
    std::string name(required(element, "id"));
    auto found = link_index_.find(name);
    if (found == link_index_.end()) fail(element, "id", fmt::format("unknown link \"{}\"", shown(name)));
    return found->second.first;
  }

  bool zone_contains(int zone, int netpoint) const {
    for (int z = netpoints_[static_cast<size_t>(netpoint)].zone; z >= 0; z = zones_[static_cast<size_t>(z)].parent) {
      if (z == zone) return true;
    }
    return false;
  }

  void resolve_pending_elements() {
    for (const PendingElement& pending : pending_routes_) resolve_route(pending.element, pending.zone);
    for (const PendingElement& pending : pending_host_links_) resolve_host_link(pending.element, pending.zone);
    for (const Zone& zone : zones_) {
      if (zone.routing != RoutingKind::cluster) continue;
      for (int host : zone.hosts) {
        if (!zone.private_links.count(host)) {
          throw InputError(fmt::format("{}: line {}: <zone id=\"{}\">: host \"{}\" has no <host_link>", source_,
                                       zone.line, shown(zone.id), shown(netpoints_[static_cast<size_t>(host)].name)));
        }
      }
    }
  }

  void resolve_route(const pugi::xml_node& element, int zone) {
    const bool is_zone_route = element_is(element, "zoneRoute");
    const std::string& zone_id = zones_[static_cast<size_t>(zone)].id;
    DeclaredRoute route;
    route.line = line_of(element);
    route.source = find_netpoint(element, "src");
    route.destination = find_netpoint(element, "dst");
    for (const char* end : {"src", "dst"}) {
      const Netpoint& netpoint = netpoints_[static_cast<size_t>(end[0] == 's' ? route.source : route.destination)];
      if (netpoint.zone != zone) {
        fail(element, end, fmt::format("\"{}\" is not declared directly in zone \"{}\" (it is a <{}> at line {})",
                                       shown(netpoint.name), shown(zone_id), netpoint.element, netpoint.line));
      }
      if (is_zone_route && netpoint.kind != NetpointKind::zone) {
        fail(element, end, fmt::format("\"{}\" is a {}: a <zoneRoute> joins two zones (use <route>)",
                                       shown(netpoint.name), netpoint.kind == NetpointKind::host ? "host" : "router"));
      }
      if (!is_zone_route && netpoint.kind == NetpointKind::zone) {
        fail(element, end, fmt::format("\"{}\" is a zone: use <zoneRoute> with gw_src and gw_dst",
                                       shown(netpoint.name)));
      }
    }
    route.gateway_source = route.source;
    route.gateway_destination = route.destination;
    if (is_zone_route) {
      route.gateway_source = find_gateway(element, "gw_src", route.source);
      route.gateway_destination = find_gateway(element, "gw_dst", route.destination);
    }
    for (pugi::xml_node child : element.children()) {
      if (child.type() != pugi::node_element) continue;
      if (!element_is(child, "link_ctn")) {
        if (is_ignored_element(child.name())) continue;
        fail(child, "", fmt::format("unexpected element inside <{}> (expected <link_ctn>)", element.name()));
      }
      if (auto direction = optional_attribute(child, "direction")) {
        std::string_view value = trim(*direction);
        if (value != "UP" && value != "DOWN" && value != "NONE") {
          fail(child, "direction", fmt::format("must be UP, DOWN or NONE, got \"{}\"", shown(value)));
        }
      }
      route.metrics.add_link(links_[static_cast<size_t>(find_link(child))]);
    }
    if (!is_zone_route && route.metrics.link_count == 0) {
      fail(element, "", "a route needs at least one <link_ctn>");
    }
    add_route(element, zone, route);
    if (symmetrical(element) && route.source != route.destination) {
      DeclaredRoute reverse = route;
      std::swap(reverse.source, reverse.destination);
      std::swap(reverse.gateway_source, reverse.gateway_destination);
      reverse.is_reverse = true;
      add_route(element, zone, reverse);
    }
  }

  int find_gateway(const pugi::xml_node& element, const char* attribute, int zone_netpoint) const {
    int gateway = find_netpoint(element, attribute);
    const Netpoint& netpoint = netpoints_[static_cast<size_t>(gateway)];
    if (netpoint.kind == NetpointKind::zone) {
      fail(element, attribute, fmt::format("\"{}\" is a zone: a gateway is a host or a router", shown(netpoint.name)));
    }
    int zone = netpoints_[static_cast<size_t>(zone_netpoint)].own_zone;
    if (!zone_contains(zone, gateway)) {
      fail(element, attribute, fmt::format("\"{}\" is not inside zone \"{}\"", shown(netpoint.name),
                                           shown(zones_[static_cast<size_t>(zone)].id)));
    }
    return gateway;
  }

  void add_route(const pugi::xml_node& element, int zone_index, const DeclaredRoute& route) {
    Zone& zone = zones_[static_cast<size_t>(zone_index)];
    auto [it, inserted] = zone.route_index.emplace(pair_key(route.source, route.destination), zone.routes.size());
    if (!inserted) {
      const DeclaredRoute& earlier = zone.routes[it->second];
      fail(element, "",
           fmt::format("a route from \"{}\" to \"{}\" is already given at line {}{}",
                       shown(netpoints_[static_cast<size_t>(route.source)].name),
                       shown(netpoints_[static_cast<size_t>(route.destination)].name), earlier.line,
                       earlier.is_reverse || route.is_reverse
                           ? " (routes are symmetrical unless symmetrical=\"NO\")"
                           : ""));
    }
    zone.routes.push_back(route);
  }

  void resolve_host_link(const pugi::xml_node& element, int zone_index) {
    int host = find_netpoint(element, "id");
    const Netpoint& netpoint = netpoints_[static_cast<size_t>(host)];
    if (netpoint.kind != NetpointKind::host || netpoint.zone != zone_index) {
      fail(element, "id", fmt::format("\"{}\" is not a host of zone \"{}\"", shown(netpoint.name),
                                      shown(zones_[static_cast<size_t>(zone_index)].id)));
    }
    PrivateLinks links;
    for (const char* direction : {"up", "down"}) {
      std::string name(required(element, direction));
      auto found = link_index_.find(name);
      if (found == link_index_.end()) fail(element, direction, fmt::format("unknown link \"{}\"", shown(name)));
      (direction[0] == 'u' ? links.up : links.down) = found->second.first;
    }
    auto [it, inserted] = zones_[static_cast<size_t>(zone_index)].private_links.emplace(host, links);
    if (!inserted) fail(element, "id", fmt::format("host \"{}\" already has a <host_link>", shown(netpoint.name)));
  }

  // ------------------------------------------------------ route search ---

  // The route between two netpoints declared directly in `zone_index`.
  std::optional<LocalRoute> local_route(int zone_index, int source, int destination) {
    Zone& zone = zones_[static_cast<size_t>(zone_index)];
    switch (zone.routing) {
      case RoutingKind::none:
        return std::nullopt;
      case RoutingKind::cluster:
        return cluster_route(zone, source, destination);
      case RoutingKind::full:
      case RoutingKind::shortest_path:
        break;
    }
    if (auto found = zone.route_index.find(pair_key(source, destination)); found != zone.route_index.end()) {
      const DeclaredRoute& route = zone.routes[found->second];
      if (zone.routing == RoutingKind::full || netpoints_[static_cast<size_t>(source)].kind == NetpointKind::zone ||
          netpoints_[static_cast<size_t>(destination)].kind == NetpointKind::zone) {
        return LocalRoute{route.metrics, route.gateway_source, route.gateway_destination};
      }
    }
    if (zone.routing == RoutingKind::full || netpoints_[static_cast<size_t>(source)].kind == NetpointKind::zone ||
        netpoints_[static_cast<size_t>(destination)].kind == NetpointKind::zone) {
      return std::nullopt;
    }
    const auto& reachable = shortest_routes_from(zone, source);
    auto position = zone.member_position.find(destination);
    if (position == zone.member_position.end() || !reachable[position->second]) return std::nullopt;
    return LocalRoute{*reachable[position->second], source, destination};
  }

  std::optional<LocalRoute> cluster_route(const Zone& zone, int source, int destination) const {
    RouteMetrics metrics;
    for (int end : {source, destination}) {
      const Netpoint& netpoint = netpoints_[static_cast<size_t>(end)];
      if (netpoint.kind == NetpointKind::zone) return std::nullopt;
    }
    if (netpoints_[static_cast<size_t>(source)].kind == NetpointKind::host) {
      metrics.add_link(links_[static_cast<size_t>(zone.private_links.at(source).up)]);
    }
    if (zone.backbone >= 0) metrics.add_link(links_[static_cast<size_t>(zone.backbone)]);
    if (netpoints_[static_cast<size_t>(destination)].kind == NetpointKind::host) {
      metrics.add_link(links_[static_cast<size_t>(zone.private_links.at(destination).down)]);
    }
    return LocalRoute{metrics, source, destination};
  }

  // Dijkstra over the declared host/router routes of a Floyd/Dijkstra zone,
  // one per link as SimGrid counts; ties keep the route found first.
  const std::vector<std::optional<RouteMetrics>>& shortest_routes_from(Zone& zone, int source) {
    if (!zone.members_indexed) index_zone_members(zone);
    if (auto cached = zone.shortest_from.find(source); cached != zone.shortest_from.end()) return cached->second;
    const size_t count = zone.members.size();
    std::vector<std::optional<RouteMetrics>> metrics(count);
    std::vector<size_t> weight(count, std::numeric_limits<size_t>::max());
    using QueueEntry = std::pair<size_t, size_t>;  // (weight, position)
    std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue;
    size_t start = zone.member_position.at(source);
    weight[start] = 0;
    metrics[start] = RouteMetrics{};
    queue.emplace(0, start);
    while (!queue.empty()) {
      auto [reached_weight, position] = queue.top();
      queue.pop();
      if (reached_weight != weight[position]) continue;
      for (size_t route_index : zone.routes_from[position]) {
        const DeclaredRoute& route = zone.routes[route_index];
        size_t next = zone.member_position.at(route.destination);
        size_t next_weight = reached_weight + route.metrics.link_count;
        if (next_weight < weight[next]) {
          weight[next] = next_weight;
          RouteMetrics extended = *metrics[position];
          extended.add(route.metrics);
          metrics[next] = extended;
          queue.emplace(next_weight, next);
        }
      }
    }
    return zone.shortest_from.emplace(source, std::move(metrics)).first->second;
  }

  void index_zone_members(Zone& zone) {
    zone.members_indexed = true;
    int zone_index = static_cast<int>(&zone - zones_.data());
    for (size_t netpoint = 0; netpoint < netpoints_.size(); ++netpoint) {
      const Netpoint& point = netpoints_[netpoint];
      if (point.zone == zone_index && point.kind != NetpointKind::zone) {
        zone.member_position.emplace(static_cast<int>(netpoint), zone.members.size());
        zone.members.push_back(static_cast<int>(netpoint));
      }
    }
    zone.routes_from.assign(zone.members.size(), {});
    for (size_t r = 0; r < zone.routes.size(); ++r) {
      const DeclaredRoute& route = zone.routes[r];
      auto from = zone.member_position.find(route.source);
      if (from == zone.member_position.end() || !zone.member_position.count(route.destination)) continue;
      zone.routes_from[from->second].push_back(r);
    }
  }

  // SimGrid's hierarchical routing: find the zone where the two netpoints'
  // ancestries meet, take the route there between the two children that hold
  // them, and recurse to and from that route's gateways. Each recursion goes
  // strictly deeper (gateways lie inside the children, checked when reading),
  // and results are memoised, so the work is bounded by the pairs asked for.
  std::optional<RouteMetrics> global_route(int source, int destination) {
    if (source == destination) return RouteMetrics{};
    int source_child = source, destination_child = destination;
    int source_zone = netpoints_[static_cast<size_t>(source)].zone;
    int destination_zone = netpoints_[static_cast<size_t>(destination)].zone;
    while (source_zone != destination_zone) {
      if (zones_[static_cast<size_t>(source_zone)].depth >= zones_[static_cast<size_t>(destination_zone)].depth) {
        source_child = zones_[static_cast<size_t>(source_zone)].netpoint;
        source_zone = zones_[static_cast<size_t>(source_zone)].parent;
      } else {
        destination_child = zones_[static_cast<size_t>(destination_zone)].netpoint;
        destination_zone = zones_[static_cast<size_t>(destination_zone)].parent;
      }
    }
    if (source_child == destination_child) {
      throw std::logic_error("simgrid import: two distinct netpoints met in the same child zone");
    }
    auto local = local_route(source_zone, source_child, destination_child);
    if (!local) return std::nullopt;
    RouteMetrics total;
    if (local->gateway_source != source) {
      auto head = memoised_global_route(source, local->gateway_source);
      if (!head) return std::nullopt;
      total.add(*head);
    }
    total.add(local->metrics);
    if (local->gateway_destination != destination) {
      auto tail = memoised_global_route(local->gateway_destination, destination);
      if (!tail) return std::nullopt;
      total.add(*tail);
    }
    return total;
  }

  std::optional<RouteMetrics> memoised_global_route(int source, int destination) {
    std::uint64_t key = pair_key(source, destination);
    if (auto cached = gateway_routes_.find(key); cached != gateway_routes_.end()) return cached->second;
    auto route = global_route(source, destination);
    gateway_routes_.emplace(key, route);
    return route;
  }

  // ------------------------------------------------------------ result ---

  Platform build_platform() {
    if (host_netpoints_.empty()) {
      throw InputError(fmt::format("{}: the platform declares no <host> (nor any <cluster>)", source_));
    }
    std::vector<PlatformNode> nodes;
    nodes.reserve(host_netpoints_.size());
    for (size_t h = 0; h < host_netpoints_.size(); ++h) {
      nodes.push_back({netpoints_[static_cast<size_t>(host_netpoints_[h])].name, host_speeds_[h], std::nullopt});
    }
    std::vector<PlatformEdge> edges;
    for (size_t from = 0; from < host_netpoints_.size(); ++from) {
      for (size_t to = 0; to < host_netpoints_.size(); ++to) {
        if (from == to) continue;
        auto route = global_route(host_netpoints_[from], host_netpoints_[to]);
        if (!route) continue;
        const std::string& from_name = nodes[from].id;
        const std::string& to_name = nodes[to].id;
        if (route->link_count == 0) {
          throw InputError(fmt::format("{}: the route from \"{}\" to \"{}\" crosses no link, so it has no bandwidth",
                                       source_, shown(from_name), shown(to_name)));
        }
        if (!std::isfinite(route->latency)) {
          throw InputError(fmt::format("{}: the route from \"{}\" to \"{}\" has an infinite latency (its links' "
                                       "latencies add up past the largest number)",
                                       source_, shown(from_name), shown(to_name)));
        }
        PlatformEdge edge;
        edge.from = static_cast<ProcessorIndex>(from);
        edge.to = static_cast<ProcessorIndex>(to);
        edge.latency = route->latency;
        edge.bandwidth = route->bandwidth;
        edges.push_back(edge);
      }
    }
    return Platform(std::move(nodes), std::move(edges), source_);
  }

  std::string_view text_;
  std::string source_;
  SimgridImportOptions options_;
  std::vector<size_t> line_starts_;

  std::vector<Zone> zones_;
  std::vector<Netpoint> netpoints_;
  std::unordered_map<std::string, int> netpoint_index_;
  std::vector<Link> links_;
  std::unordered_map<std::string, std::pair<int, size_t>> link_index_;  // name -> (link, line)
  std::vector<int> host_netpoints_;
  std::vector<double> host_speeds_;
  std::vector<PendingElement> pending_routes_;
  std::vector<PendingElement> pending_host_links_;
  std::unordered_map<std::uint64_t, std::optional<RouteMetrics>> gateway_routes_;
};

}  // namespace

double parse_simgrid_quantity(std::string_view text, std::string_view kind_name, std::string_view where) {
  const QuantityKind kind = quantity_kind(kind_name);
  std::string_view trimmed = trim(text);
  if (trimmed.empty()) {
    throw InputError(fmt::format("{}: empty, expected a number with a unit such as \"{}\"", where, kind.example));
  }
  std::string_view number = trimmed;
  if (number.front() == '+') number.remove_prefix(1);
  double value = 0;
  auto [unit_start, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error == std::errc::invalid_argument) {
    throw InputError(fmt::format("{}: \"{}\" is not a number with a unit such as \"{}\"", where, shown(trimmed),
                                 kind.example));
  }
  if (error == std::errc::result_out_of_range) {
    throw InputError(fmt::format("{}: \"{}\": the number is out of range", where, shown(trimmed)));
  }
  std::string_view unit(unit_start, static_cast<size_t>(number.data() + number.size() - unit_start));
  auto scale = kind.units.find(std::string(unit.empty() ? std::string_view(kind.base_unit) : unit));
  if (scale == kind.units.end()) {
    throw InputError(fmt::format("{}: unknown unit \"{}\" in \"{}\" (expected {})", where, shown(unit),
                                 shown(trimmed), kind.accepted));
  }
  double result = value * scale->second;
  if (!std::isfinite(result)) {
    throw InputError(fmt::format("{}: \"{}\" is not a finite number", where, shown(trimmed)));
  }
  if (kind.zero_allowed ? result < 0 : result <= 0) {
    throw InputError(fmt::format("{}: \"{}\": must be {}", where, shown(trimmed),
                                 kind.zero_allowed ? "non-negative" : "positive"));
  }
  return result;
}

Platform parse_simgrid_xml(std::string_view text, std::string_view source_name, const SimgridImportOptions& options) {
  return SimgridImporter(text, source_name, options).run();
}

}  // namespace hetcoll
