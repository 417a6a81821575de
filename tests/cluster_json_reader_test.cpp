// The fast cluster readers (model/cluster_json_reader_internal.h, simdjson;
// model/cluster_json_stream_internal.h, streaming) against the reference
// reader: on every document each either reads exactly what the reference
// reads or declines, and a file that they decline still gives the reference
// reader's message naming the file and field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/model/cluster_json_reader_internal.h"
#include "hetcoll/model/cluster_json_stream_internal.h"
#include "hetcoll/model/platform_io.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

std::optional<Cluster> read_fast(const std::string& text) {
  std::string padded = text;
  padded.reserve(text.size() + kJsonReadPadding);
  return read_cluster_json_fast(padded, "fast.json");
}

// The streaming reader over `text`, `chunk_bytes` bytes per read.
std::optional<Cluster> read_streaming(const std::string& text, size_t chunk_bytes) {
  std::string copy = text.empty() ? std::string(" ") : text;  // fmemopen wants a non-empty buffer
  std::FILE* file = fmemopen(copy.data(), text.empty() ? 0 : copy.size(), "rb");
  if (text.empty() && file == nullptr) return std::nullopt;
  EXPECT_NE(file, nullptr);
  std::optional<Cluster> read = read_cluster_json_stream(file, "fast.json", text.size(), chunk_bytes);
  std::fclose(file);
  return read;
}

// Fails when `fast` holds what the reference rejects or reads differently.
void expect_same_as_reference(const std::optional<Cluster>& fast, const std::optional<Cluster>& reference,
                              const std::string& text, const char* reader) {
  if (!fast) return;
  EXPECT_TRUE(reference.has_value()) << "the " << reader << " reader accepted what the reference rejects: " << text;
  if (!reference) return;
  EXPECT_EQ(fast->ids(), reference->ids()) << reader << ": " << text;
  EXPECT_EQ(fast->transmission_times(), reference->transmission_times()) << reader << ": " << text;
}

// Fails when a fast reader (simdjson, or streaming in chunks of 1, 7 and
// 2^20 bytes, which read alike) accepts what the reference rejects or reads
// it differently; returns whether the simdjson reader read it.
bool agrees_with_reference(const std::string& text) {
  std::optional<Cluster> fast = read_fast(text);
  std::optional<Cluster> reference;
  try {
    LoadedPlatform loaded = parse_platform_json(text, "fast.json");
    if (loaded.is_cluster()) reference = loaded.cluster();
  } catch (const InputError&) {
  }
  expect_same_as_reference(fast, reference, text, "simdjson");
  std::optional<Cluster> streamed = read_streaming(text, size_t{1} << 20);
  expect_same_as_reference(streamed, reference, text, "streaming");
  for (size_t chunk : {size_t{1}, size_t{7}}) {
    EXPECT_EQ(read_streaming(text, chunk).has_value(), streamed.has_value()) << "chunks of " << chunk << ": " << text;
  }
  return fast.has_value();
}

const std::string kHead = R"({"model": "cluster", "processors": [)";

TEST(ClusterJsonReader, ReadsWellFormedClustersLikeTheReference) {
#if HETCOLL_WITH_SIMDJSON
  const bool fast_expected = true;
#else
  const bool fast_expected = false;
#endif
  for (const std::string& text : std::vector<std::string>{
           kHead + R"({"id": "a", "t": 1}, {"id": "b", "t": 2.5}]})",
           R"({"description": ["x", 1, null, true, {"k": [false]}], )"
           R"("processors": [{"t": 1e-3, "id": "a", "description": "fast"}], "model": "cluster"})",
           kHead + R"({"id": "caf\u00e9 \"q\"", "t": 0.1}, {"id": "é", "t": 1E2}]}  )" + "\n",
           kHead + R"({"id": "a", "t": 18446744073709551616}, {"id": "b", "t": 1e-290}]})",
       }) {
    EXPECT_EQ(agrees_with_reference(text), fast_expected) << text;
  }
}

TEST(ClusterJsonReader, DeclinesWhatItDoesNotRead) {
  for (const std::string& text : std::vector<std::string>{
           std::string(""), std::string("[]"), std::string("{}"),
           kHead + "]}",                                                      // no processors
           kHead + R"({"id": "a", "t": 1}, {"id": "b", "t": 4.9e-324}]})",   // subnormal: the reference rejects it
           kHead + R"({"id": "a", "t": 1}]} x)",                              // trailing token
           kHead + R"({"id": "a", "t": 1}]}})",                               // trailing brace
           kHead + R"({"id": "a", "t": 1}, {"id": "a", "t": 2}]})",           // duplicate id
           kHead + R"({"id": 7, "t": 1}]})",                                  // numeric id
           kHead + R"({"id": "a", "t": 1, "t": 2}]})",                        // repeated field
           kHead + R"({"id": "a", "t": 1, "speed": 2}]})",                    // unknown field
           kHead + R"({"id": "a", "t": 1e999}]})",                            // out of range
           kHead + R"({"id": "a", "t": -1}]})",                               // not positive
           kHead + R"({"id": "a", "t": "1"}]})",                              // wrong type
           kHead + R"({"id": "a\u0001", "t": 1}]})",                          // control character
           kHead + "{\"id\": \"a\nb\", \"t\": 1}]}",                          // raw control character
           kHead + R"({"id": "a", "t": 1}], "description": tru})",            // bad literal in a skipped value
           kHead + R"({"id": "a", "t": 1.5.2}]})",                            // bad number
           kHead + R"({"id": "\ud800", "t": 1}]})",                           // lone surrogate
           std::string(R"({"model": "graph", "nodes": [{"id": "a"}]})"),
           // the time unit is checked and kept by the reference reader
           std::string(R"({"model": "cluster", "units": {"time": "ms"}, "processors": [{"id": "a", "t": 1}]})"),
           std::string(R"({"model": "cluster", "model": "cluster", "processors": [{"id": "a", "t": 1}]})"),
       }) {
    EXPECT_FALSE(agrees_with_reference(text)) << text;
  }
}

