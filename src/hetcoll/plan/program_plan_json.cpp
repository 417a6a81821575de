#include "hetcoll/plan/program_plan_json.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/json_field_reader_internal.h"
#include "hetcoll/core/json_input_internal.h"
#include "hetcoll/plan/plan_json_fast_internal.h"

namespace hetcoll {

using nlohmann::json;

namespace {

constexpr const char* kModel = "flow";

json slice_json(const Slice& slice) { return json::array({slice.buffer, slice.offset, slice.count}); }

json step_json(const ProgramStep& step) {
  json object = json::object();
  switch (step.kind) {
    case ProgramStep::Kind::send:
      object["send"] = step.peer;
      object["slice"] = slice_json(step.data);
      if (step.synchronous) object["synchronous"] = true;
      break;
    case ProgramStep::Kind::receive:
      object["receive"] = step.peer;
      object["slice"] = slice_json(step.data);
      break;
    case ProgramStep::Kind::wait: object["wait"] = step.requests; break;
    case ProgramStep::Kind::combine:
      object["combine"] = slice_json(step.data);
      object["into"] = slice_json(step.into);
      break;
    case ProgramStep::Kind::copy:
      object["copy"] = slice_json(step.data);
      object["into"] = slice_json(step.into);
      break;
    case ProgramStep::Kind::pace: object["pace"] = step.seconds; break;
  }
  return object;
}

const char* root_key(Operation operation) { return operation == Operation::broadcast ? "source" : "root"; }

}  // namespace

void write_program_plan_json(std::ostream& out, const ProgramPlan& plan, const Platform& platform,
                             std::optional<bool> valid) {
  json document = json::object();
  document["operation"] = to_string(plan.operation);
  if (plan.operation != Operation::allreduce && plan.root >= 0 &&
      static_cast<std::size_t>(plan.root) < plan.participants.size()) {
    document[root_key(plan.operation)] = platform.id(plan.participants[static_cast<std::size_t>(plan.root)]);
  }
  document["algorithm"] = plan.algorithm;
  document["description"] = plan.description;
  document["model"] = kModel;
  document["status"] = to_string(plan.status);
  document["message_size"] = plan.message_bytes();
  document["element_count"] = plan.element_count;
  document["element_bytes"] = plan.element_bytes;
  json participants = json::array();
  for (auto node : plan.participants) participants.push_back(platform.id(node));
  document["participants"] = std::move(participants);
  document["predicted_seconds"] = plan.predicted_seconds;
  // What every makespan plan says (docs/FORMATS.md): here the makespan is
  // the prediction, and no bound is claimed (0).
  document["makespan"] = plan.predicted_seconds;
  document["lower_bound"] = 0;
  document["optimal"] = plan.claims_optimal;
  document["guarantee"] = "none: the makespan is a prediction in the flow model";
  document["guarantee_kind"] = "heuristic";
  document["flow_model"] = {{"envelope_bytes", plan.flow.envelope_bytes},
                            {"detached_below_bytes", plan.flow.detached_below_bytes},
                            {"seconds_per_combined_byte", plan.flow.seconds_per_combined_byte}};
  if (valid) document["valid"] = *valid;
  std::size_t steps = 0;
  for (const auto& rank : plan.program.steps) steps += rank.size();
  document["stats"] = {{"seconds", plan.stats.seconds},
                       {"messages", plan.program.message_count()},
                       {"steps", steps}};
  if (!plan.notes.empty()) document["notes"] = plan.notes;
  json transfers = json::array();
  for (const auto& transfer : plan.transfers) {
    transfers.push_back({{"from", platform.id(plan.participants.at(static_cast<std::size_t>(transfer.from)))},
                         {"to", platform.id(plan.participants.at(static_cast<std::size_t>(transfer.to)))},
                         {"start", transfer.start},
                         {"end", transfer.end}});
  }
  document["transfers"] = std::move(transfers);
  json ranks = json::array();
  for (const auto& rank : plan.program.steps) {
    json list = json::array();
    for (const auto& step : rank) list.push_back(step_json(step));
    ranks.push_back(std::move(list));
  }
  json buffers = json::array();
  for (std::size_t b = 1; b < plan.program.buffer_elements.size(); ++b) buffers.push_back(plan.program.buffer_elements[b]);
  document["program"] = {{"rank_order", plan.program.rank_order}, {"buffers", std::move(buffers)},
                         {"ranks", std::move(ranks)}};
  out << document.dump() << "\n";
}

bool looks_like_program_plan(std::string_view text) {
  if (!may_have_top_level_key(text, "program")) return false;
  const json document = json::parse(text.begin(), text.end(), nullptr, false);
  return document.is_object() && document.contains("program");
}

namespace {

class ProgramPlanReader : public JsonFieldReader {
 public:
  ProgramPlanReader(const Platform& platform, std::string_view source_name) : JsonFieldReader(source_name), platform_(platform) {}

