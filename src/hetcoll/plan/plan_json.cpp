#include "hetcoll/plan/plan_json.h"

#include <cmath>
#include <functional>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/core/json_input_internal.h"
#include "hetcoll/plan/plan_json_fast_internal.h"

namespace hetcoll {

using nlohmann::json;

std::string json_quote(std::string_view text) { return json(std::string(text)).dump(); }

namespace {

// json_quote into a buffer: printable ASCII without '"' or '\\' is copied
// between quotes (every generated id); anything else goes through the JSON
// library so that escapes and UTF-8 checks stay in one place.
void append_json_string(fmt::memory_buffer& buffer, std::string_view text) {
  bool plain = true;
  for (char c : text) plain = plain && c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  if (plain) {
    buffer.push_back('"');
    buffer.append(text);
    buffer.push_back('"');
  } else {
    std::string quoted = json_quote(text);
    buffer.append(std::string_view(quoted));
  }
}

}  // namespace

namespace {

const char* guarantee_kind(Guarantee::Kind kind) {
  switch (kind) {
    case Guarantee::Kind::exact: return "exact";
    case Guarantee::Kind::ratio: return "ratio";
    case Guarantee::Kind::heuristic: return "heuristic";
  }
  return "?";
}

// Shortest decimal that reads back to the same double.
std::string number(double value) { return fmt::format("{}", value); }

// What a plan's processor indices name: a cluster's processors, or a
// platform's nodes (then routes are written too).
struct PlanNodes {
  ProcessorIndex count = 0;
  std::function<std::string_view(ProcessorIndex)> id;
  std::function<std::optional<ProcessorIndex>(std::string_view)> find;
  FindAllProcessors find_all;  // find for many ids at once (kNoProcessor: none)
  const Platform* platform = nullptr;
  ProcessorIndex participant_count = 0;
  std::string time_unit;
};

PlanNodes nodes_of(const Cluster& cluster) {
  return {cluster.size(), [&cluster](ProcessorIndex p) -> std::string_view { return cluster.id(p); },
          [&cluster](std::string_view key) { return cluster.find(key); },
          [&cluster](std::span<const std::string_view> keys, std::span<ProcessorIndex> found) {
            cluster.find_all(keys, found);
          },
          nullptr, cluster.size(), cluster.time_unit()};
}

PlanNodes nodes_of(const Platform& platform) {
  ProcessorIndex participants = 0;
  for (const auto& node : platform.nodes()) participants += node.router ? 0 : 1;
  return {platform.size(), [&platform](ProcessorIndex p) -> std::string_view { return platform.id(p); },
          [&platform](std::string_view key) { return platform.find(key); },
          [&platform](std::span<const std::string_view> keys, std::span<ProcessorIndex> found) {
            for (std::size_t i = 0; i < keys.size(); ++i) found[i] = platform.find(keys[i]).value_or(kNoProcessor);
          },
          &platform, participants, platform.time_unit()};
}

void write_plan(std::ostream& out, const MakespanPlan& plan, const PlanNodes& nodes, const PlanJsonOptions& options) {
  fmt::memory_buffer buffer;
  auto append_id = [&](ProcessorIndex p) {
    if (p >= 0 && p < nodes.count) {
      append_json_string(buffer, nodes.id(p));
    } else {
      buffer.append(std::string_view("null"));
    }
  };
  auto id = [&](ProcessorIndex p) {
    return (p >= 0 && p < nodes.count) ? json_quote(nodes.id(p)) : std::string("null");
  };
  auto flush = [&] {
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    buffer.clear();
  };
#define emit(...) fmt::format_to(std::back_inserter(buffer), __VA_ARGS__)

  emit("{{\"operation\": \"{}\", \"algorithm\": {}, ", to_string(plan.operation), json_quote(plan.algorithm));
  emit("\"{}\": {}, ", plan.operation == Operation::reduce || plan.operation == Operation::allreduce ? "root" : "source",
       id(plan.root));
  emit("\"model\": \"{}\", ", to_string(plan.model));
  if (plan.message_size) emit("\"message_size\": {}, ", number(*plan.message_size));
  emit("\"processors\": {}, ", nodes.participant_count);
  if (nodes.participant_count != nodes.count) emit("\"routers\": {}, ", nodes.count - nodes.participant_count);
  if (plan.operation == Operation::multicast) {
    emit("\"targets\": [");
    for (size_t i = 0; i < plan.targets.size(); ++i) emit("{}{}", i ? ", " : "", id(plan.targets[i]));
    emit("], \"helpers\": [");
    for (size_t i = 0; i < plan.helpers.size(); ++i) emit("{}{}", i ? ", " : "", id(plan.helpers[i]));
    emit("], ");
  }
  if (!nodes.time_unit.empty()) emit("\"time_unit\": {}, ", json_quote(nodes.time_unit));
  emit("\"makespan\": {}, \"lower_bound\": {}, \"optimal\": {}, ", number(plan.makespan), number(plan.lower_bound),
       plan.optimal ? "true" : "false");
  if (!plan.optimality_proof.empty()) emit("\"optimality_proof\": {}, ", json_quote(plan.optimality_proof));
  if (!plan.claims_scope.empty()) emit("\"claims_hold_for\": {}, ", json_quote(plan.claims_scope));
  emit("\"guarantee\": {}, \"guarantee_kind\": \"{}\", ", json_quote(plan.guarantee.text),
       guarantee_kind(plan.guarantee.kind));
  if (plan.guarantee.kind == Guarantee::Kind::ratio) emit("\"guarantee_ratio\": {}, ", number(plan.guarantee.ratio));
  if (options.valid) emit("\"valid\": {}, ", *options.valid ? "true" : "false");
  emit("\"status\": \"{}\", ", to_string(plan.status));
  if (plan.limit_reached()) emit("\"limit_reached\": true, ");
  if (!plan.notes.empty()) {
    emit("\"notes\": [");
    for (size_t i = 0; i < plan.notes.size(); ++i) emit("{}{}", i ? ", " : "", json_quote(plan.notes[i]));
    emit("], ");
  }
  emit("\"stats\": {{\"nodes\": {}, \"table_references\": {}, \"seconds\": {}}}", plan.stats.nodes,
       plan.stats.table_references, number(plan.stats.seconds));
  if (options.include_transfers) {
    emit(",\n \"transfers\": [");
    bool first = true;
    // A million transfers: compile-time formats, ids and numbers written
    // straight into the buffer (no temporary string per value).
    for (const auto& transfer : plan.transfers) {
      buffer.append(std::string_view(first ? "\n  {\"from\": " : ",\n  {\"from\": "));
      append_id(transfer.from);
      buffer.append(std::string_view(", \"to\": "));
      append_id(transfer.to);
      fmt::format_to(fmt::appender(buffer), FMT_COMPILE(", \"start\": {}, \"end\": {}, \"payload\": \"{}\""),
                     transfer.start, transfer.end, to_string(transfer.payload));
      if (nodes.platform && !transfer.route.empty()) {
        const auto& edges = nodes.platform->edges();
        buffer.append(std::string_view(", \"route\": ["));
        append_id(edges[transfer.route.front()].from);
        for (auto e : transfer.route) {
          buffer.append(std::string_view(", "));
          append_id(edges[e].to);
        }
        buffer.push_back(']');
      }
      buffer.push_back('}');
      first = false;
      if (buffer.size() > (1 << 16)) flush();
    }
    emit("\n ]");
  }
  emit("}}\n");
#undef emit
  flush();
}

}  // namespace

void write_plan_json(std::ostream& out, const MakespanPlan& plan, const Cluster& cluster,
                     const PlanJsonOptions& options) {
  write_plan(out, plan, nodes_of(cluster), options);
}

void write_plan_json(std::ostream& out, const MakespanPlan& plan, const Platform& platform,
                     const PlanJsonOptions& options) {
  write_plan(out, plan, nodes_of(platform), options);
}

namespace {

// `field()` names the field in messages; it is called only for one, so
// reading a million transfers builds no strings.
template <class FieldName>
ProcessorIndex read_processor_named_by(const json& value, const PlanNodes& nodes, std::string_view source,
                              const FieldName& field) {
  std::optional<ProcessorIndex> found;
  std::string number;
  if (value.is_string()) {
    found = nodes.find(value.get_ref<const std::string&>());
  } else if (value.is_number_integer()) {
    number = std::to_string(value.get<long long>());
    found = nodes.find(number);
  } else {
    throw InputError(fmt::format("{}: {}: must be a processor id, got {}", source, field(), value.type_name()));
  }
  if (!found) {
    throw InputError(fmt::format("{}: {}: unknown processor \"{}\"", source, field(),
                                 value.is_string() ? value.get_ref<const std::string&>() : number));
  }
  return *found;
}

ProcessorIndex read_processor(const json& value, const PlanNodes& nodes, std::string_view source,
                              std::string_view field) {
  return read_processor_named_by(value, nodes, source, [field] { return std::string(field); });
}

template <class Where>
double read_time(const json& object, const char* key, std::string_view source, const Where& where) {
  auto it = object.find(key);
  if (it == object.end()) throw InputError(fmt::format("{}: {}{}: missing", source, where(), key));
  if (!it->is_number()) throw InputError(fmt::format("{}: {}{}: must be a number", source, where(), key));
  double value = it->get<double>();
  if (!std::isfinite(value)) throw InputError(fmt::format("{}: {}{}: must be finite", source, where(), key));
  return value;
}

// The edge a route takes from `a` to `b`: the cheapest for the message size
// (the lowest index among equals, as the route search takes it).
std::optional<std::size_t> edge_between(const Platform& platform, ProcessorIndex a, ProcessorIndex b,
                                        std::optional<double> message_size) {
  std::optional<std::size_t> best;
  double best_cost = 0;
  for (auto e : platform.out_edges(a)) {
    const auto& edge = platform.edges()[e];
    if (edge.to != b) continue;
    const double cost = (edge.cost || message_size) ? edge.message_time(message_size) : 0.0;
    if (!best || cost < best_cost) {
      best = e;
      best_cost = cost;
    }
  }
  return best;
}

json parse_document(std::string_view text, std::string_view source_name) {
  try {
    return parse_json_rejecting_duplicate_keys(text, source_name);
  } catch (const json::parse_error& error) {
    throw InputError(fmt::format("{}: malformed JSON: {}", source_name, error.what()));
  } catch (const json::exception& error) {  // e.g. a number beyond the range of a double
    throw InputError(fmt::format("{}: unreadable JSON: {}", source_name, error.what()));
  }
}

const char* root_key_of(Operation operation) {
  return (operation == Operation::reduce || operation == Operation::allreduce) ? "root" : "source";
}

Payload default_payload(Operation operation) {
  return operation == Operation::reduce ? Payload::partial_reduction : Payload::broadcast_value;
}

// Everything but the transfers: the operation, the source or root, the
// model and the claims, checked field by field.
MakespanPlan read_header(const json& document, const PlanNodes& nodes, std::string_view source_name) {
  if (!document.is_object()) throw InputError(fmt::format("{}: the plan must be a JSON object", source_name));
  MakespanPlan plan;
  auto operation = document.find("operation");
  if (operation == document.end() || !operation->is_string()) {
    throw InputError(fmt::format("{}: operation: missing or not a string", source_name));
  }
  auto op = operation_from_string(operation->get<std::string>());
  if (op && !is_makespan_operation(*op)) op.reset();  // scatter and gossip plans are periodic plans
  if (!op) throw InputError(fmt::format("{}: operation: unknown operation \"{}\"", source_name, operation->get<std::string>()));
  plan.operation = *op;
  if (auto it = document.find("algorithm"); it != document.end() && it->is_string()) plan.algorithm = it->get<std::string>();
  if (auto it = document.find("model"); it != document.end()) {
    auto model = it->is_string() ? plan_model_from_string(it->get<std::string>()) : std::nullopt;
    if (model && !is_makespan_model(*model)) model.reset();
    if (!model) {
      throw InputError(fmt::format("{}: model: must be \"sender-speed\", \"graph\" or \"eager\"", source_name));
    }
    plan.model = *model;
  } else if (nodes.platform) {
    plan.model = PlanModel::platform_graph;
  }
  if (auto it = document.find("message_size"); it != document.end() && !it->is_null()) {
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>())) {
      throw InputError(fmt::format("{}: message_size: must be a positive number of bytes", source_name));
    }
    plan.message_size = it->get<double>();
  }
  const char* root_key = root_key_of(plan.operation);
  if (auto it = document.find(root_key); it != document.end() && !it->is_null()) {
    plan.root = read_processor(*it, nodes, source_name, root_key);
  }
  if (auto it = document.find("targets"); it != document.end()) {
    if (!it->is_array()) throw InputError(fmt::format("{}: targets: must be an array", source_name));
    for (size_t i = 0; i < it->size(); ++i) {
      plan.targets.push_back(read_processor((*it)[i], nodes, source_name, fmt::format("targets[{}]", i)));
    }
  }
  if (auto it = document.find("helpers"); it != document.end()) {
    if (!it->is_array()) throw InputError(fmt::format("{}: helpers: must be an array", source_name));
    plan.stated_helpers = true;
    for (size_t i = 0; i < it->size(); ++i) {
      plan.helpers.push_back(read_processor((*it)[i], nodes, source_name, fmt::format("helpers[{}]", i)));
    }
  }
  if (auto it = document.find("processors"); it != document.end()) {
    if (!it->is_number_integer()) throw InputError(fmt::format("{}: processors: must be a whole number", source_name));
    plan.stated_processors = it->get<std::int64_t>();
  }
  if (auto it = document.find("time_unit"); it != document.end()) {
    if (!it->is_string()) throw InputError(fmt::format("{}: time_unit: must be a string", source_name));
    plan.stated_time_unit = it->get<std::string>();
  }
  // The claims: a plan states its makespan; the rest is optional, but
  // whatever is given must be well-formed (verify/ then checks it).
  auto number_field = [&](const char* key) -> std::optional<double> {
    auto it = document.find(key);
    if (it == document.end()) return std::nullopt;
    if (!it->is_number()) throw InputError(fmt::format("{}: {}: must be a number, got {}", source_name, key, it->type_name()));
    return it->get<double>();
  };
  auto makespan = number_field("makespan");
  if (!makespan) {
    throw InputError(fmt::format("{}: makespan: missing (a plan states its makespan; verify/ checks it)", source_name));
  }
  plan.makespan = *makespan;
  plan.lower_bound = number_field("lower_bound").value_or(0.0);
  if (auto it = document.find("optimal"); it != document.end()) {
    if (!it->is_boolean()) throw InputError(fmt::format("{}: optimal: must be true or false", source_name));
    plan.optimal = it->get<bool>();
  }
  if (auto it = document.find("optimality_proof"); it != document.end() && it->is_string()) {
    plan.optimality_proof = it->get<std::string>();
  }
  if (auto it = document.find("guarantee"); it != document.end() && it->is_string()) plan.guarantee.text = it->get<std::string>();
  if (auto it = document.find("guarantee_kind"); it != document.end()) {
    const std::string kind = it->is_string() ? it->get<std::string>() : "";
    if (kind == "exact") plan.guarantee.kind = Guarantee::Kind::exact;
    else if (kind == "ratio") plan.guarantee.kind = Guarantee::Kind::ratio;
    else if (kind == "heuristic") plan.guarantee.kind = Guarantee::Kind::heuristic;
    else throw InputError(fmt::format("{}: guarantee_kind: must be \"exact\", \"ratio\" or \"heuristic\"", source_name));
  }
  if (auto ratio = number_field("guarantee_ratio")) {
    if (document.find("guarantee_kind") == document.end()) plan.guarantee.kind = Guarantee::Kind::ratio;
    plan.guarantee.ratio = *ratio;
  }
  if (auto it = document.find("status"); it != document.end()) {
    auto status = it->is_string() ? search_status_from_string(it->get<std::string>()) : std::nullopt;
    if (!status) {
      throw InputError(fmt::format(
          "{}: status: must be \"finished\", \"node_limit\", \"time_limit\", \"stopped\" or \"refused\"", source_name));
    }
    plan.status = *status;
  }
  return plan;
}

