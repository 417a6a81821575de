#include "hetcoll/model/platform_io.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/core/json_input_internal.h"
#include "hetcoll/model/cluster_json_reader_internal.h"
#include "hetcoll/model/cluster_json_stream_internal.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"

#include <map>
#include <memory>
#include <unordered_map>

namespace hetcoll {

using nlohmann::json;

namespace {

std::string line_and_column(std::string_view text, size_t byte_offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte_offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

// nlohmann reports a number too large for a double ("1e999": JSON has no
// infinity literal, so this is how a file says "infinite") without its
// position. Find the token outside strings, and the key it follows, so that
// the message can name the line and the field.
std::string locate_json_token(std::string_view text, std::string_view token) {
  std::string_view last_string;
  std::string key;
  bool in_string = false, escaped = false;
  size_t string_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
        last_string = text.substr(string_start, i - string_start);
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      string_start = i + 1;
    } else if (c == ':') {
      key = std::string(last_string);
    } else if (!token.empty() && text.substr(i, token.size()) == token &&
               (i == 0 || std::string_view("0123456789.+-eE").find(text[i - 1]) == std::string_view::npos)) {
      return key.empty() ? line_and_column(text, i) : fmt::format("{}, field \"{}\"", line_and_column(text, i), key);
    }
  }
  return "an unknown position";
}

std::string type_name(const json& value) { return value.type_name(); }

const json& require_field(const json& object, const char* key, std::string_view source, std::string_view where) {
  auto it = object.find(key);
  if (it == object.end()) throw InputError(fmt::format("{}: {}{}: missing", source, where, key));
  return *it;
}

double read_number(const json& value, std::string_view source, std::string_view field) {
  if (!value.is_number()) {
    throw InputError(fmt::format("{}: {}: must be a number, got {}", source, field, type_name(value)));
  }
  return value.get<double>();
}

std::optional<double> optional_number(const json& object, const char* key, std::string_view source,
                                      std::string_view where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  return read_number(*it, source, fmt::format("{}{}", where, key));
}

// A number in the base unit, or a string with a SimGrid unit ("50us",
// "1.25GBps", "10Gbps", "2Gf"): `kind` is "latency", "bandwidth" or "speed"
// (parse_simgrid_quantity).
std::optional<double> optional_quantity(const json& object, const char* key, const char* kind,
                                        std::string_view source, std::string_view where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if (it->is_string()) {
    return parse_simgrid_quantity(it->get<std::string>(), kind, fmt::format("{}: {}{}", source, where, key));
  }
  if (!it->is_number()) {
    throw InputError(fmt::format("{}: {}{}: must be a number or a string with its unit (e.g. \"{}\"), got {}", source,
                                 where, key,
                                 std::string_view(kind) == "latency"     ? "50us"
                                 : std::string_view(kind) == "bandwidth" ? "1.25GBps"
                                                                         : "2Gf",
                                 type_name(*it)));
  }
  return it->get<double>();
}

std::string read_id(const json& value, std::string_view source, std::string_view field) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  throw InputError(fmt::format("{}: {}: must be a string, got {}", source, field, type_name(value)));
}

void reject_unknown_keys(const json& object, std::initializer_list<std::string_view> known,
                         std::string_view source, std::string_view where) {
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (auto k : known) ok = ok || key == k;
    if (!ok) throw InputError(fmt::format("{}: {}{}: unknown field", source, where, key));
  }
}

