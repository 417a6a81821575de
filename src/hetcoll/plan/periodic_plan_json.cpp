#include "hetcoll/plan/periodic_plan_json.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/json_field_reader_internal.h"
#include "hetcoll/plan/plan_json_fast_internal.h"
#include "hetcoll/plan/lp_certificate_json_internal.h"

namespace hetcoll {

using nlohmann::json;

bool is_steady_operation(Operation operation) {
  return operation == Operation::scatter || operation == Operation::gossip || operation == Operation::reduce ||
         operation == Operation::broadcast;
}

std::optional<SteadyOperation> steady_operation_from_string(std::string_view name) {
  for (auto operation : {SteadyOperation::scatter, SteadyOperation::gossip, SteadyOperation::reduce,
                         SteadyOperation::broadcast}) {
    if (name == to_string(operation)) return operation;
  }
  return std::nullopt;
}

std::string message_type_name(const MessageType& type, const Platform& platform) {
  const auto id = [&](ProcessorIndex v) {
    return v >= 0 && v < platform.size() ? platform.id(v) : std::string("?");
  };
  switch (type.kind) {
    case MessageType::Kind::personal: return type.source == kNoProcessor ? id(type.target) : id(type.source) + "->" + id(type.target);
    case MessageType::Kind::partial: return fmt::format("[{},{}]", type.first, type.last);
    case MessageType::Kind::broadcast: return "m";
  }
  return "?";
}

namespace {

bool fits_int64(const BigInteger& value) { return mpz_fits_slong_p(value.get_mpz_t()) != 0; }

json integer_json(const BigInteger& value) {
  if (fits_int64(value)) return json(static_cast<long long>(value.get_si()));
  return json(value.get_str());
}

json count_json(const Rational& value) {
  if (value.get_den() == 1 && fits_int64(value.get_num())) return json(static_cast<long long>(value.get_num().get_si()));
  return json(hetcoll::to_string(value));
}

json rational_json(const Rational& value) { return json(hetcoll::to_string(value)); }

// Whether the plan's "source" is the type's source (scatter: one source, so
// types name only the target).
bool single_source(SteadyOperation operation) { return operation == SteadyOperation::scatter; }

void add_type_fields(json& object, const MessageType& type, const Platform& platform, SteadyOperation operation) {
  if (type.kind == MessageType::Kind::personal && single_source(operation)) {
    object["type"] = platform.id(type.target);
    return;
  }
  object["type"] = message_type_name(type, platform);
  if (type.kind == MessageType::Kind::personal) {
    object["source"] = platform.id(type.source);
    object["target"] = platform.id(type.target);
  } else if (type.kind == MessageType::Kind::partial) {
    object["first"] = type.first;
    object["last"] = type.last;
  }
}

json node_list(const std::vector<ProcessorIndex>& nodes, const Platform& platform) {
  json list = json::array();
  for (auto v : nodes) list.push_back(platform.id(v));
  return list;
}

json computation_json(ProcessorIndex node, int first, int split, int last, const Platform& platform) {
  return {{"node", platform.id(node)}, {"task", fmt::format("[{},{},{}]", first, split, last)},
          {"first", first}, {"split", split}, {"last", last}};
}

}  // namespace

void write_periodic_plan_json(std::ostream& out, const PeriodicPlan& plan, const Platform& platform,
                              const PeriodicPlanJsonOptions& options) {
  json document;
  document["operation"] = to_string(plan.operation);
  document["algorithm"] = plan.algorithm;
  switch (plan.operation) {
    case SteadyOperation::scatter:
    case SteadyOperation::broadcast:
      document["source"] = platform.id(plan.root);
      document["targets"] = node_list(plan.targets, platform);
      break;
    case SteadyOperation::gossip:
      document["sources"] = node_list(plan.sources, platform);
      document["targets"] = node_list(plan.targets, platform);
      break;
    case SteadyOperation::reduce:
      document["root"] = platform.id(plan.root);
      document["participants"] = node_list(plan.participants, platform);
      break;
    case Operation::multicast:
    case Operation::allreduce:
    case Operation::allgather:
      break;  // makespan operations: never a periodic plan's
  }
  if (plan.message_size) document["message_size"] = *plan.message_size;
  document["throughput"] = rational_json(plan.throughput);
  document["throughput_value"] = to_double(plan.throughput);
  document["throughput_bound"] = rational_json(plan.throughput_bound);
  document["optimal"] = plan.optimal();
  document["period"] = integer_json(plan.period);
  document["operations_per_period"] = integer_json(plan.operations_per_period);
  document["split_messages"] = plan.split_messages;
  if (plan.period_limit) document["period_limit"] = integer_json(*plan.period_limit);
  if (plan.exact_period) document["exact_period"] = integer_json(*plan.exact_period);
  if (plan.loss_bound) document["loss_bound"] = rational_json(*plan.loss_bound);
  if (options.valid) document["valid"] = *options.valid;

  json slots = json::array();
  for (const auto& slot : plan.slots) {
    json transfers = json::array();
    for (const auto& transfer : slot.transfers) {
      json entry = {{"from", platform.id(transfer.from)}, {"to", platform.id(transfer.to)},
                    {"messages", count_json(transfer.messages)}};
      add_type_fields(entry, transfer.type, platform, plan.operation);
      if (transfer.tree >= 0) entry["tree"] = transfer.tree;
      transfers.push_back(std::move(entry));
    }
    slots.push_back({{"length", rational_json(slot.length)}, {"transfers", std::move(transfers)}});
  }
  document["slots"] = std::move(slots);

  json flows = json::array();
  for (const auto& flow : plan.flows) {
    json entry = {{"from", platform.id(flow.from)}, {"to", platform.id(flow.to)}, {"messages", count_json(flow.messages)}};
    add_type_fields(entry, flow.type, platform, plan.operation);
    flows.push_back(std::move(entry));
  }
  document["flows"] = std::move(flows);

  if (plan.operation == SteadyOperation::reduce || !plan.computations.empty()) {
    json computations = json::array();
    for (const auto& task : plan.computations) {
      json entry = computation_json(task.node, task.first, task.split, task.last, platform);
      entry["count"] = count_json(task.count);
      if (task.tree >= 0) entry["tree"] = task.tree;
      computations.push_back(std::move(entry));
    }
    document["computations"] = std::move(computations);
  }

  json trees = json::array();
  for (const auto& tree : plan.trees) {
    json entry = {{"weight", rational_json(tree.weight)}};
    if (tree.source != kNoProcessor) entry["source"] = platform.id(tree.source);
    json edges = json::array();
    for (const auto& edge : tree.edges) {
      json object = {{"from", platform.id(edge.from)}, {"to", platform.id(edge.to)}};
      add_type_fields(object, edge.type, platform, plan.operation);
      edges.push_back(std::move(object));
    }
    entry["edges"] = std::move(edges);
    if (!tree.computations.empty()) {
      json tasks = json::array();
      for (const auto& task : tree.computations) {
        tasks.push_back(computation_json(task.node, task.first, task.split, task.last, platform));
      }
      entry["computations"] = std::move(tasks);
    }
    trees.push_back(std::move(entry));
  }
  document["trees"] = std::move(trees);

  if (options.include_certificate && !plan.certificate.empty()) {
    document["certificate"] = lp::certificate_to_json(plan.certificate);
  }
  document["stats"] = {{"lp_rows", plan.steady_stats.lp_rows},
                       {"lp_columns", plan.steady_stats.lp_columns},
                       {"lp_nonzeros", plan.steady_stats.lp_nonzeros},
                       {"lp_method", plan.steady_stats.lp_method},
                       {"lp_floating_throughput", plan.steady_stats.lp_floating_throughput},
                       {"lp_seconds", plan.steady_stats.lp_seconds},
                       {"lp_floating_seconds", plan.steady_stats.lp_floating_seconds},
                       {"lp_exact_seconds", plan.steady_stats.lp_exact_seconds},
                       {"lp_columns_loaded", plan.steady_stats.lp_columns_loaded},
                       {"lp_generation_rounds", plan.steady_stats.lp_generation_rounds},
                       {"schedule_seconds", plan.steady_stats.schedule_seconds},
                       {"matchings", plan.steady_stats.matchings},
                       {"trees", plan.trees.size()}};
  if (!plan.steady_stats.lp_fallback_reason.empty()) document["stats"]["lp_fallback_reason"] = plan.steady_stats.lp_fallback_reason;
  std::vector<std::string> notes = plan.notes;
  if (plan.exact_period && plan.loss_bound) {
    // The rounded period, as a note too (as before the fields above existed).
    notes.insert(notes.begin(), "fixed period " + plan.period_limit.value_or(plan.period).get_str() + " instead of " +
                                    plan.exact_period->get_str() + " (Legrand, Marchal, Robert 2003 Prop. 4): throughput " +
                                    to_string(plan.throughput) + " instead of " + to_string(plan.throughput_bound) +
                                    ", lost " + to_string(plan.throughput_bound - plan.throughput) + " <= " +
                                    to_string(*plan.loss_bound));
  }
  if (!notes.empty()) document["notes"] = notes;
  for (const auto& [key, text] : options.extra_fields) document[key] = json::parse(text);
  out << document.dump() << "\n";
}

bool looks_like_periodic_plan(std::string_view text) {
  // A makespan plan of a million transfers is not built as a tree to learn
  // that it has no "period" (a false from the fast check is exact).
  if (!may_have_top_level_key(text, "period")) return false;
  const json document = json::parse(text.begin(), text.end(), nullptr, false);
  return document.is_object() && document.contains("period");
}

namespace {

class PeriodicPlanReader : public JsonFieldReader {
 public:
  PeriodicPlanReader(const Platform& platform, std::string_view source_name) : JsonFieldReader(source_name), platform_(platform) {}