// The reference reader: the whole document as a tree (parse_document),
// every transfer checked in order with a message naming its field.
MakespanPlan parse_plan(std::string_view text, const PlanNodes& nodes, std::string_view source_name) {
  const json document = parse_document(text, source_name);
  MakespanPlan plan = read_header(document, nodes, source_name);
  const char* root_key = root_key_of(plan.operation);
  auto transfers = document.find("transfers");
  if (transfers == document.end() || !transfers->is_array()) {
    throw InputError(fmt::format("{}: transfers: missing or not an array", source_name));
  }
  plan.transfers.reserve(transfers->size());
  for (size_t i = 0; i < transfers->size(); ++i) {
    const json& item = (*transfers)[i];
    const auto where = [i] { return fmt::format("transfers[{}].", i); };
    if (!item.is_object()) throw InputError(fmt::format("{}: transfers[{}]: must be an object", source_name, i));
    Transfer transfer;
    auto from = item.find("from");
    auto to = item.find("to");
    if (from == item.end()) throw InputError(fmt::format("{}: {}from: missing", source_name, where()));
    if (to == item.end()) throw InputError(fmt::format("{}: {}to: missing", source_name, where()));
    transfer.from = read_processor_named_by(*from, nodes, source_name, [&] { return where() + "from"; });
    transfer.to = read_processor_named_by(*to, nodes, source_name, [&] { return where() + "to"; });
    transfer.start = read_time(item, "start", source_name, where);
    transfer.end = read_time(item, "end", source_name, where);
    if (auto payload = item.find("payload"); payload != item.end()) {
      auto parsed = payload->is_string() ? payload_from_string(payload->get<std::string>()) : std::nullopt;
      if (!parsed) throw InputError(fmt::format("{}: {}payload: must be \"value\" or \"partial\"", source_name, where()));
      transfer.payload = *parsed;
    } else {
      transfer.payload = default_payload(plan.operation);
    }
    if (auto route = item.find("route"); route != item.end()) {
      if (!nodes.platform) {
        throw InputError(fmt::format("{}: {}route: routes belong to platform graphs, not to clusters", source_name,
                                     where()));
      }
      if (!route->is_array() || route->size() < 2) {
        throw InputError(fmt::format("{}: {}route: must list the nodes from the sender to the receiver", source_name,
                                     where()));
      }
      std::vector<ProcessorIndex> path;
      for (size_t k = 0; k < route->size(); ++k) {
        path.push_back(read_processor((*route)[k], nodes, source_name, fmt::format("{}route[{}]", where(), k)));
      }
      if (path.front() != transfer.from || path.back() != transfer.to) {
        throw InputError(fmt::format("{}: {}route: must start at \"from\" and end at \"to\"", source_name, where()));
      }
      for (size_t k = 0; k + 1 < path.size(); ++k) {
        auto edge = edge_between(*nodes.platform, path[k], path[k + 1], plan.message_size);
        if (!edge) {
          throw InputError(fmt::format("{}: {}route: the platform has no edge from \"{}\" to \"{}\"", source_name,
                                       where(), nodes.id(path[k]), nodes.id(path[k + 1])));
        }
        transfer.route.push_back(*edge);
      }
    }
    plan.transfers.push_back(std::move(transfer));
  }
  if (plan.root == kNoProcessor) {
    throw InputError(fmt::format("{}: {}: missing", source_name, root_key));
  }
  return plan;
}

