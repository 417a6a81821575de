// SimGrid platform import: see simgrid_xml.h for what is supported. This
// file: the entry points (parse_simgrid_xml, parse_simgrid_quantity), units,
// the importer's messages, attributes and declarations; its steps are in
// simgrid_xml_tree.cpp and simgrid_xml_routes.cpp.
//
// The importer works in three steps: (1) walk the XML tree once, creating
// zones, netpoints (hosts, routers, zones — SimGrid's name for anything a
// route can start or end at), links (graph nodes) and the structure of
// clusters, and setting the route elements aside; (2) resolve the routes,
// now that every name is known (SimGrid wants links declared before use;
// accepting any order is harmless); (3) collect the graph's edges from every
// route primitive and build the Platform (simgrid_graph.cpp), whose routing
// answers any pair by SimGrid's algorithm (simgrid_routing.cpp).
#include "hetcoll/model/simgrid/simgrid_importer_internal.h"

namespace hetcoll::simgrid_import {

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

}  // namespace

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

Platform SimgridImporter::run() {
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

size_t SimgridImporter::line_of(size_t offset) const {
  auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<size_t>(after - line_starts_.begin());
}

std::string SimgridImporter::line_and_column(size_t offset) const {
  size_t line = line_of(offset);
  size_t column = offset - line_starts_[line - 1] + 1;
  return fmt::format("line {}, column {}", line, column);
}

size_t SimgridImporter::line_of(const pugi::xml_node& element) const {
  std::ptrdiff_t offset = element.offset_debug();
  return offset < 0 ? 0 : line_of(static_cast<size_t>(offset));
}

// `file: line 12: <link id="l3">`
std::string SimgridImporter::describe(const pugi::xml_node& element) const {
  std::string tag = fmt::format("<{}", shown(element.name()));
  for (const char* key : {"id", "src", "dst"}) {
    if (pugi::xml_attribute attribute = element.attribute(key)) {
      tag += fmt::format(" {}=\"{}\"", key, shown(attribute.value()));
    }
  }
  tag += ">";
  return fmt::format("{}: line {}: {}", source_, line_of(element), tag);
}

std::string SimgridImporter::where(const pugi::xml_node& element, std::string_view attribute) const {
  return attribute.empty() ? describe(element) : fmt::format("{} {}", describe(element), attribute);
}

[[noreturn]] void SimgridImporter::fail(const pugi::xml_node& element, std::string_view attribute,
                                        std::string_view message) const {
  throw InputError(fmt::format("{}: {}", where(element, attribute), message));
}

std::string_view SimgridImporter::required(const pugi::xml_node& element, const char* attribute) const {
  pugi::xml_attribute found = element.attribute(attribute);
  if (!found) fail(element, attribute, "missing");
  std::string_view value = found.value();
  if (trim(value).empty()) fail(element, attribute, "must not be empty");
  return value;
}

std::optional<std::string_view> SimgridImporter::optional_attribute(const pugi::xml_node& element,
                                                                    const char* attribute) const {
  pugi::xml_attribute found = element.attribute(attribute);
  if (!found) return std::nullopt;
  return std::string_view(found.value());
}

// An attribute that may be absent or empty (the DTD's "" default).
std::optional<std::string_view> SimgridImporter::given_attribute(const pugi::xml_node& element,
                                                                 const char* attribute) const {
  auto value = optional_attribute(element, attribute);
  if (!value || trim(*value).empty()) return std::nullopt;
  return value;
}

double SimgridImporter::quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind) const {
  return parse_simgrid_quantity(required(element, attribute), kind, where(element, attribute));
}

double SimgridImporter::optional_quantity(const pugi::xml_node& element, const char* attribute, std::string_view kind,
                                          double default_value) const {
  auto value = given_attribute(element, attribute);
  if (!value) return default_value;
  return parse_simgrid_quantity(*value, kind, where(element, attribute));
}

// "98.095Mf" or a pstate list "1Gf, 500Mf, 0f": the first (nominal) speed,
// which must be positive; later pstates may be 0 (SimGrid's way to model
// a host booting or off).
double SimgridImporter::speed(const pugi::xml_node& element, const char* attribute) const {
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

bool SimgridImporter::symmetrical(const pugi::xml_node& element) const {
  auto value = optional_attribute(element, "symmetrical");
  if (!value) return true;
  std::string lowered = lowercase(trim(*value));
  if (lowered == "yes" || lowered == "true") return true;
  if (lowered == "no" || lowered == "false") return false;
  fail(element, "symmetrical", fmt::format("must be YES or NO, got \"{}\"", shown(*value)));
}

// "x y z" (Vivaldi coordinates, in milliseconds).
std::optional<std::array<double, 3>> SimgridImporter::coordinates(const pugi::xml_node& element) const {
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

int SimgridImporter::add_netpoint(const pugi::xml_node& element, std::string name, NetpointKind kind, int zone) {
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

int SimgridImporter::add_host(const pugi::xml_node& element, std::string name, int zone, double flop_rate) {
  if (host_count_ >= options_.max_hosts) {
    fail(element, "", fmt::format("too many hosts: hetcoll stops at {} hosts", options_.max_hosts));
  }
  int netpoint = add_netpoint(element, name, NetpointKind::host, zone);
  network_->netpoints[static_cast<size_t>(netpoint)].element =
      network_->add_element({std::move(name), NodeKind::host, PortModel::one_port, flop_rate, 0, 0});
  ++host_count_;
  return netpoint;
}

int SimgridImporter::add_router(const pugi::xml_node& element, std::string name, int zone) {
  int netpoint = add_netpoint(element, name, NetpointKind::router, zone);
  network_->netpoints[static_cast<size_t>(netpoint)].element = network_->add_switch(std::move(name));
  return netpoint;
}

void SimgridImporter::register_link_name(const pugi::xml_node& element, const std::string& name, LinkName link) {
  if (name.empty()) fail(element, "id", "must not be empty");
  if (!is_valid_utf8(name)) fail(element, "id", "is not valid UTF-8");
  link.line = line_of(element);
  auto [it, inserted] = link_index_.emplace(name, link);
  if (!inserted) {
    fail(element, "id", fmt::format("duplicate link name \"{}\" (also a link at line {})", shown(name),
                                    it->second.line));
  }
}

ElementId SimgridImporter::add_link(const pugi::xml_node& element, const std::string& name, double bandwidth,
                                    double latency, simgrid::LinkSharing sharing) {
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

void SimgridImporter::check_element_budget(const pugi::xml_node& element) const {
  if (network_->elements.size() >= options_.max_elements) {
    fail(element, "", fmt::format("the platform grows past {} nodes (hosts, routers and links)",
                                  options_.max_elements));
  }
}

int SimgridImporter::add_zone(const pugi::xml_node& element, std::string id, ZoneKind kind, int parent) {
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

}  // namespace hetcoll::simgrid_import

namespace hetcoll {

double parse_simgrid_quantity(std::string_view text, std::string_view kind_name, std::string_view where) {
  return simgrid_import::parse_quantity(text, kind_name, where, simgrid_import::quantity_kind(kind_name).zero_allowed);
}

Platform parse_simgrid_xml(std::string_view text, std::string_view source_name, const SimgridImportOptions& options) {
  return simgrid_import::SimgridImporter(text, source_name, options).run();
}

}  // namespace hetcoll