  ProcessorIndex node(const json& value, const std::string& where) const {
    if (value.is_string()) {
      if (auto v = platform_.find(value.get<std::string>())) return *v;
      fail(where, "unknown node \"" + value.get<std::string>() + "\"");
    }
    if (value.is_number_integer()) {
      const auto index = value.get<long long>();
      if (index >= 0 && index < platform_.size()) return static_cast<ProcessorIndex>(index);
    }
    fail(where, "must be a node id or index");
  }

  std::vector<ProcessorIndex> nodes(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, "must be an array of node ids");
    std::vector<ProcessorIndex> result;
    for (std::size_t i = 0; i < value.size(); ++i) result.push_back(node(value[i], fmt::format("{}[{}]", where, i)));
    return result;
  }

  Rational rational(const json& value, const std::string& where) const {
    Rational result;
    if (value.is_string() && parse_rational(value.get<std::string>(), result)) return result;
    if (value.is_number_integer()) return Rational(BigInteger(std::to_string(value.get<long long>())));
    fail(where, "must be an exact number: an integer or a string such as \"7/2\"");
  }

  BigInteger integer(const json& value, const std::string& where) const {
    const Rational result = rational(value, where);
    if (result.get_den() != 1) fail(where, "must be a whole number");
    return result.get_num();
  }


