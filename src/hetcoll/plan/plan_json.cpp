#include "hetcoll/plan/plan_json.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/core/json_input_internal.h"

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

}  // namespace

void write_plan_json(std::ostream& out, const MakespanPlan& plan, const Cluster& cluster,
                     const PlanJsonOptions& options) {
  fmt::memory_buffer buffer;
  auto append_id = [&](ProcessorIndex p) {
    if (p >= 0 && p < cluster.size()) {
      append_json_string(buffer, cluster.id(p));
    } else {
      buffer.append(std::string_view("null"));
    }
  };
  auto id = [&](ProcessorIndex p) {
    return (p >= 0 && p < cluster.size()) ? json_quote(cluster.id(p)) : std::string("null");
  };
  auto flush = [&] {
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    buffer.clear();
  };
#define emit(...) fmt::format_to(std::back_inserter(buffer), __VA_ARGS__)

  emit("{{\"operation\": \"{}\", \"algorithm\": {}, ", to_string(plan.operation), json_quote(plan.algorithm));
  emit("\"{}\": {}, ", plan.operation == Operation::reduce || plan.operation == Operation::allreduce ? "root" : "source",
       id(plan.root));
  emit("\"processors\": {}, ", cluster.size());
  if (plan.operation == Operation::multicast) {
    emit("\"targets\": [");
    for (size_t i = 0; i < plan.targets.size(); ++i) emit("{}{}", i ? ", " : "", id(plan.targets[i]));
    emit("], \"helpers\": [");
    for (size_t i = 0; i < plan.helpers.size(); ++i) emit("{}{}", i ? ", " : "", id(plan.helpers[i]));
    emit("], ");
  }
  if (!cluster.time_unit().empty()) emit("\"time_unit\": {}, ", json_quote(cluster.time_unit()));
  emit("\"makespan\": {}, \"lower_bound\": {}, \"optimal\": {}, ", number(plan.makespan), number(plan.lower_bound),
       plan.optimal ? "true" : "false");
  if (!plan.optimality_proof.empty()) emit("\"optimality_proof\": {}, ", json_quote(plan.optimality_proof));
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
      fmt::format_to(fmt::appender(buffer), FMT_COMPILE(", \"start\": {}, \"end\": {}, \"payload\": \"{}\"}}"),
                     transfer.start, transfer.end, to_string(transfer.payload));
      first = false;
      if (buffer.size() > (1 << 16)) flush();
    }
    emit("\n ]");
  }
  emit("}}\n");
#undef emit
  flush();
}

namespace {

ProcessorIndex read_processor(const json& value, const Cluster& cluster, std::string_view source,
                              std::string_view field) {
  std::string key;
  if (value.is_string()) {
    key = value.get<std::string>();
  } else if (value.is_number_integer()) {
    key = std::to_string(value.get<long long>());
  } else {
    throw InputError(fmt::format("{}: {}: must be a processor id, got {}", source, field, value.type_name()));
  }
  auto found = cluster.find(key);
  if (!found) throw InputError(fmt::format("{}: {}: unknown processor \"{}\"", source, field, key));
  return *found;
}

double read_time(const json& object, const char* key, std::string_view source, std::string_view where) {
  auto it = object.find(key);
  if (it == object.end()) throw InputError(fmt::format("{}: {}{}: missing", source, where, key));
  if (!it->is_number()) throw InputError(fmt::format("{}: {}{}: must be a number", source, where, key));
  double value = it->get<double>();
  if (!std::isfinite(value)) throw InputError(fmt::format("{}: {}{}: must be finite", source, where, key));
  return value;
}

}  // namespace

MakespanPlan parse_plan_json(std::string_view text, const Cluster& cluster, std::string_view source_name) {
  json document;
  try {
    document = parse_json_rejecting_duplicate_keys(text, source_name);
  } catch (const json::parse_error& error) {
    throw InputError(fmt::format("{}: malformed JSON: {}", source_name, error.what()));
  } catch (const json::exception& error) {  // e.g. a number beyond the range of a double
    throw InputError(fmt::format("{}: unreadable JSON: {}", source_name, error.what()));
  }
  if (!document.is_object()) throw InputError(fmt::format("{}: the plan must be a JSON object", source_name));
  MakespanPlan plan;
  auto operation = document.find("operation");
  if (operation == document.end() || !operation->is_string()) {
    throw InputError(fmt::format("{}: operation: missing or not a string", source_name));
  }
  auto op = operation_from_string(operation->get<std::string>());
  if (!op) throw InputError(fmt::format("{}: operation: unknown operation \"{}\"", source_name, operation->get<std::string>()));
  plan.operation = *op;
  if (auto it = document.find("algorithm"); it != document.end() && it->is_string()) plan.algorithm = it->get<std::string>();
  const char* root_key = (plan.operation == Operation::reduce || plan.operation == Operation::allreduce) ? "root" : "source";
  if (auto it = document.find(root_key); it != document.end() && !it->is_null()) {
    plan.root = read_processor(*it, cluster, source_name, root_key);
  }
  if (auto it = document.find("targets"); it != document.end()) {
    if (!it->is_array()) throw InputError(fmt::format("{}: targets: must be an array", source_name));
    for (size_t i = 0; i < it->size(); ++i) {
      plan.targets.push_back(read_processor((*it)[i], cluster, source_name, fmt::format("targets[{}]", i)));
    }
  }
  if (auto it = document.find("helpers"); it != document.end() && it->is_array()) {
    for (size_t i = 0; i < it->size(); ++i) {
      plan.helpers.push_back(read_processor((*it)[i], cluster, source_name, fmt::format("helpers[{}]", i)));
    }
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
  auto transfers = document.find("transfers");
  if (transfers == document.end() || !transfers->is_array()) {
    throw InputError(fmt::format("{}: transfers: missing or not an array", source_name));
  }
  plan.transfers.reserve(transfers->size());
  for (size_t i = 0; i < transfers->size(); ++i) {
    const json& item = (*transfers)[i];
    std::string where = fmt::format("transfers[{}].", i);
    if (!item.is_object()) throw InputError(fmt::format("{}: transfers[{}]: must be an object", source_name, i));
    Transfer transfer;
    auto from = item.find("from");
    auto to = item.find("to");
    if (from == item.end()) throw InputError(fmt::format("{}: {}from: missing", source_name, where));
    if (to == item.end()) throw InputError(fmt::format("{}: {}to: missing", source_name, where));
    transfer.from = read_processor(*from, cluster, source_name, where + "from");
    transfer.to = read_processor(*to, cluster, source_name, where + "to");
    transfer.start = read_time(item, "start", source_name, where);
    transfer.end = read_time(item, "end", source_name, where);
    if (auto payload = item.find("payload"); payload != item.end()) {
      auto parsed = payload->is_string() ? payload_from_string(payload->get<std::string>()) : std::nullopt;
      if (!parsed) throw InputError(fmt::format("{}: {}payload: must be \"value\" or \"partial\"", source_name, where));
      transfer.payload = *parsed;
    } else {
      transfer.payload = plan.operation == Operation::reduce ? Payload::partial_reduction : Payload::broadcast_value;
    }
    plan.transfers.push_back(transfer);
  }
  if (plan.root == kNoProcessor) {
    throw InputError(fmt::format("{}: {}: missing", source_name, root_key));
  }
  return plan;
}

}  // namespace hetcoll