  std::string text(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, "must be a string");
    return value.get<std::string>();
  }

  double number(const json& value, const std::string& where) const {
    if (!value.is_number()) fail(where, "must be a number");
    const double result = value.get<double>();
    if (!std::isfinite(result)) fail(where, "must be finite");
    return result;
  }

  double non_negative(const json& value, const std::string& where) const {
    const double result = number(value, where);
    if (result < 0) fail(where, fmt::format("must be at least 0, got {}", result));
    return result;
  }

  // A whole number in [low, high].
  std::uint64_t whole(const json& value, const std::string& where, std::uint64_t low, std::uint64_t high) const {
    if (value.is_number_unsigned() || (value.is_number_integer() && value.get<long long>() >= 0)) {
      const auto result = value.get<std::uint64_t>();
      if (result >= low && result <= high) return result;
      fail(where, fmt::format("must be {} to {}, got {}", low, high, result));
    }
    fail(where, fmt::format("must be a whole number from {} to {}", low, high));
  }

  int peer(const json& value, const std::string& where) const { return small_integer(value, where, "a rank (an integer)"); }

  bool boolean(const json& value, const std::string& where) const {
    if (!value.is_boolean()) fail(where, "must be true or false");
    return value.get<bool>();
  }

  Slice slice(const json& value, const std::string& where) const {
    if (!value.is_array() || value.size() != 3) fail(where, "must be [buffer, offset, count]");
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    Slice result;
    result.buffer = static_cast<std::uint32_t>(whole(value[0], where + "[0]", 0, std::numeric_limits<std::uint32_t>::max()));
    result.offset = static_cast<std::size_t>(whole(value[1], where + "[1]", 0, kMax));
    result.count = static_cast<std::size_t>(whole(value[2], where + "[2]", 0, kMax));
    return result;
  }

  ProcessorIndex host(const json& value, const std::string& where) const {
    std::optional<ProcessorIndex> node;
    if (value.is_string()) {
      node = platform_.find(value.get<std::string>());
      if (!node) fail(where, fmt::format("unknown node \"{}\"", value.get<std::string>()));
    } else if (value.is_number_integer() && value.get<long long>() >= 0 && value.get<long long>() < platform_.size()) {
      node = static_cast<ProcessorIndex>(value.get<long long>());
    } else {
      fail(where, "must be a node id or index");
    }
    if (platform_.node(*node).kind != NodeKind::host) {
      fail(where, fmt::format("\"{}\" is a {}, not a host: only hosts run ranks", platform_.id(*node),
                              to_string(platform_.node(*node).kind)));
    }
    return *node;
  }

  ProgramStep step(const json& value, const std::string& where) const {
    if (!value.is_object()) fail(where, "must be an object (a send, receive, wait, combine, copy or pace step)");
    const char* kinds[] = {"send", "receive", "wait", "combine", "copy", "pace"};
    const char* kind = nullptr;
    for (const char* k : kinds) {
      if (!value.contains(k)) continue;
      if (kind) fail(where, fmt::format("has both \"{}\" and \"{}\": one step per object", kind, k));
      kind = k;
    }
    if (!kind) fail(where, "must have one of send, receive, wait, combine, copy, pace");
    const std::string name = kind;
    auto allow_only = [&](std::initializer_list<const char*> keys) {
      for (const auto& [key, unused] : value.items()) {
        bool known = false;
        for (const char* k : keys) known = known || key == k;
        if (!known) fail(where + "." + key, fmt::format("not a field of a {} step", name));
      }
    };
    ProgramStep step;
    if (name == "send" || name == "receive") {
      allow_only({"send", "receive", "slice", "synchronous"});
      step.kind = name == "send" ? ProgramStep::Kind::send : ProgramStep::Kind::receive;
      step.peer = peer(value[name], where + "." + name);
      step.data = slice(require(value, "slice", where + "."), where + ".slice");
      if (value.contains("synchronous")) {
        if (name != "send") fail(where + ".synchronous", "only sends are synchronous");
        step.synchronous = boolean(value["synchronous"], where + ".synchronous");
      }
    } else if (name == "wait") {
      allow_only({"wait"});
      step.kind = ProgramStep::Kind::wait;
      const auto& list = value["wait"];
      if (!list.is_array()) fail(where + ".wait", "must be an array of step indices");
      for (std::size_t i = 0; i < list.size(); ++i) {
        step.requests.push_back(static_cast<std::uint32_t>(
            whole(list[i], fmt::format("{}.wait[{}]", where, i), 0, std::numeric_limits<std::uint32_t>::max())));
      }
    } else if (name == "combine" || name == "copy") {
      allow_only({"combine", "copy", "into"});
      step.kind = name == "combine" ? ProgramStep::Kind::combine : ProgramStep::Kind::copy;
      step.data = slice(value[name], where + "." + name);
      step.into = slice(require(value, "into", where + "."), where + ".into");
    } else {
      allow_only({"pace"});
      step.kind = ProgramStep::Kind::pace;
      step.seconds = non_negative(value["pace"], where + ".pace");
    }
    return step;
  }