  MessageType type(const json& object, SteadyOperation operation, ProcessorIndex plan_source,
                   const std::string& where) const {
    switch (operation) {
      case SteadyOperation::scatter: {
        const auto target = object.contains("target") ? node(object["target"], where + "target")
                                                      : node(require(object, "type", where), where + "type");
        return MessageType::personal(plan_source, target);
      }
      case SteadyOperation::gossip:
        return MessageType::personal(node(require(object, "source", where), where + "source"),
                                     node(require(object, "target", where), where + "target"));
      case SteadyOperation::reduce: {
        if (object.contains("first") && object.contains("last")) {
          return MessageType::partial(small_integer(object["first"], where + "first"),
                                      small_integer(object["last"], where + "last"));
        }
        const auto& name = require(object, "type", where);
        int first = -1;
        int last = -1;
        char close = 0;
        if (!name.is_string() || std::sscanf(name.get<std::string>().c_str(), "[%d,%d%c", &first, &last, &close) != 3 ||
            close != ']') {
          fail(where + "type", "must be a partial result such as \"[0,2]\"");
        }
        return MessageType::partial(first, last);
      }
      case SteadyOperation::broadcast: return MessageType::broadcast();
      case Operation::multicast:
      case Operation::allreduce:
      case Operation::allgather:
        break;  // refused by the reader before any message type is read
    }
    fail(where, "unknown operation");
  }

 private:
  const Platform& platform_;
};

// A "type" given next to the fields that define the type (source and
// target, first and last) must name the same type.
void check_stated_type(const json& object, const MessageType& type, const Platform& platform, PeriodicPlan& plan,
                       const std::string& at) {
  auto it = object.find("type");
  if (it == object.end() || !it->is_string()) return;
  const std::string expected = type.kind == MessageType::Kind::personal && single_source(plan.operation)
                                   ? platform.id(type.target)
                                   : message_type_name(type, platform);
  if (it->get<std::string>() != expected) {
    plan.stated_contradictions.push_back(fmt::format("{}type: \"{}\" is not the message type its fields name ({})", at,
                                                     it->get<std::string>(), expected));
  }
}

}  // namespace