// "units": {"time": "ms"} says what unit the file's times are in (also
// {"t": "milliseconds per message"}, the form earlier versions wrote).
// Spelled-out units become their symbols; any other short word ("ticks") is
// kept as written. Returns "" when the file declares no unit.
std::string read_time_unit(const json& document, std::string_view source) {
  auto units = document.find("units");
  if (units == document.end()) return "";
  if (!units->is_object()) {
    throw InputError(fmt::format("{}: units: must be an object such as {{\"time\": \"ms\"}}, got {}", source,
                                 type_name(*units)));
  }
  reject_unknown_keys(*units, {"time", "t"}, source, "units.");
  if (units->contains("time") && units->contains("t")) {
    throw InputError(fmt::format("{}: units: give \"time\" only (\"t\" is its older name)", source));
  }
  const std::string key = units->contains("time") ? "time" : "t";
  auto value = units->find(key);
  if (value == units->end()) return "";
  if (!value->is_string()) {
    throw InputError(fmt::format("{}: units.{}: must be a string such as \"ms\", got {}", source, key,
                                 type_name(*value)));
  }
  std::string unit = value->get<std::string>();
  for (std::string_view suffix : {" per message", "/message"}) {
    if (unit.size() > suffix.size() && unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) == 0) {
      unit.resize(unit.size() - suffix.size());
    }
  }
  std::string lower;
  for (char c : unit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  struct Spelling {
    std::string_view symbol;
    std::initializer_list<std::string_view> names;
  };
  for (const Spelling& spelling : {Spelling{"s", {"s", "sec", "second", "seconds"}},
                                   Spelling{"ms", {"ms", "msec", "millisecond", "milliseconds"}},
                                   Spelling{"us", {"us", "\u00b5s", "usec", "microsecond", "microseconds"}},
                                   Spelling{"ns", {"ns", "nsec", "nanosecond", "nanoseconds"}},
                                   Spelling{"min", {"min", "minute", "minutes"}},
                                   Spelling{"h", {"h", "hour", "hours"}}}) {
    for (std::string_view name : spelling.names) {
      if (lower == name) return std::string(spelling.symbol);
    }
  }
  const bool printable = std::all_of(unit.begin(), unit.end(), [](char c) { return c == ' ' || std::isgraph(static_cast<unsigned char>(c)) || (c & 0x80); });
  if (unit.empty() || unit.size() > 24 || !printable) {
    throw InputError(fmt::format("{}: units.{}: \"{}\" is not a unit of time (e.g. \"s\", \"ms\", \"us\")", source,
                                 key, value->get<std::string>()));
  }
  return unit;
}

Cluster parse_cluster(const json& document, std::string_view source) {
  reject_unknown_keys(document, {"model", "processors", "description", "units"}, source, "");
  const json& processors = require_field(document, "processors", source, "");
  if (!processors.is_array()) {
    throw InputError(fmt::format("{}: processors: must be an array, got {}", source, type_name(processors)));
  }
  if (processors.empty()) throw InputError(fmt::format("{}: processors: the cluster has no processors", source));
  std::vector<std::string> ids;
  std::vector<double> times;
  ids.reserve(processors.size());
  times.reserve(processors.size());
  for (size_t p = 0; p < processors.size(); ++p) {
    const json& processor = processors[p];
    std::string where = fmt::format("processors[{}].", p);
    if (!processor.is_object()) {
      throw InputError(fmt::format("{}: processors[{}]: must be an object, got {}", source, p, type_name(processor)));
    }
    reject_unknown_keys(processor, {"id", "t", "description"}, source, where);
    ids.push_back(read_id(require_field(processor, "id", source, where), source, where + "id"));
    times.push_back(read_number(require_field(processor, "t", source, where), source, where + "t"));
  }
  Cluster cluster(std::move(ids), std::move(times), source);
  cluster.set_time_unit(read_time_unit(document, source));
  return cluster;
}

// The first edge listed from `from` to `to`, if any.
std::optional<size_t> first_edge(const Platform& graph, ProcessorIndex from, ProcessorIndex to) {
  for (size_t e : graph.out_edges(from)) {
    if (graph.edges()[e].to == to) return e;
  }
  return std::nullopt;
}

