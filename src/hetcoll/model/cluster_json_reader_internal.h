// Fast reader of cluster platform files ("model": "cluster"), for clusters
// of millions of processors (internal: only platform_io.cpp calls it).
//
// Contract: reads a well-formed cluster document with simdjson's on-demand
// parser (no document tree: ids and times go straight into the Cluster) and
// returns std::nullopt for anything else -- malformed JSON, a graph, an
// unknown or duplicated field, a wrong type, a number out of range, an id
// given as a number or holding a control character, or values the Cluster
// constructor rejects. The caller then parses the text with the reference
// reader (nlohmann DOM in platform_io.cpp), which gives the error message
// naming the file and field. So a document is either read identically by
// both readers or read only by the reference one: the fast reader decides
// speed, never meaning or messages.
//
// Time O(file size), memory: the text, simdjson's structural index (4 bytes
// per structural character, about 1.4 bytes per byte of a cluster file) and
// the cluster itself. Built only with simdjson (HETCOLL_WITH_SIMDJSON);
// without it the function always returns std::nullopt.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

// `text` must be followed by at least kJsonReadPadding readable bytes
// (read_text_file leaves them); `source_name` names the cluster's source.
std::optional<Cluster> read_cluster_json_fast(std::string_view text, std::string_view source_name);

// Bytes of slack after the text that the fast reader may read (simdjson's
// SIMDJSON_PADDING, checked where simdjson is included).
inline constexpr std::size_t kJsonReadPadding = 64;

}  // namespace hetcoll