// The fast path: the transfers read without a document tree
// (plan_json_fast_internal.h), the header by read_header. It declines
// (std::nullopt) whenever the reference reader might say anything else, so
// every message comes from parse_plan.
std::optional<MakespanPlan> parse_plan_fast(std::string_view text, const PlanNodes& nodes,
                                            std::string_view source_name) {
  std::optional<FastPlanTransfers> read = read_plan_transfers_fast(text, nodes.find_all);
  if (!read) return std::nullopt;
  MakespanPlan plan;
  try {
    plan = read_header(parse_json_rejecting_duplicate_keys(read->header, source_name), nodes, source_name);
  } catch (const InputError&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  const bool has_routes = !read->route_begin.empty();
  if (plan.root == kNoProcessor || (has_routes && !nodes.platform)) return std::nullopt;
  plan.transfers = std::move(read->transfers);
  const Payload payload = default_payload(plan.operation);
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    Transfer& transfer = plan.transfers[i];
    if (!read->payload_given[i]) transfer.payload = payload;
    if (!has_routes || read->route_begin[i] == read->route_begin[i + 1]) continue;
    const ProcessorIndex* path = read->route_nodes.data() + read->route_begin[i];
    const std::size_t length = read->route_begin[i + 1] - read->route_begin[i];
    if (path[0] != transfer.from || path[length - 1] != transfer.to) return std::nullopt;
    for (std::size_t k = 0; k + 1 < length; ++k) {
      auto edge = edge_between(*nodes.platform, path[k], path[k + 1], plan.message_size);
      if (!edge) return std::nullopt;
      transfer.route.push_back(*edge);
    }
  }
  return plan;
}

MakespanPlan read_plan(std::string_view text, const PlanNodes& nodes, std::string_view source_name) {
  if (std::optional<MakespanPlan> plan = parse_plan_fast(text, nodes, source_name)) return std::move(*plan);
  return parse_plan(text, nodes, source_name);
}

}  // namespace

MakespanPlan parse_plan_json(std::string_view text, const Cluster& cluster, std::string_view source_name) {
  return read_plan(text, nodes_of(cluster), source_name);
}

MakespanPlan parse_plan_json(std::string_view text, const Platform& platform, std::string_view source_name) {
  return read_plan(text, nodes_of(platform), source_name);
}

MakespanPlan parse_plan_json_reference(std::string_view text, const Cluster& cluster, std::string_view source_name) {
  return parse_plan(text, nodes_of(cluster), source_name);
}

MakespanPlan parse_plan_json_reference(std::string_view text, const Platform& platform, std::string_view source_name) {
  return parse_plan(text, nodes_of(platform), source_name);
}

}  // namespace hetcoll