// "routes": [{"from": "A", "to": "C", "path": ["A", "R", "C"]}]: each step of
// a path follows the first edge listed between its two nodes.
std::shared_ptr<RouteTable> parse_routes(const json& routes_json, const Platform& graph,
                                         const std::unordered_map<std::string, ProcessorIndex>& index_of,
                                         bool symmetric, std::string_view source) {
  if (!routes_json.is_array()) {
    throw InputError(fmt::format("{}: routes: must be an array, got {}", source, type_name(routes_json)));
  }
  auto node_of = [&](const json& value, const std::string& field) {
    std::string id = read_id(value, source, field);
    auto found = index_of.find(id);
    if (found == index_of.end()) throw InputError(fmt::format("{}: {}: unknown node \"{}\"", source, field, id));
    return found->second;
  };
  auto table = std::make_shared<RouteTable>();
  std::vector<std::pair<ProcessorIndex, std::vector<ProcessorIndex>>> given;  // for the symmetric reverses
  for (size_t r = 0; r < routes_json.size(); ++r) {
    const json& route_json = routes_json[r];
    std::string where = fmt::format("routes[{}].", r);
    if (!route_json.is_object()) {
      throw InputError(fmt::format("{}: routes[{}]: must be an object, got {}", source, r, type_name(route_json)));
    }
    reject_unknown_keys(route_json, {"from", "to", "path", "description"}, source, where);
    ProcessorIndex from = node_of(require_field(route_json, "from", source, where), where + "from");
    ProcessorIndex to = node_of(require_field(route_json, "to", source, where), where + "to");
    if (from == to) throw InputError(fmt::format("{}: {}to: a route joins two different nodes", source, where));
    const json& path_json = require_field(route_json, "path", source, where);
    if (!path_json.is_array() || path_json.size() < 2) {
      throw InputError(fmt::format("{}: {}path: must be an array of node ids from \"from\" to \"to\"", source,
                                   where));
    }
    std::vector<ProcessorIndex> path;
    for (size_t k = 0; k < path_json.size(); ++k) {
      path.push_back(node_of(path_json[k], fmt::format("{}path[{}]", where, k)));
    }
    if (path.front() != from || path.back() != to) {
      throw InputError(fmt::format("{}: {}path: must start at \"from\" and end at \"to\"", source, where));
    }
    // A route crosses each node (so each edge) once: a loop would make a
    // transfer occupy its own links twice.
    {
      std::unordered_map<ProcessorIndex, size_t> first_at;
      for (size_t k = 0; k < path.size(); ++k) {
        auto [seen, inserted] = first_at.emplace(path[k], k);
        if (!inserted) {
          throw InputError(fmt::format("{}: {}path[{}]: the route crosses \"{}\" twice (also path[{}]); a route "
                                       "visits each node at most once",
                                       source, where, k, graph.id(path[k]), seen->second));
        }
      }
    }
    Route route;
    for (size_t k = 1; k < path.size(); ++k) {
      auto edge = first_edge(graph, path[k - 1], path[k]);
      if (!edge) {
        throw InputError(fmt::format("{}: {}path[{}]: no edge from \"{}\" to \"{}\"", source, where, k,
                                     graph.id(path[k - 1]), graph.id(path[k])));
      }
      route.push_back(*edge);
    }
    if (table->contains(from, to)) {
      throw InputError(fmt::format("{}: {}: a route from \"{}\" to \"{}\" is already given", source,
                                   where.substr(0, where.size() - 1), graph.id(from), graph.id(to)));
    }
    table->set(from, to, std::move(route));
    given.emplace_back(r, std::move(path));
  }
  if (symmetric) {
    // The reverse of a route, unless the file gives that pair its own; the
    // reverse edges exist because "symmetric" added them.
    for (auto& [r, path] : given) {
      ProcessorIndex from = path.back(), to = path.front();
      if (table->contains(from, to)) continue;
      Route route;
      for (size_t k = path.size() - 1; k > 0; --k) {
        auto edge = first_edge(graph, path[k], path[k - 1]);
        if (!edge) {
          throw InputError(fmt::format("{}: routes[{}]: its reverse has no edge from \"{}\" to \"{}\"", source, r,
                                       graph.id(path[k]), graph.id(path[k - 1])));
        }
        route.push_back(*edge);
      }
      table->set(from, to, std::move(route));
    }
  }
  return table;
}