PeriodicPlan parse_periodic_plan_json(std::string_view text, const Platform& platform, std::string_view source_name) {
  const PeriodicPlanReader reader(platform, source_name);
  json document;
  try {
    document = json::parse(text.begin(), text.end());
  } catch (const json::exception& error) {
    throw InputError(fmt::format("{}: not valid JSON: {}", source_name, error.what()));
  }
  if (!document.is_object()) reader.fail("plan", "must be a JSON object");
  try {
    PeriodicPlan plan;
    const auto& operation_name = reader.require(document, "operation", "");
    if (!operation_name.is_string()) reader.fail("operation", "must be a string");
    auto operation = steady_operation_from_string(operation_name.get<std::string>());
    if (!operation) reader.fail("operation", "must be scatter, gossip, reduce or broadcast");
    plan.operation = *operation;
    if (auto it = document.find("algorithm"); it != document.end() && it->is_string()) plan.algorithm = it->get<std::string>();
    switch (plan.operation) {
      case SteadyOperation::scatter:
      case SteadyOperation::broadcast:
        plan.root = reader.node(reader.require(document, "source", ""), "source");
        plan.targets = reader.nodes(reader.require(document, "targets", ""), "targets");
        break;
      case SteadyOperation::gossip:
        plan.sources = reader.nodes(reader.require(document, "sources", ""), "sources");
        plan.targets = reader.nodes(reader.require(document, "targets", ""), "targets");
        break;
      case SteadyOperation::reduce:
        plan.root = reader.node(reader.require(document, "root", ""), "root");
        plan.participants = reader.nodes(reader.require(document, "participants", ""), "participants");
        break;
      case Operation::multicast:
      case Operation::allreduce:
      case Operation::allgather:
        break;  // steady_operation_from_string never gives them
    }
    if (auto it = document.find("message_size"); it != document.end()) {
      if (!it->is_number() || !(it->get<double>() > 0)) reader.fail("message_size", "must be a positive number");
      plan.message_size = it->get<double>();
    }
    plan.throughput = reader.rational(reader.require(document, "throughput", ""), "throughput");
    plan.throughput_bound = document.contains("throughput_bound")
                                ? reader.rational(document["throughput_bound"], "throughput_bound")
                                : plan.throughput;
    if (auto it = document.find("optimal"); it != document.end()) {
      if (!it->is_boolean()) reader.fail("optimal", "must be true or false");
      plan.claimed_optimal = it->get<bool>();
    }
    if (auto it = document.find("throughput_value"); it != document.end()) {
      if (!it->is_number()) reader.fail("throughput_value", "must be a number");
      const double stated = it->get<double>();
      const double exact = to_double(plan.throughput);
      if (!(std::fabs(stated - exact) <= 1e-9 * std::fabs(exact))) {
        plan.stated_contradictions.push_back(fmt::format(
            "throughput_value: {} is not the plan's throughput {} (= {})", stated, to_string(plan.throughput), exact));
      }
    }
    plan.period = reader.integer(reader.require(document, "period", ""), "period");
    plan.operations_per_period =
        document.contains("operations_per_period")
            ? reader.integer(document["operations_per_period"], "operations_per_period")
            : floor_of(plan.throughput * Rational(plan.period));
    if (auto it = document.find("split_messages"); it != document.end()) {
      if (!it->is_boolean()) reader.fail("split_messages", "must be true or false");
      plan.split_messages = it->get<bool>();
    }
    if (auto it = document.find("period_limit"); it != document.end()) plan.period_limit = reader.integer(*it, "period_limit");
    if (auto it = document.find("exact_period"); it != document.end()) plan.exact_period = reader.integer(*it, "exact_period");
    if (auto it = document.find("loss_bound"); it != document.end()) plan.loss_bound = reader.rational(*it, "loss_bound");

    const auto& slots = reader.require(document, "slots", "");
    if (!slots.is_array()) reader.fail("slots", "must be an array");
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const std::string where = fmt::format("slots[{}].", s);
      const auto& entry = slots[s];
      if (!entry.is_object()) reader.fail(where, "must be an object");
      Slot slot;
      slot.length = reader.rational(reader.require(entry, "length", where), where + "length");
      const auto& transfers = reader.require(entry, "transfers", where);
      if (!transfers.is_array()) reader.fail(where + "transfers", "must be an array");
      for (std::size_t t = 0; t < transfers.size(); ++t) {
        const std::string at = fmt::format("{}transfers[{}].", where, t);
        const auto& object = transfers[t];
        if (!object.is_object()) reader.fail(at, "must be an object");
        PeriodicTransfer transfer;
        transfer.from = reader.node(reader.require(object, "from", at), at + "from");
        transfer.to = reader.node(reader.require(object, "to", at), at + "to");
        transfer.messages = reader.rational(reader.require(object, "messages", at), at + "messages");
        transfer.type = reader.type(object, plan.operation, plan.root, at);
        check_stated_type(object, transfer.type, platform, plan, at);
        if (object.contains("tree")) transfer.tree = reader.small_integer(object["tree"], at + "tree");
        slot.transfers.push_back(transfer);
      }
      plan.slots.push_back(std::move(slot));
    }
    if (auto it = document.find("flows"); it != document.end()) {
      if (!it->is_array()) reader.fail("flows", "must be an array");
      for (std::size_t f = 0; f < it->size(); ++f) {
        const std::string at = fmt::format("flows[{}].", f);
        const auto& object = (*it)[f];
        if (!object.is_object()) reader.fail(at, "must be an object");
        Flow flow;
        flow.from = reader.node(reader.require(object, "from", at), at + "from");
        flow.to = reader.node(reader.require(object, "to", at), at + "to");
        flow.messages = reader.rational(reader.require(object, "messages", at), at + "messages");
        flow.type = reader.type(object, plan.operation, plan.root, at);
        check_stated_type(object, flow.type, platform, plan, at);
        plan.flows.push_back(flow);
      }
    }
    const auto read_task = [&](const json& object, const std::string& at) {
      TreeTask task;
      task.node = reader.node(reader.require(object, "node", at), at + "node");
      task.first = reader.small_integer(reader.require(object, "first", at), at + "first");
      task.split = reader.small_integer(reader.require(object, "split", at), at + "split");
      task.last = reader.small_integer(reader.require(object, "last", at), at + "last");
      return task;
    };
    if (auto it = document.find("computations"); it != document.end()) {
      if (!it->is_array()) reader.fail("computations", "must be an array");
      for (std::size_t c = 0; c < it->size(); ++c) {
        const std::string at = fmt::format("computations[{}].", c);
        const auto& object = (*it)[c];
        if (!object.is_object()) reader.fail(at, "must be an object");
        const auto task = read_task(object, at);
        Computation computation{task.node, task.first, task.split, task.last,
                                reader.rational(reader.require(object, "count", at), at + "count"), -1};
        if (object.contains("tree")) computation.tree = reader.small_integer(object["tree"], at + "tree");
        plan.computations.push_back(computation);
      }
    }
    if (auto it = document.find("trees"); it != document.end()) {
      if (!it->is_array()) reader.fail("trees", "must be an array");
      for (std::size_t t = 0; t < it->size(); ++t) {
        const std::string at = fmt::format("trees[{}].", t);
        const auto& object = (*it)[t];
        if (!object.is_object()) reader.fail(at, "must be an object");
        WeightedTree tree;
        tree.weight = reader.rational(reader.require(object, "weight", at), at + "weight");
        if (object.contains("source")) tree.source = reader.node(object["source"], at + "source");
        const auto& edges = reader.require(object, "edges", at);
        if (!edges.is_array()) reader.fail(at + "edges", "must be an array");
        for (std::size_t e = 0; e < edges.size(); ++e) {
          const std::string edge_at = fmt::format("{}edges[{}].", at, e);
          const auto& edge = edges[e];
          if (!edge.is_object()) reader.fail(edge_at, "must be an object");
          TreeEdge tree_edge;
          tree_edge.from = reader.node(reader.require(edge, "from", edge_at), edge_at + "from");
          tree_edge.to = reader.node(reader.require(edge, "to", edge_at), edge_at + "to");
          tree_edge.type = reader.type(edge, plan.operation, plan.root, edge_at);
          tree.edges.push_back(tree_edge);
        }
        if (auto tasks = object.find("computations"); tasks != object.end()) {
          if (!tasks->is_array()) reader.fail(at + "computations", "must be an array");
          for (std::size_t c = 0; c < tasks->size(); ++c) {
            const std::string task_at = fmt::format("{}computations[{}].", at, c);
            if (!(*tasks)[c].is_object()) reader.fail(task_at, "must be an object");
            tree.computations.push_back(read_task((*tasks)[c], task_at));
          }
        }
        plan.trees.push_back(std::move(tree));
      }
    }
    if (auto it = document.find("certificate"); it != document.end()) {
      plan.certificate = lp::certificate_from_json(*it, fmt::format("{}: certificate", source_name));
    }
    return plan;
  } catch (const json::exception& error) {
    throw InputError(fmt::format("{}: malformed plan: {}", source_name, error.what()));
  }
}

}  // namespace hetcoll