 private:
  const Platform& platform_;
};

}  // namespace

ProgramPlan parse_program_plan_json(std::string_view text, const Platform& platform, std::string_view source_name) {
  const ProgramPlanReader reader(platform, source_name);
  json document;
  try {
    document = parse_json_rejecting_duplicate_keys(text, source_name);
  } catch (const json::exception& error) {
    throw InputError(fmt::format("{}: not valid JSON: {}", source_name, error.what()));
  }
  if (!document.is_object()) reader.fail("plan", "must be a JSON object");
  try {
    ProgramPlan plan;
    const auto operation = operation_from_string(reader.text(reader.require(document, "operation", ""), "operation"));
    if (!operation || (*operation != Operation::broadcast && *operation != Operation::reduce &&
                       *operation != Operation::allreduce)) {
      reader.fail("operation", "a program plan is a broadcast, reduce or allreduce");
    }
    plan.operation = *operation;
    if (auto it = document.find("model"); it != document.end() && reader.text(*it, "model") != kModel) {
      reader.fail("model", fmt::format("a program plan is predicted in the flow model: \"{}\"", kModel));
    }
    if (auto it = document.find("algorithm"); it != document.end()) plan.algorithm = reader.text(*it, "algorithm");
    if (auto it = document.find("description"); it != document.end()) {
      plan.description = reader.text(*it, "description");
    }
    plan.element_count = static_cast<std::size_t>(reader.whole(reader.require(document, "element_count", ""),
                                                               "element_count", 1, std::numeric_limits<int>::max()));
    plan.element_bytes = static_cast<std::size_t>(
        reader.whole(reader.require(document, "element_bytes", ""), "element_bytes", 1, 1u << 20));
    if (auto it = document.find("message_size"); it != document.end()) {
      if (reader.number(*it, "message_size") != plan.message_bytes()) {
        reader.fail("message_size", fmt::format("must be element_count x element_bytes = {}", plan.message_bytes()));
      }
    }
    const auto& participants = reader.require(document, "participants", "");
    if (!participants.is_array() || participants.empty()) reader.fail("participants", "must be a non-empty array of host ids");
    std::vector<bool> seen(static_cast<std::size_t>(platform.size()), false);
    for (std::size_t r = 0; r < participants.size(); ++r) {
      const auto node = reader.host(participants[r], fmt::format("participants[{}]", r));
      if (seen[static_cast<std::size_t>(node)]) {
        reader.fail(fmt::format("participants[{}]", r), fmt::format("\"{}\" plays two ranks", platform.id(node)));
      }
      seen[static_cast<std::size_t>(node)] = true;
      plan.participants.push_back(node);
    }
    plan.root = -1;
    if (plan.operation != Operation::allreduce) {
      const char* key = root_key(plan.operation);
      const auto node = reader.host(reader.require(document, key, ""), key);
      for (std::size_t r = 0; r < plan.participants.size(); ++r) {
        if (plan.participants[r] == node) plan.root = static_cast<int>(r);
      }
      if (plan.root < 0) reader.fail(key, fmt::format("\"{}\" is not one of the participants", platform.id(node)));
    }
    plan.predicted_seconds = reader.non_negative(reader.require(document, "predicted_seconds", ""), "predicted_seconds");
    if (auto it = document.find("optimal"); it != document.end()) plan.claims_optimal = reader.boolean(*it, "optimal");
    if (auto it = document.find("makespan"); it != document.end()) plan.claimed_makespan = reader.non_negative(*it, "makespan");
    if (auto it = document.find("lower_bound"); it != document.end()) {
      plan.claimed_lower_bound = reader.non_negative(*it, "lower_bound");
    }
    if (auto it = document.find("transfers"); it != document.end()) {
      if (!it->is_array()) reader.fail("transfers", "must be an array of {from, to, start, end}");
      auto rank_of = [&](const json& value, const std::string& where) {
        const auto node = reader.host(value, where);
        for (std::size_t r = 0; r < plan.participants.size(); ++r) {
          if (plan.participants[r] == node) return static_cast<int>(r);
        }
        reader.fail(where, fmt::format("\"{}\" is not one of the participants", platform.id(node)));
      };
      for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string where = fmt::format("transfers[{}].", i);
        const auto& item = (*it)[i];
        if (!item.is_object()) reader.fail(fmt::format("transfers[{}]", i), "must be an object");
        ProgramTransfer transfer;
        transfer.from = rank_of(reader.require(item, "from", where), where + "from");
        transfer.to = rank_of(reader.require(item, "to", where), where + "to");
        transfer.start = reader.number(reader.require(item, "start", where), where + "start");
        transfer.end = reader.number(reader.require(item, "end", where), where + "end");
        plan.transfers.push_back(transfer);
      }
    }
    if (auto it = document.find("flow_model"); it != document.end()) {
      if (!it->is_object()) reader.fail("flow_model", "must be an object");
      for (const auto& [key, value] : it->items()) {
        const std::string where = "flow_model." + key;
        if (key == "envelope_bytes") plan.flow.envelope_bytes = reader.non_negative(value, where);
        else if (key == "detached_below_bytes") plan.flow.detached_below_bytes = reader.non_negative(value, where);
        else if (key == "seconds_per_combined_byte") plan.flow.seconds_per_combined_byte = reader.non_negative(value, where);
        else reader.fail(where, "unknown (envelope_bytes, detached_below_bytes, seconds_per_combined_byte)");
      }
    }
    if (auto it = document.find("notes"); it != document.end()) {
      if (!it->is_array()) reader.fail("notes", "must be an array of strings");
      for (std::size_t i = 0; i < it->size(); ++i) plan.notes.push_back(reader.text((*it)[i], fmt::format("notes[{}]", i)));
    }
    if (auto it = document.find("stats"); it != document.end() && it->is_object()) {
      if (auto seconds = it->find("seconds"); seconds != it->end()) {
        plan.stats.seconds = reader.non_negative(*seconds, "stats.seconds");
      }
    }
    const auto& program = reader.require(document, "program", "");
    if (!program.is_object()) reader.fail("program", "must be an object (rank_order, buffers, ranks)");
    for (const auto& [key, unused] : program.items()) {
      if (key != "rank_order" && key != "buffers" && key != "ranks") {
        reader.fail("program." + key, "unknown (rank_order, buffers, ranks)");
      }
    }
    plan.program = CommProgram(static_cast<int>(plan.participants.size()), plan.description);
    if (auto it = program.find("rank_order"); it != program.end()) {
      plan.program.rank_order = reader.boolean(*it, "program.rank_order");
    }
    if (auto it = program.find("buffers"); it != program.end()) {
      if (!it->is_array()) reader.fail("program.buffers", "must be an array of scratch buffer sizes (elements)");
      for (std::size_t b = 0; b < it->size(); ++b) {
        plan.program.buffer_elements.push_back(static_cast<std::size_t>(
            reader.whole((*it)[b], fmt::format("program.buffers[{}]", b), 0, std::numeric_limits<int>::max())));
      }
    }
    const auto& ranks = reader.require(program, "ranks", "program.");
    if (!ranks.is_array() || ranks.size() != plan.participants.size()) {
      reader.fail("program.ranks", fmt::format("must be an array of {} step lists, one per participant",
                                               plan.participants.size()));
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      const std::string where = fmt::format("program.ranks[{}]", r);
      if (!ranks[r].is_array()) reader.fail(where, "must be an array of steps");
      auto& steps = plan.program.steps[r];
      steps.reserve(ranks[r].size());
      for (std::size_t s = 0; s < ranks[r].size(); ++s) steps.push_back(reader.step(ranks[r][s], fmt::format("{}[{}]", where, s)));
    }
    return plan;
  } catch (const json::exception& error) {
    throw InputError(fmt::format("{}: {}", source_name, error.what()));
  }
}

}  // namespace hetcoll