Platform parse_graph(const json& document, std::string_view source) {
  reject_unknown_keys(document, {"model", "symmetric", "nodes", "edges", "routes", "description", "units"}, source, "");
  bool symmetric = false;
  if (auto it = document.find("symmetric"); it != document.end()) {
    if (!it->is_boolean()) {
      throw InputError(fmt::format("{}: symmetric: must be true or false, got {}", source, type_name(*it)));
    }
    symmetric = it->get<bool>();
  }
  const json& nodes_json = require_field(document, "nodes", source, "");
  if (!nodes_json.is_array()) {
    throw InputError(fmt::format("{}: nodes: must be an array, got {}", source, type_name(nodes_json)));
  }
  if (nodes_json.empty()) throw InputError(fmt::format("{}: nodes: the platform has no nodes", source));
  std::vector<PlatformNode> nodes;
  std::unordered_map<std::string, ProcessorIndex> index_of;
  for (size_t v = 0; v < nodes_json.size(); ++v) {
    const json& node_json = nodes_json[v];
    std::string where = fmt::format("nodes[{}].", v);
    if (!node_json.is_object()) {
      throw InputError(fmt::format("{}: nodes[{}]: must be an object, got {}", source, v, type_name(node_json)));
    }
    reject_unknown_keys(node_json, {"id", "speed", "send_overhead", "router", "kind", "ports", "site", "description"}, source,
                        where);
    PlatformNode node;
    node.id = read_id(require_field(node_json, "id", source, where), source, where + "id");
    node.speed = optional_quantity(node_json, "speed", "speed", source, where);
    node.send_overhead = optional_quantity(node_json, "send_overhead", "latency", source, where);
    std::optional<bool> router;
    if (auto found = node_json.find("router"); found != node_json.end()) {
      if (!found->is_boolean()) {
        throw InputError(fmt::format("{}: {}router: must be true or false, got {}", source, where, type_name(*found)));
      }
      router = found->get<bool>();
    }
    if (auto found = node_json.find("kind"); found != node_json.end()) {
      std::string kind = found->is_string() ? found->get<std::string>() : std::string();
      if (kind == "host") {
        node.kind = NodeKind::host;
      } else if (kind == "router") {
        node.kind = NodeKind::router;
      } else if (kind == "link") {
        node.kind = NodeKind::link;
      } else {
        throw InputError(fmt::format("{}: {}kind: must be \"host\", \"router\" or \"link\", got {}", source, where,
                                     found->dump()));
      }
      if (node.kind != NodeKind::host && router == false) {
        throw InputError(fmt::format("{}: {}router: a {} is always a router", source, where, kind));
      }
    } else if (router == true) {
      node.kind = NodeKind::router;
    }
    node.router = router.value_or(node.kind != NodeKind::host);
    if (auto found = node_json.find("ports"); found != node_json.end()) {
      std::string ports = found->is_string() ? found->get<std::string>() : std::string();
      if (ports == "one-port") {
        node.ports = PortModel::one_port;
      } else if (ports == "unlimited") {
        node.ports = PortModel::unlimited;
      } else {
        throw InputError(fmt::format("{}: {}ports: must be \"one-port\" or \"unlimited\", got {}", source, where,
                                     found->dump()));
      }
    }
    if (auto found = node_json.find("site"); found != node_json.end()) {
      if (!found->is_string() || found->get<std::string>().empty()) {
        throw InputError(fmt::format("{}: {}site: must be a non-empty string (the site's name), got {}", source, where,
                                     found->dump()));
      }
      node.site = found->get<std::string>();
    }
    index_of.emplace(node.id, static_cast<ProcessorIndex>(v));
    nodes.push_back(std::move(node));
  }
  std::vector<PlatformEdge> edges;
  if (auto it = document.find("edges"); it != document.end()) {
    if (!it->is_array()) throw InputError(fmt::format("{}: edges: must be an array, got {}", source, type_name(*it)));
    for (size_t e = 0; e < it->size(); ++e) {
      const json& edge_json = (*it)[e];
      std::string where = fmt::format("edges[{}].", e);
      if (!edge_json.is_object()) {
        throw InputError(fmt::format("{}: edges[{}]: must be an object, got {}", source, e, type_name(edge_json)));
      }
      reject_unknown_keys(edge_json, {"from", "to", "cost", "latency", "bandwidth", "description"}, source, where);
      PlatformEdge edge;
      for (const char* end : {"from", "to"}) {
        std::string id = read_id(require_field(edge_json, end, source, where), source, where + end);
        auto found = index_of.find(id);
        if (found == index_of.end()) {
          throw InputError(fmt::format("{}: {}{}: unknown node \"{}\"", source, where, end, id));
        }
        (std::string_view(end) == "from" ? edge.from : edge.to) = found->second;
      }
      edge.cost = optional_number(edge_json, "cost", source, where);
      edge.latency = optional_quantity(edge_json, "latency", "latency", source, where);
      edge.bandwidth = optional_quantity(edge_json, "bandwidth", "bandwidth", source, where);
      if (edge.cost && (edge.latency || edge.bandwidth)) {
        throw InputError(fmt::format("{}: edges[{}]: give either \"cost\" or \"latency\"/\"bandwidth\", not both",
                                     source, e));
      }
      if (!edge.cost && !edge.bandwidth) {
        throw InputError(fmt::format("{}: edges[{}]: needs \"cost\", or \"bandwidth\" (and \"latency\")", source, e));
      }
      edges.push_back(edge);
    }
  }
  // One edge per ordered pair: a second one would silently shadow the first
  // (which cost would a route use?). With "symmetric", a listed reverse is
  // the same edge twice.
  {
    std::map<std::pair<ProcessorIndex, ProcessorIndex>, size_t> seen;
    for (size_t e = 0; e < edges.size(); ++e) {
      auto key = std::pair{edges[e].from, edges[e].to};
      auto reverse = std::pair{edges[e].to, edges[e].from};
      auto clash = seen.find(key);
      if (clash == seen.end() && symmetric) clash = seen.find(reverse);
      if (clash != seen.end()) {
        throw InputError(fmt::format(
            "{}: edges[{}]: duplicate edge \"{}\" -> \"{}\" (also edges[{}]{}); give each ordered pair once", source, e,
            nodes[static_cast<size_t>(key.first)].id, nodes[static_cast<size_t>(key.second)].id, clash->second,
            symmetric ? ", and \"symmetric\": true adds every reverse edge" : ""));
      }
      seen.emplace(key, e);
    }
  }
  if (symmetric) {
    const size_t given = edges.size();
    for (size_t e = 0; e < given; ++e) {
      PlatformEdge reverse = edges[e];
      std::swap(reverse.from, reverse.to);
      edges.push_back(reverse);
    }
  }
  std::shared_ptr<RouteTable> routes;
  if (auto it = document.find("routes"); it != document.end()) {
    Platform graph(nodes, edges, source);  // checks nodes and edges before routes refer to them
    routes = parse_routes(*it, graph, index_of, symmetric, source);
  }
  const std::string time_unit = read_time_unit(document, source);
  const bool any_latency = std::any_of(edges.begin(), edges.end(), [](const PlatformEdge& e) { return !e.cost; });
  if (any_latency && !time_unit.empty() && time_unit != "s") {
    throw InputError(fmt::format("{}: units.time: \"{}\", but edges with latency and bandwidth give seconds; give "
                                 "every edge a cost in {}, or the units as \"s\"",
                                 source, time_unit, time_unit));
  }
  Platform platform(std::move(nodes), std::move(edges), source, std::move(routes));
  platform.set_time_unit(any_latency ? "s" : time_unit);
  return platform;
}

}  // namespace

