// Fast reader of a makespan plan's "transfers" array, for plans of millions
// of transfers (internal: only plan_json.cpp calls it).
//
// Contract: reads the document with simdjson's on-demand parser; each
// transfer {"from": id, "to": id, "start": number, "end": number,
// "payload": "value"|"partial", "route": [id, ...]} goes straight into a
// Transfer (no document tree), its ids resolved all at once by `find_all`
// (kNoProcessor for an unknown id). Returns the
// transfers and the document's text with the transfers array replaced by
// "[]" (the header, for the reference reader to check field by field), or
// std::nullopt for anything else -- malformed JSON, a repeated or unknown
// transfer field, "transfers" given twice or not an array, an id that is a
// number, unknown or holds a control character, a non-finite or non-numeric
// time, an unknown payload, a route of fewer than two ids. The caller then
// parses the whole text with the reference reader (nlohmann, plan_json.cpp),
// which words the message naming the file and field. So the fast reader
// decides speed, never meaning or messages.
//
// Time O(file size); memory: a padded copy of the text, simdjson's
// structural index and the transfers. Built only with simdjson
// (HETCOLL_WITH_SIMDJSON); without it the function always returns
// std::nullopt.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct FastPlanTransfers {
  std::string header;               // the text, its transfers array replaced by "[]"
  std::vector<Transfer> transfers;  // routes left empty
  std::vector<bool> payload_given;  // per transfer: false = the operation's default payload
  // Routes as node indices: transfer i's are route_nodes[route_begin[i] ..
  // route_begin[i + 1]) (route_begin is empty when no transfer has a route).
  std::vector<std::size_t> route_begin;
  std::vector<ProcessorIndex> route_nodes;
};

using FindAllProcessors = std::function<void(std::span<const std::string_view>, std::span<ProcessorIndex>)>;

std::optional<FastPlanTransfers> read_plan_transfers_fast(std::string_view text, const FindAllProcessors& find_all);

// parse_plan_json without the fast reader: the reference it must agree
// with (tests compare the two).
MakespanPlan parse_plan_json_reference(std::string_view text, const Cluster& cluster, std::string_view source_name);
MakespanPlan parse_plan_json_reference(std::string_view text, const Platform& platform, std::string_view source_name);

// False when `text` is either no well-formed JSON or an object without the
// top-level key `key`: then a parser would not find it either. True means
// only "maybe" (the caller parses to know). O(text size), no allocation, no
// simdjson needed.
bool may_have_top_level_key(std::string_view text, std::string_view key);

}  // namespace hetcoll
