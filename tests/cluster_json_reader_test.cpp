// The fast cluster reader (model/cluster_json_reader_internal.h) against the
// reference reader: on every document it either reads exactly what the
// reference reads or declines, and a file that it declines still gives the
// reference reader's message naming the file and field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/model/cluster_json_reader_internal.h"
#include "hetcoll/model/platform_io.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

std::optional<Cluster> read_fast(const std::string& text) {
  std::string padded = text;
  padded.reserve(text.size() + kJsonReadPadding);
  return read_cluster_json_fast(padded, "fast.json");
}

// Fails when the fast reader accepts what the reference rejects or reads it
// differently; returns whether the fast reader read it.
bool agrees_with_reference(const std::string& text) {
  std::optional<Cluster> fast = read_fast(text);
  std::optional<Cluster> reference;
  try {
    LoadedPlatform loaded = parse_platform_json(text, "fast.json");
    if (loaded.is_cluster()) reference = loaded.cluster();
  } catch (const InputError&) {
  }
  if (!fast) return false;
  EXPECT_TRUE(reference.has_value()) << "the fast reader accepted what the reference rejects: " << text;
  if (!reference) return true;
  EXPECT_EQ(fast->ids(), reference->ids()) << text;
  EXPECT_EQ(fast->transmission_times(), reference->transmission_times()) << text;
  return true;
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