LoadedPlatform parse_platform_json(std::string_view text, std::string_view source_name) {
  json document;
  try {
    document = parse_json_rejecting_duplicate_keys(text, source_name);
  } catch (const json::parse_error& error) {
    std::string message = error.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: ".
    if (auto colon = message.find(": "); colon != std::string::npos) {
      auto detail = message.find(": ", colon + 2);
      if (detail != std::string::npos) message = message.substr(detail + 2);
    }
    throw InputError(fmt::format("{}: malformed JSON at {}: {}", source_name,
                                 line_and_column(text, error.byte > 0 ? error.byte - 1 : 0), message));
  } catch (const json::out_of_range& error) {
    // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
    std::string message = error.what();
    std::string token;
    if (auto open = message.find('\''); open != std::string::npos) {
      if (auto close = message.find('\'', open + 1); close != std::string::npos) {
        token = message.substr(open + 1, close - open - 1);
      }
    }
    throw InputError(fmt::format("{}: at {}: the number {} is out of range (JSON has no infinity; give a finite "
                                 "number)",
                                 source_name, locate_json_token(text, token), token));
  }
  if (!document.is_object()) {
    throw InputError(fmt::format("{}: the document must be a JSON object, got {}", source_name, type_name(document)));
  }
  auto model = document.find("model");
  if (model == document.end()) {
    throw InputError(fmt::format("{}: model: missing (expected \"cluster\" or \"graph\")", source_name));
  }
  if (!model->is_string()) {
    throw InputError(fmt::format("{}: model: must be \"cluster\" or \"graph\", got {}", source_name, type_name(*model)));
  }
  const std::string kind = model->get<std::string>();
  LoadedPlatform loaded{Cluster(), std::string(source_name)};
  if (kind == "cluster") {
    loaded.model = parse_cluster(document, source_name);
  } else if (kind == "graph") {
    loaded.model = parse_graph(document, source_name);
  } else {
    throw InputError(fmt::format("{}: model: unknown model \"{}\" (expected \"cluster\" or \"graph\")", source_name, kind));
  }
  return loaded;
}

