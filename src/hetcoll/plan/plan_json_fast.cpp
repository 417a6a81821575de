#include "hetcoll/plan/plan_json_fast_internal.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "hetcoll/core/json_input_internal.h"

#if HETCOLL_WITH_SIMDJSON
#include <simdjson.h>
#endif

namespace hetcoll {

#if HETCOLL_WITH_SIMDJSON

namespace {

namespace ondemand = simdjson::ondemand;

// Ids are resolved after the whole array is read (find_all, all at once):
// meanwhile `index` holds the id's position in `ids` (the strings stay in
// the parser's buffer until it is destroyed).
bool read_id(ondemand::value value, std::vector<std::string_view>& ids, ProcessorIndex& index) {
  std::string_view id;
  if (value.get_string().get(id) || has_control_character(id)) return false;  // numeric ids: reference
  if (ids.size() >= static_cast<std::size_t>(std::numeric_limits<ProcessorIndex>::max())) return false;
  index = static_cast<ProcessorIndex>(ids.size());
  ids.push_back(id);
  return true;
}

bool read_time(ondemand::value value, double& time) {
  return !value.get_double().get(time) && std::isfinite(time);
}

bool read_transfer(ondemand::value value, std::vector<std::string_view>& ids, FastPlanTransfers& read) {
  ondemand::object object;
  if (value.get_object().get(object)) return false;
  Transfer transfer;
  enum : unsigned { kFrom = 1, kTo = 2, kStart = 4, kEnd = 8, kPayload = 16, kRoute = 32 };
  unsigned seen = 0;
  for (auto field_result : object) {
    ondemand::field field;
    std::string_view key;
    if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return false;
    unsigned bit = key == "from" ? kFrom : key == "to" ? kTo : key == "start" ? kStart : key == "end" ? kEnd
                 : key == "payload" ? kPayload : key == "route" ? kRoute : 0u;
    if (bit == 0 || (seen & bit)) return false;  // unknown or repeated field
    seen |= bit;
    bool ok = false;
    switch (bit) {
      case kFrom: ok = read_id(field.value(), ids, transfer.from); break;
      case kTo: ok = read_id(field.value(), ids, transfer.to); break;
      case kStart: ok = read_time(field.value(), transfer.start); break;
      case kEnd: ok = read_time(field.value(), transfer.end); break;
      case kPayload: {
        std::string_view name;
        std::optional<Payload> payload;
        ok = !field.value().get_string().get(name) && (payload = payload_from_string(name)).has_value();
        if (ok) transfer.payload = *payload;
        break;
      }
      case kRoute: {
        ondemand::array route;
        if (field.value().get_array().get(route)) return false;
        // Transfers before the first route get empty ranges.
        if (read.route_begin.empty()) read.route_begin.assign(read.transfers.size() + 1, 0);
        const std::size_t first = read.route_nodes.size();
        for (auto element : route) {
          ondemand::value node;
          ProcessorIndex index = kNoProcessor;
          if (std::move(element).get(node) || !read_id(node, ids, index)) return false;
          read.route_nodes.push_back(index);
        }
        ok = read.route_nodes.size() - first >= 2;
        break;
      }
    }
    if (!ok) return false;
  }
  if ((seen & (kFrom | kTo | kStart | kEnd)) != (kFrom | kTo | kStart | kEnd)) return false;
  read.transfers.push_back(std::move(transfer));
  read.payload_given.push_back((seen & kPayload) != 0);
  if (!read.route_begin.empty()) read.route_begin.push_back(read.route_nodes.size());
  return true;
}

std::optional<FastPlanTransfers> read_transfers(std::string_view text, const FindAllProcessors& find_all) {
  // The caller's text has no guaranteed slack after it: simdjson reads up to
  // SIMDJSON_PADDING bytes past the end.
  simdjson::padded_string padded(text);
  ondemand::parser parser;
  ondemand::document document;
  if (parser.iterate(padded).get(document)) return std::nullopt;
  ondemand::object root;
  if (document.get_object().get(root)) return std::nullopt;
  FastPlanTransfers read;
  std::vector<std::string_view> ids;
  const char* transfers_begin = nullptr;
  const char* transfers_end = nullptr;
  for (auto field_result : root) {
    ondemand::field field;
    std::string_view key;
    if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return std::nullopt;
    if (key != "transfers") continue;  // the header: checked by the reference reader
    if (transfers_begin) return std::nullopt;  // given twice
    ondemand::value value = field.value();
    if (value.current_location().get(transfers_begin)) return std::nullopt;
    ondemand::array transfers;
    if (value.get_array().get(transfers)) return std::nullopt;
    // A written plan spends about 85 bytes per transfer: reserve once.
    read.transfers.reserve(text.size() / 80);
    read.payload_given.reserve(text.size() / 80);
    ids.reserve(2 * (text.size() / 80));
    for (auto element : transfers) {
      ondemand::value item;
      if (std::move(element).get(item) || !read_transfer(item, ids, read)) return std::nullopt;
    }
    // The token after the array: the ',' or '}' that follows it.
    if (document.current_location().get(transfers_end)) return std::nullopt;
  }
  // Nothing may follow the root object: simdjson reports the end of the
  // document as OUT_OF_BOUNDS, and any trailing token as a location.
  const char* trailing = nullptr;
  if (!transfers_begin || document.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS) return std::nullopt;
  const std::size_t begin = static_cast<std::size_t>(transfers_begin - padded.data());
  const std::size_t end = static_cast<std::size_t>(transfers_end - padded.data());
  if (begin >= end || end > text.size()) return std::nullopt;
  std::vector<ProcessorIndex> found(ids.size());
  find_all(ids, found);
  const auto resolve = [&found](ProcessorIndex& index) {
    index = found[static_cast<std::size_t>(index)];
    return index != kNoProcessor;
  };
  for (Transfer& transfer : read.transfers) {
    if (!resolve(transfer.from) || !resolve(transfer.to)) return std::nullopt;
  }
  for (ProcessorIndex& node : read.route_nodes) {
    if (!resolve(node)) return std::nullopt;
  }
  read.header.reserve(begin + 2 + (text.size() - end));
  read.header.append(text.substr(0, begin)).append("[]").append(text.substr(end));
  return read;
}

}  // namespace

std::optional<FastPlanTransfers> read_plan_transfers_fast(std::string_view text, const FindAllProcessors& find_all) {
  return read_transfers(text, find_all);
}

#else

std::optional<FastPlanTransfers> read_plan_transfers_fast(std::string_view, const FindAllProcessors&) {
  return std::nullopt;
}

#endif

// One pass over the bytes, no allocation: strings (with their escapes) and
// nesting are followed exactly as a JSON parser does on well-formed text, so
// the root object's keys are found exactly; on malformed text any answer is
// allowed (the caller's false there is right too).
bool may_have_top_level_key(std::string_view text, std::string_view key) {
  const char* p = text.data();
  const char* const end = p + text.size();
  int depth = 0;
  while (p < end) {
    const char c = *p++;
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '"') {
      const char* const begin = p;
      bool escaped = false;
      while (p < end && *p != '"') {
        if (*p == '\\') {
          escaped = true;
          ++p;  // the escaped character, '"' included
        }
        ++p;
      }
      if (p >= end) return true;  // unterminated: let the parser tell
      const std::string_view name(begin, static_cast<std::size_t>(p - begin));
      ++p;
      if (depth != 1) continue;
      const char* next = p;
      while (next < end && (*next == ' ' || *next == '\t' || *next == '\n' || *next == '\r')) ++next;
      if (next < end && *next == ':' && (escaped || name == key)) return true;  // an escaped key may spell `key`
    }
  }
  return false;
}

}  // namespace hetcoll
