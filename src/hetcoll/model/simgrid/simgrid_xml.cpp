// Longer than 800 lines: one importer class (SimgridImporter) whose three steps share its zone, netpoint and link tables; kept whole.
// SimGrid platform import: see simgrid_xml.h for what is supported.
//
// The importer works in three steps: (1) walk the XML tree once, creating
// zones, netpoints (hosts, routers, zones — SimGrid's name for anything a
// route can start or end at), links (graph nodes) and the structure of
// clusters, and setting the route elements aside; (2) resolve the routes,
// now that every name is known (SimGrid wants links declared before use;
// accepting any order is harmless); (3) collect the graph's edges from every
// route primitive and build the Platform, whose routing answers any pair by
// SimGrid's algorithm (simgrid_routing.cpp).
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

// ------------------------------------------------------------ importer ---

double parse_quantity(std::string_view text, std::string_view kind_name, std::string_view where, bool allow_zero);

using simgrid::ElementId;
using simgrid::kNoElement;
using simgrid::NetpointKind;
using simgrid::ZoneKind;

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
  if (name == "include") return "<include> is not supported (put the included platform inline)";
  return std::nullopt;
}

bool is_route_element(std::string_view name) {
  return name == "route" || name == "zoneRoute" || name == "ASroute" || name == "bypassRoute" ||
         name == "bypassZoneRoute" || name == "bypassASroute";
}