std::string read_text_file(const std::string& path) {
  std::error_code is_directory_error;
  if (std::filesystem::is_directory(path, is_directory_error)) {
    throw InputError(fmt::format("{}: is a directory, not a file", path));
  }
  // One read into a string sized from the file, with kJsonReadPadding bytes
  // of capacity to spare for the fast cluster reader.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw InputError(fmt::format("{}: cannot open the file", path));
  std::string text;
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) {
    auto size = std::filesystem::file_size(path, error);
    if (!error) text.reserve(static_cast<size_t>(size) + kJsonReadPadding);
  }
  char chunk[1 << 16];
  while (size_t got = std::fread(chunk, 1, sizeof chunk, file.get())) text.append(chunk, got);
  if (std::ferror(file.get())) throw InputError(fmt::format("{}: cannot read the file", path));
  if (text.capacity() < text.size() + kJsonReadPadding) text.reserve(text.size() + kJsonReadPadding);
  return text;
}

LoadedPlatform load_platform_file(const std::string& path) {
  const bool xml_name = path.size() >= 4 && path.compare(path.size() - 4, 4, ".xml") == 0;
  // Plain cluster files stream into the cluster without their text; any
  // other file (it declines at once on a graph or XML) is read whole below.
  // Regular files only: a pipe read by a reader that declines could not be
  // read again.
  std::error_code regular_error;
  if (!xml_name && std::filesystem::is_regular_file(path, regular_error)) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    std::error_code size_error;
    auto size = std::filesystem::file_size(path, size_error);
    if (file) {
      if (auto cluster = read_cluster_json_stream(file.get(), path, size_error ? 0 : static_cast<size_t>(size))) {
        return LoadedPlatform{std::move(*cluster), path};
      }
    }
  }
  std::string text = read_text_file(path);
  size_t first = text.find_first_not_of(" \t\r\n");
  bool is_xml = xml_name || (first != std::string::npos && text[first] == '<');
  if (is_xml) {
    Platform platform = parse_simgrid_xml(text, path);
    platform.set_time_unit("s");  // SimGrid's latencies are seconds, its bandwidths bytes per second
    return LoadedPlatform{std::move(platform), path};
  }
  // Large clusters take the fast reader; anything it does not read goes to
  // the reference reader below, which words the errors.
  if (auto cluster = read_cluster_json_fast(text, path)) return LoadedPlatform{std::move(*cluster), path};
  return parse_platform_json(text, path);
}

