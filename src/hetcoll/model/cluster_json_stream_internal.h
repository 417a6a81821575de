// Streaming reader of cluster platform files ("model": "cluster") in their
// plain form, for clusters of tens of millions of processors (internal: only
// platform_io.cpp and its tests call it).
//
// Contract: reads, from an open file, a cluster document of the plain form
// `hetcoll generate` and write_cluster_json write -- a root object with
// "model": "cluster" and "processors" (each at most once, in any order),
// every processor an object of exactly "id" (a string) and "t" (a number),
// strings of printable ASCII without escapes, JSON whitespace anywhere
// between tokens -- and returns std::nullopt for anything else (the
// other fields, escapes, non-ASCII ids, malformed or truncated JSON, a
// number out of double's range, a processor entry longer than
// kClusterStreamWindow bytes that does not fit the buffer, values the Cluster constructor rejects). The
// caller then reads the file with the other readers, which word the error
// messages. So a document is either read exactly as the reference reader
// reads it (numbers correctly rounded by std::from_chars, as by nlohmann and
// simdjson) or declined: this reader decides speed and memory, never meaning
// or messages.
//
// Time O(file size); memory: the cluster and a buffer of `chunk_bytes` +
// kClusterStreamWindow bytes, never the text (a 10^7-processor file is
// 380 MB of text).
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string_view>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

// The bytes one processor entry may always span (a longer one is read only
// when it happens to fit the buffer).
inline constexpr std::size_t kClusterStreamWindow = 4096;

// Reads `file` from its current position to its end, `chunk_bytes` bytes per
// read (tests use tiny chunks to cross every boundary). `size_hint`: the
// file's size when known (0 otherwise), to reserve the columns once.
std::optional<Cluster> read_cluster_json_stream(std::FILE* file, std::string_view source_name,
                                                std::size_t size_hint = 0, std::size_t chunk_bytes = 1 << 20);

}  // namespace hetcoll