std::string lowercase(std::string_view text) {
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
    finish_zones();
    if (host_count_ == 0) {
      throw InputError(fmt::format("{}: the platform declares no <host> (nor any <cluster>)", source_));
    }
    simgrid::EdgeSet edges = simgrid::collect_edges(*network_, layouts_, source_);
    return simgrid::build_platform(network_, edges, source_);
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

  // An attribute that may be absent or empty (the DTD's "" default).
  std::optional<std::string_view> given_attribute(const pugi::xml_node& element, const char* attribute) const {
    auto value = optional_attribute(element, attribute);
    if (!value || trim(*value).empty()) return std::nullopt;
    return value;
  }

  double quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind) const {
    return parse_simgrid_quantity(required(element, attribute), kind, where(element, attribute));
  }

  double optional_quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind,
                           double default_value) const {
    auto value = given_attribute(element, attribute);
    if (!value) return default_value;
    return parse_simgrid_quantity(*value, kind, where(element, attribute));
  }

  // "98.095Mf" or a pstate list "1Gf, 500Mf, 0f": the first (nominal) speed,
  // which must be positive; later pstates may be 0 (SimGrid's way to model
  // a host booting or off).
  double speed(const pugi::xml_node& element, const char* attribute) const {
    std::string_view list = required(element, attribute);
    std::optional<double> first;
    size_t position = 0;
    while (position <= list.size()) {
      size_t comma = std::min(list.find(',', position), list.size());
      std::string_view item = list.substr(position, comma - position);
      if (!first) {
        first = parse_simgrid_quantity(item, "speed", where(element, attribute));
      } else {
        parse_quantity(item, "speed", where(element, attribute), /*allow_zero=*/true);  // checked, not kept
      }
      position = comma + 1;
    }
    return *first;
  }

  bool symmetrical(const pugi::xml_node& element) const {
    auto value = optional_attribute(element, "symmetrical");
    if (!value) return true;
    std::string lowered = lowercase(trim(*value));
    if (lowered == "yes" || lowered == "true") return true;
    if (lowered == "no" || lowered == "false") return false;
    fail(element, "symmetrical", fmt::format("must be YES or NO, got \"{}\"", shown(*value)));
  }

  // "x y z" (Vivaldi coordinates, in milliseconds).
  std::optional<std::array<double, 3>> coordinates(const pugi::xml_node& element) const {
    auto text = given_attribute(element, "coordinates");
    if (!text) return std::nullopt;
    std::array<double, 3> values{};
    size_t count = 0;
    size_t position = 0;
    std::string_view list = trim(*text);
    while (position < list.size()) {
      size_t end = list.find_first_of(" \t", position);
      if (end == std::string_view::npos) end = list.size();
      std::string_view item = list.substr(position, end - position);
      position = list.find_first_not_of(" \t", end);
      if (position == std::string_view::npos) position = list.size();
      double value = 0;
      auto [stop, error] = std::from_chars(item.data(), item.data() + item.size(), value);
      if (count == 3 || error != std::errc() || stop != item.data() + item.size() || !std::isfinite(value)) {
        fail(element, "coordinates", fmt::format("must be three numbers \"x y z\", got \"{}\"", shown(*text)));
      }
      values[count++] = value;
    }
    if (count != 3) fail(element, "coordinates", fmt::format("must be three numbers \"x y z\", got \"{}\"", shown(*text)));
    return values;
  }

  // ------------------------------------------------------ declarations ---

  simgrid::Network& network() { return *network_; }
  simgrid::Zone& zone_at(int zone) { return network_->zones[static_cast<size_t>(zone)]; }
  const simgrid::Netpoint& netpoint_at(int netpoint) const { return network_->netpoints[static_cast<size_t>(netpoint)]; }

  int add_netpoint(const pugi::xml_node& element, std::string name, NetpointKind kind, int zone) {
    if (name.empty()) fail(element, "id", "must not be empty");
    if (!is_valid_utf8(name)) fail(element, "id", "is not valid UTF-8");
    auto [it, inserted] = netpoint_index_.emplace(name, static_cast<int>(network_->netpoints.size()));
    if (!inserted) {
      const auto& other = declared_at_[static_cast<size_t>(it->second)];
      fail(element, "id",
           fmt::format("duplicate name \"{}\" (also <{}> at line {}; hosts, routers and zones share one "
                       "namespace)",
                       shown(name), other.first, other.second));
    }
    simgrid::Netpoint netpoint;
    netpoint.name = std::move(name);
    netpoint.kind = kind;
    netpoint.zone = zone;
    network_->netpoints.push_back(std::move(netpoint));
    declared_at_.emplace_back(element.name(), line_of(element));
    if (zone >= 0) {
      simgrid::Zone& parent = zone_at(zone);
      parent.member_position.emplace(it->second, static_cast<int>(parent.members.size()));
      parent.members.push_back(it->second);
    }
    return it->second;
  }

  int add_host(const pugi::xml_node& element, std::string name, int zone, double flop_rate) {
    if (host_count_ >= options_.max_hosts) {
      fail(element, "", fmt::format("too many hosts: hetcoll stops at {} hosts", options_.max_hosts));
    }
    int netpoint = add_netpoint(element, name, NetpointKind::host, zone);
    network_->netpoints[static_cast<size_t>(netpoint)].element =
        network_->add_element({std::move(name), NodeKind::host, PortModel::one_port, flop_rate, 0, 0});
    ++host_count_;
    return netpoint;
  }

  int add_router(const pugi::xml_node& element, std::string name, int zone) {
    int netpoint = add_netpoint(element, name, NetpointKind::router, zone);
    network_->netpoints[static_cast<size_t>(netpoint)].element = network_->add_switch(std::move(name));
    return netpoint;
  }

  void register_link_name(const pugi::xml_node& element, const std::string& name, LinkName link) {
    if (name.empty()) fail(element, "id", "must not be empty");
    if (!is_valid_utf8(name)) fail(element, "id", "is not valid UTF-8");
    link.line = line_of(element);
    auto [it, inserted] = link_index_.emplace(name, link);
    if (!inserted) {
      fail(element, "id", fmt::format("duplicate link name \"{}\" (also a link at line {})", shown(name),
                                      it->second.line));
    }
  }

  ElementId add_link(const pugi::xml_node& element, const std::string& name, double bandwidth, double latency,
                     simgrid::LinkSharing sharing) {
    check_element_budget(element);
    LinkName link;
    if (sharing == simgrid::LinkSharing::split_duplex) {
      link.split = true;
      // Checked before creating anything, so that a clash names the right link.
      for (const char* half : {"", "_UP", "_DOWN"}) {
        if (auto found = link_index_.find(name + half); found != link_index_.end()) {
          fail(element, "id", fmt::format("duplicate link name \"{}\" (also a link at line {})",
                                          shown(name + half), found->second.line));
        }
      }
      link.element = network_->add_link(name + "_UP", bandwidth, latency, PortModel::one_port);
      link.down = network_->add_link(name + "_DOWN", bandwidth, latency, PortModel::one_port);
      register_link_name(element, name, link);
      register_link_name(element, name + "_UP", {link.element});
      register_link_name(element, name + "_DOWN", {link.down});
    } else {
      if (auto found = link_index_.find(name); found != link_index_.end()) {
        fail(element, "id", fmt::format("duplicate link name \"{}\" (also a link at line {})", shown(name),
                                        found->second.line));
      }
      PortModel ports = sharing == simgrid::LinkSharing::fatpipe ? PortModel::unlimited : PortModel::one_port;
      link.element = network_->add_link(name, bandwidth, latency, ports);
      register_link_name(element, name, link);
    }
    return link.element;
  }

  void check_element_budget(const pugi::xml_node& element) const {
    if (network_->elements.size() >= options_.max_elements) {
      fail(element, "", fmt::format("the platform grows past {} nodes (hosts, routers and links)",
                                    options_.max_elements));
    }
  }

  int add_zone(const pugi::xml_node& element, std::string id, ZoneKind kind, int parent) {
    int depth = parent < 0 ? 0 : zone_at(parent).depth + 1;
    if (depth >= kMaxZoneNesting) {
      fail(element, "", fmt::format("zones are nested more than {} deep", kMaxZoneNesting));
    }
    int zone_index = static_cast<int>(network_->zones.size());
    int netpoint = add_netpoint(element, id, NetpointKind::zone, parent);
    network_->netpoints[static_cast<size_t>(netpoint)].own_zone = zone_index;
    simgrid::Zone zone;
    zone.id = std::move(id);
    zone.kind = kind;
    zone.parent = parent;
    zone.netpoint = netpoint;
    zone.depth = depth;
    network_->zones.push_back(std::move(zone));
    zone_lines_.push_back(line_of(element));
    zone_backbones_.push_back(kNoElement);
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
  void check_other_element(const pugi::xml_node& element) const {
    std::string_view name = element.name();
    if (is_ignored_element(name)) return;
    if (auto reason = unsupported_element_reason(name)) fail(element, "", *reason);
    fail(element, "", fmt::format("unexpected element <{}> inside <{}>", shown(name), shown(element.parent().name())));
  }

  ZoneKind routing_kind(const pugi::xml_node& zone_element) const {
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

  void read_zone(const pugi::xml_node& element, int parent) {
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

  void set_coordinates(const pugi::xml_node& element, int netpoint, ZoneKind zone_kind) {
    auto values = coordinates(element);
    if (!values && zone_kind == ZoneKind::vivaldi) {
      fail(element, "coordinates", "missing: a member of a Vivaldi zone needs \"x y z\" (milliseconds)");
    }
    network_->netpoints[static_cast<size_t>(netpoint)].coordinates = values;
  }

  simgrid::LinkSharing link_sharing(const pugi::xml_node& element, const char* attribute,
                                    simgrid::LinkSharing default_sharing, bool* wifi = nullptr) const {
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

  ElementId read_link(const pugi::xml_node& element, int zone) {
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
  void read_peer(const pugi::xml_node& element, int zone) {
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
      size_t room = options_.max_hosts - std::min(options_.max_hosts, host_count_ + numbers.size());
      if (static_cast<unsigned long long>(last - first) >= room) {
        fail(element, "radical", fmt::format("too many hosts: hetcoll stops at {} hosts", options_.max_hosts));
      }
      for (long long number = first; number <= last; ++number) numbers.push_back(number);
      position = comma + 1;
    }
    return numbers;
  }

  void read_cluster(const pugi::xml_node& element, int parent) {
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

  void read_topology_cluster(const pugi::xml_node& element, int parent, const std::string& topology,
                             simgrid::ClusterShape shape, const std::string& prefix, const std::string& suffix,
                             double flop_rate, const std::vector<long long>& numbers) {
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
  void read_cabinet(const pugi::xml_node& element, int zone) {
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

  int find_netpoint(const pugi::xml_node& element, const char* attribute) const {
    std::string name(required(element, attribute));
    auto found = netpoint_index_.find(name);
    if (found == netpoint_index_.end()) {
      fail(element, attribute, fmt::format("unknown host, router or zone \"{}\"", shown(name)));
    }
    return found->second;
  }

  const LinkName& find_link(const pugi::xml_node& element, const char* attribute) const {
    std::string name(required(element, attribute));
    auto found = link_index_.find(name);
    if (found == link_index_.end()) fail(element, attribute, fmt::format("unknown link \"{}\"", shown(name)));
    return found->second;
  }

  bool zone_contains(int zone, int netpoint) const {
    for (int z = netpoint_at(netpoint).zone; z >= 0; z = network_->zones[static_cast<size_t>(z)].parent) {
      if (z == zone) return true;
    }
    return false;
  }

  void resolve_pending_elements() {
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
  ElementId resolve_link_ctn(const pugi::xml_node& child, bool backwards) const {
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

  void resolve_route(const pugi::xml_node& element, int zone) {
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

  void note_dijkstra_node(int zone, int netpoint) {
    simgrid::Zone& z = zone_at(zone);
    int position = z.member_position.at(netpoint);
    if (std::find(z.dijkstra_order.begin(), z.dijkstra_order.end(), position) == z.dijkstra_order.end()) {
      z.dijkstra_order.push_back(position);
    }
  }

  int find_gateway(const pugi::xml_node& element, const char* attribute, int zone_netpoint) const {
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

  void add_route(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route, bool is_reverse) {
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

  void add_bypass(const pugi::xml_node& element, int zone_index, simgrid::DeclaredRoute route) {
    simgrid::Zone& zone = zone_at(zone_index);
    auto [it, inserted] =
        zone.bypass_index.emplace(simgrid::pair_key(route.source, route.destination), zone.bypass_routes.size());
    if (!inserted) {
      fail(element, "", fmt::format("a bypass route from \"{}\" to \"{}\" is already given",
                                    shown(netpoint_at(route.source).name), shown(netpoint_at(route.destination).name)));
    }
    zone.bypass_routes.push_back(std::move(route));
  }

  void resolve_host_link(const pugi::xml_node& element, int zone_index) {
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

  void finish_zones() {
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

}  // namespace

namespace {
double parse_quantity(std::string_view text, std::string_view kind_name, std::string_view where, bool allow_zero) {
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
  if (allow_zero ? result < 0 : result <= 0) {
    throw InputError(fmt::format("{}: \"{}\": must be {}", where, shown(trimmed),
                                 allow_zero ? "non-negative" : "positive"));
  }
  if (result != 0 && result < std::numeric_limits<double>::min()) {
    throw InputError(fmt::format("{}: \"{}\" is too small: below {:.3g} doubles lose precision (subnormal); "
                                 "give another unit",
                                 where, shown(trimmed), std::numeric_limits<double>::min()));
  }
  return result;
}
}  // namespace

double parse_simgrid_quantity(std::string_view text, std::string_view kind_name, std::string_view where) {
  return parse_quantity(text, kind_name, where, quantity_kind(kind_name).zero_allowed);
}

Platform parse_simgrid_xml(std::string_view text, std::string_view source_name, const SimgridImportOptions& options) {
  return SimgridImporter(text, source_name, options).run();
}

}  // namespace hetcoll