Cluster parse_times_list(std::string_view list, std::string_view parameter) {
  std::vector<double> times;
  size_t position = 0;
  size_t index = 0;
  while (position <= list.size()) {
    size_t comma = list.find(',', position);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view item = list.substr(position, comma - position);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
    double value = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
      throw InputError(std::string(parameter), fmt::format("item {} (\"{}\"): not a number", index + 1, item));
    }
    if (!std::isfinite(value) || value <= 0) {
      throw InputError(std::string(parameter),
                       fmt::format("item {} ({}): must be a positive finite number", index + 1, item));
    }
    times.push_back(value);
    position = comma + 1;
    ++index;
  }
  try {
    return Cluster::from_times(std::move(times), parameter);
  } catch (const InputError& error) {  // the list as a whole: too many, too large
    std::string problem = error.what();
    const std::string prefix = std::string(parameter) + ": ";
    if (problem.rfind(prefix, 0) == 0) problem.erase(0, prefix.size());
    throw InputError(std::string(parameter), problem);
  }
}

void write_cluster_json(std::ostream& out, const Cluster& cluster) {
  out << "{\"model\": \"cluster\",";
  if (!cluster.time_unit().empty()) out << " \"units\": {\"time\": " << json(cluster.time_unit()).dump() << "},";
  out << "\n \"processors\": [";
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    out << (p ? ",\n  " : "\n  ") << "{\"id\": " << json(cluster.id(p)).dump()
        << ", \"t\": " << json(cluster.transmission_time(p)).dump() << "}";
  }
  out << "\n]}\n";
}

void write_platform_json(std::ostream& out, const Platform& platform) {
  out << "{\"model\": \"graph\", \"symmetric\": false,";
  if (!platform.time_unit().empty()) out << " \"units\": {\"time\": " << json(platform.time_unit()).dump() << "},";
  out << "\n \"nodes\": [";
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    const auto& node = platform.node(v);
    json object = {{"id", node.id}};
    if (node.speed) object["speed"] = *node.speed;
    if (node.send_overhead) object["send_overhead"] = *node.send_overhead;
    if (node.router) object["router"] = true;
    if (node.kind != NodeKind::host) object["kind"] = std::string(to_string(node.kind));
    if (node.ports != PortModel::one_port) object["ports"] = std::string(to_string(node.ports));
    if (!node.site.empty()) object["site"] = node.site;
    out << (v ? ",\n  " : "\n  ") << object.dump();
  }
  out << "\n ],\n \"edges\": [";
  bool first = true;
  for (const auto& edge : platform.edges()) {
    json object = {{"from", platform.id(edge.from)}, {"to", platform.id(edge.to)}};
    if (edge.cost) object["cost"] = *edge.cost;
    if (edge.latency) object["latency"] = *edge.latency;
    if (edge.bandwidth) object["bandwidth"] = *edge.bandwidth;
    out << (first ? "\n  " : ",\n  ") << object.dump();
    first = false;
  }
  out << "\n ]";
  if (platform.has_declared_routes()) {
    auto pairs = platform.routing()->declared_pairs();
    if (pairs.empty()) {
      // Every ordered pair of hosts: SimGrid routing computes routes on demand.
      std::vector<ProcessorIndex> hosts;
      for (ProcessorIndex v = 0; v < platform.size(); ++v) {
        if (platform.node(v).kind == NodeKind::host) hosts.push_back(v);
      }
      if (hosts.size() * hosts.size() > kMaxWrittenRoutes) {
        throw InputError(fmt::format("the platform routes {} hosts: writing a route for each of their {} pairs "
                                     "exceeds {} routes",
                                     hosts.size(), hosts.size() * (hosts.size() - 1), kMaxWrittenRoutes));
      }
      for (ProcessorIndex from : hosts) {
        for (ProcessorIndex to : hosts) {
          if (from != to) pairs.emplace_back(from, to);
        }
      }
    }
    out << ",\n \"routes\": [";
    first = true;
    for (auto [from, to] : pairs) {
      auto route = platform.declared_route(from, to);
      if (!route) continue;
      json path = json::array({platform.id(from)});
      for (size_t e : *route) path.push_back(platform.id(platform.edges()[e].to));
      json object = {{"from", platform.id(from)}, {"to", platform.id(to)}, {"path", std::move(path)}};
      out << (first ? "\n  " : ",\n  ") << object.dump();
      first = false;
    }
    out << "\n ]";
  }
  out << "}\n";
}