// Seeded mutations of a valid file: deleting, duplicating or replacing one
// byte. Whatever the fast reader accepts, the reference reads the same way.
TEST(ClusterJsonReader, MutationsNeverMakeTheReadersDisagree) {
  const std::string base = R"({"model": "cluster", "description": "d", "processors": [)"
                           R"({"id": "p0", "t": 1.5}, {"id": "p1", "t": 2, "description": "x"}, {"id": "p2", "t": 3e0}]})";
  const std::string alphabet = "{}[]\":, \\-+.eE0123456789abtu\n";
  std::mt19937_64 rng(13);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = base;
    size_t at = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
    char c = alphabet[std::uniform_int_distribution<size_t>(0, alphabet.size() - 1)(rng)];
    switch (trial % 3) {
      case 0: text.erase(at, 1); break;
      case 1: text.insert(at, 1, c); break;
      default: text[at] = c; break;
    }
    accepted += agrees_with_reference(text) ? 1 : 0;
  }
#if HETCOLL_WITH_SIMDJSON
  EXPECT_GT(accepted, 0);  // some mutations (in an id, a digit) stay valid
#endif
}

TEST(ClusterJsonReader, StreamsPlainFilesAndDeclinesTheRest) {
  const std::string plain = kHead + "{\"id\": \"a\", \"t\": 1},\n  {\"t\": 2.5e-3, \"id\": \"b\"}]}\n";
  std::optional<Cluster> read = read_streaming(plain, 3);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->ids(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read->transmission_times(), (std::vector<double>{1, 2.5e-3}));
  // Whitespace runs longer than the window between tokens are read.
  const std::string spaced = std::string(3 * kClusterStreamWindow, ' ') + kHead + std::string(3 * kClusterStreamWindow, '\n') +
                             R"({"id": "a", "t": 1})" + std::string(3 * kClusterStreamWindow, ' ') + "]}" +
                             std::string(3 * kClusterStreamWindow, '\t');
  EXPECT_TRUE(read_streaming(spaced, 5).has_value());
  // Declined (the other readers take them): escapes, non-ASCII ids, other
  // fields, an entry longer than the window when read in small chunks, a
  // truncated file.
  for (const std::string& text : std::vector<std::string>{
           kHead + R"({"id": "a\u0062", "t": 1}]})", kHead + R"({"id": "é", "t": 1}]})",
           R"({"model": "cluster", "description": "d", "processors": [{"id": "a", "t": 1}]})",
           kHead + R"({"id": ")" + std::string(kClusterStreamWindow, 'x') + R"(", "t": 1}]})",
           plain.substr(0, plain.size() - 3)}) {
    EXPECT_FALSE(read_streaming(text, 1).has_value()) << text;
  }
}

TEST(ClusterJsonReader, LongIdsStillLoadThroughTheOtherReaders) {
  auto path = std::filesystem::temp_directory_path() / "hetcoll_cluster_reader_long_id.json";
  const std::string long_id(2 * kClusterStreamWindow, 'x');
  {
    std::ofstream out(path);
    out << kHead << R"({"id": ")" << long_id << R"(", "t": 1}, {"id": "b", "t": 2}]})";
  }
  LoadedPlatform loaded = load_platform_file(path.string());
  ASSERT_TRUE(loaded.is_cluster());
  EXPECT_EQ(loaded.cluster().id(0), long_id);
  std::filesystem::remove(path);
}

TEST(ClusterJsonReader, LoadedFileGivesTheReferenceErrorMessages) {
  auto path = std::filesystem::temp_directory_path() / "hetcoll_cluster_reader_test.json";
  {
    std::ofstream out(path);
    out << kHead << R"({"id": "a", "t": 1}, {"id": "b"}]})";
  }
  try {
    load_platform_file(path.string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), path.string() + ": processors[1].t: missing");
  }
  std::filesystem::remove(path);
}

TEST(ClusterJsonReader, LoadsTheFuzzCorpusLikeTheReference) {
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("fuzz/corpus/json"))) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    agrees_with_reference(text);
  }
}

}  // namespace
}  // namespace hetcoll
