// Fast reader of a makespan plan's "transfers" array, for plans of millions
// of transfers (internal: only plan_json.cpp calls it).
//
// Contract: reads the document with simdjson's on-demand parser; each
// transfer {"from": id, "to": id, "start": number, "end": number,
// "payload": "value"|"partial", "route": [id, ...]} goes straight into a
// Transfer (no document tree), its ids resolved by `find`. Returns the
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

std::optional<FastPlanTransfers> read_plan_transfers_fast(
    std::string_view text, const std::function<std::optional<ProcessorIndex>(std::string_view)>& find);

// parse_plan_json without the fast reader: the reference it must agree
// with (tests compare the two).
MakespanPlan parse_plan_json_reference(std::string_view text, const Cluster& cluster, std::string_view source_name);
MakespanPlan parse_plan_json_reference(std::string_view text, const Platform& platform, std::string_view source_name);

// Whether `text` is a JSON object with the top-level key `key`, decided
// from the root object's keys without a document tree: false is exact
// (either the key is absent or the text is no valid JSON object), true only
// says the key was seen (the text may still be malformed). std::nullopt when
// simdjson cannot tell (malformed text, not an object, no simdjson).
std::optional<bool> has_top_level_key_fast(std::string_view text, std::string_view key);

}  // namespace hetcoll