Cluster cluster_from_platform(const Platform& platform, std::optional<double> message_size,
                              std::string_view source_name) {
  std::vector<ProcessorIndex> participants = platform.participants();
  if (participants.empty()) {
    throw InputError(fmt::format("{}: the platform has no participants (every node is a router)", source_name));
  }
  if (participants.size() > kMaxSenderSpeedParticipants) {
    throw InputError(fmt::format("{}: the sender-speed view times a route for each ordered pair of participants; "
                                 "{} participants make {} pairs, above the limit of {} participants (plan on the "
                                 "graph, or choose fewer participants)",
                                 source_name, participants.size(),
                                 participants.size() * (participants.size() - 1), kMaxSenderSpeedParticipants));
  }
  const std::vector<double> costs = platform.edge_costs(message_size);
  std::vector<double> slowest(participants.size(), 0.0);
  for (size_t a = 0; a < participants.size(); ++a) {
    auto routes = platform.routes_from(participants[a], costs, participants);
    for (size_t b = 0; b < participants.size(); ++b) {
      if (a == b) continue;
      if (!routes[b]) {
        // A well-formed platform whose sender-speed view does not exist: no
        // schedule can carry a message from a to b (exit code 3).
        throw NoSolutionError(fmt::format(
            "{}: the sender-speed model needs every pair of participants joined, but there is no edge or route "
            "from \"{}\" to \"{}\"",
            source_name, platform.id(participants[a]), platform.id(participants[b])));
      }
      double time = platform.route_time(*routes[b], message_size);
      if (!std::isfinite(time)) {
        throw InputError(fmt::format("{}: the route from \"{}\" to \"{}\" takes an infinite time (its latencies add "
                                     "up past the largest number)",
                                     source_name, platform.id(participants[a]), platform.id(participants[b])));
      }
      slowest[a] = std::max(slowest[a], time);
    }
  }
  std::vector<std::string> ids;
  for (size_t a = 0; a < participants.size(); ++a) {
    ids.push_back(platform.id(participants[a]));
    if (participants.size() == 1) {
      slowest[a] = 1.0;  // a lone participant never sends; any positive time will do
    } else if (!(slowest[a] > 0)) {
      throw InputError(fmt::format("{}: every route from \"{}\" costs 0 (wires only): the sender-speed model needs a "
                                   "positive transmission time",
                                   source_name, ids.back()));
    }
  }
  Cluster cluster(std::move(ids), std::move(slowest), source_name);
  const bool uses_latency =
      std::any_of(platform.edges().begin(), platform.edges().end(), [](const PlatformEdge& e) { return !e.cost; });
  cluster.set_time_unit(uses_latency ? "s" : platform.time_unit());
  return cluster;
}

}  // namespace hetcoll
