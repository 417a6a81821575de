// The plan reader's fast path (plan/plan_json_fast_internal.h: transfers
// read without a document tree) against the reference reader: on every plan
// parse_plan_json gives exactly the reference's plan or exactly its message,
// and the fast path really reads the plans hetcoll writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/plan_json_fast_internal.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/registry.h"
#include "support/graph_support.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

#if HETCOLL_WITH_SIMDJSON
constexpr bool kFastExpected = true;
#else
constexpr bool kFastExpected = false;
#endif

void expect_same_plan(const MakespanPlan& a, const MakespanPlan& b, const std::string& text) {
  EXPECT_EQ(a.operation, b.operation) << text;
  EXPECT_EQ(a.algorithm, b.algorithm) << text;
  EXPECT_EQ(a.model, b.model) << text;
  EXPECT_EQ(a.message_size, b.message_size) << text;
  EXPECT_EQ(a.root, b.root) << text;
  EXPECT_EQ(a.targets, b.targets) << text;
  EXPECT_EQ(a.helpers, b.helpers) << text;
  EXPECT_EQ(a.transfers, b.transfers) << text;  // ids, exact doubles, payloads, routes
  EXPECT_EQ(a.makespan, b.makespan) << text;
  EXPECT_EQ(a.lower_bound, b.lower_bound) << text;
  EXPECT_EQ(a.optimal, b.optimal) << text;
  EXPECT_EQ(a.optimality_proof, b.optimality_proof) << text;
  EXPECT_EQ(a.guarantee.text, b.guarantee.text) << text;
  EXPECT_EQ(a.guarantee.kind, b.guarantee.kind) << text;
  EXPECT_EQ(a.guarantee.ratio, b.guarantee.ratio) << text;
  EXPECT_EQ(a.status, b.status) << text;
}

// Reads `text` with parse_plan_json and with the reference reader: the same
// plan, or the same message. Returns whether the fast path read it.
template <class Nodes>
bool agrees_with_reference(const std::string& text, const Nodes& nodes) {
  std::optional<MakespanPlan> read, reference;
  std::string read_error, reference_error;
  try {
    read = parse_plan_json(text, nodes, "p.json");
  } catch (const InputError& error) {
    read_error = error.what();
  }
  try {
    reference = parse_plan_json_reference(text, nodes, "p.json");
  } catch (const InputError& error) {
    reference_error = error.what();
  }
  EXPECT_EQ(read_error, reference_error) << text;
  EXPECT_EQ(read.has_value(), reference.has_value()) << text;
  if (read && reference) expect_same_plan(*read, *reference, text);
  const bool fast = read_plan_transfers_fast(text, [&](std::span<const std::string_view> ids,
                                                       std::span<ProcessorIndex> found) {
                      for (std::size_t i = 0; i < ids.size(); ++i) found[i] = nodes.find(ids[i]).value_or(kNoProcessor);
                    }).has_value();
  return fast && read.has_value();
}

template <class Nodes>
std::string written(const MakespanPlan& plan, const Nodes& nodes) {
  std::ostringstream out;
  write_plan_json(out, plan, nodes, {true, true});
  return out.str();
}

std::string without_payloads(std::string text) {
  for (const std::string payload : {R"(, "payload": "value")", R"(, "payload": "partial")"}) {
    for (auto at = text.find(payload); at != std::string::npos; at = text.find(payload, at)) text.erase(at, payload.size());
  }
  return text;
}

TEST(PlanJsonReader, ReadsSeededRandomClusterPlansLikeTheReference) {
  std::mt19937_64 rng(20261128);
  int read_fast = 0, plans = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 40);
    const Cluster cluster = testing::random_cluster(rng, n, 1 + static_cast<int>(rng() % 4));
    for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
      const MakespanPlan plan = plan_makespan(cluster, testing::random_request(operation, n, rng));
      const std::string text = written(plan, cluster);
      // Default payloads (reduce: partial) are filled in the same way.
      for (const std::string& variant : {text, without_payloads(text)}) {
        read_fast += agrees_with_reference(variant, cluster) ? 1 : 0;
        ++plans;
      }
      EXPECT_EQ(parse_plan_json(text, cluster, "p.json").transfers, plan.transfers);
    }
  }
  EXPECT_EQ(read_fast, kFastExpected ? plans : 0);
}

TEST(PlanJsonReader, ReadsGraphPlansWithRoutesLikeTheReference) {
  std::mt19937_64 rng(20261128);
  int read_fast = 0, plans = 0, routed = 0;
  for (int trial = 0; trial < 20; ++trial) {
    testing::RandomGraphOptions options;
    options.hosts = 3 + static_cast<int>(rng() % 6);
    options.routers = 1 + static_cast<int>(rng() % 3);
    const Platform platform = testing::random_graph(rng, options);
    const GraphNetwork network(platform, std::nullopt);
    MakespanRequest request;
    request.operation = trial % 2 ? Operation::reduce : Operation::broadcast;
    request.root = network.participants()[rng() % network.participants().size()];
    const MakespanPlan plan = plan_graph_makespan(network, request, "auto");
    for (const auto& transfer : plan.transfers) routed += transfer.route.size() > 1 ? 1 : 0;
    const std::string text = written(plan, platform);
    read_fast += agrees_with_reference(text, platform) ? 1 : 0;
    ++plans;
    EXPECT_EQ(parse_plan_json(text, platform, "p.json").transfers, plan.transfers);
  }
  EXPECT_GT(routed, 0);  // routes through routers were read
  EXPECT_EQ(read_fast, kFastExpected ? plans : 0);
}

TEST(PlanJsonReader, TheFuzzCorpusReadsLikeTheReference) {
  const Cluster cluster = Cluster::from_times({1, 1, 2, 3, 0.5});  // the fuzz target's cluster
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("fuzz/corpus/plan"))) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    agrees_with_reference(text.str(), cluster);
    ++files;
  }
  EXPECT_GT(files, 0);
}

// A plan changed in one place: the fast path declines and the message is
// the reference's, naming the field.
TEST(PlanJsonReader, MalformedPlansGiveTheReferenceMessage) {
  const Cluster cluster = Cluster::from_times({1, 1, 2, 3});
  MakespanRequest request;
  request.root = 0;
  const std::string plan = written(plan_makespan(cluster, request, "fnf"), cluster);
  const std::string first = R"({"from": "p0", "to": "p1", "start": 0, "end": 1, "payload": "value"})";
  ASSERT_NE(plan.find(first), std::string::npos) << plan;
  struct Mutation {
    std::string from, to, message;  // message: "no error" when the plan still reads
  };
  const std::vector<Mutation> mutations = {
      {R"("to": "p1")", R"("to": "zz")", R"(p.json: transfers[0].to: unknown processor "zz")"},
      {R"("start": 0,)", R"("start": "0",)", "p.json: transfers[0].start: must be a number"},
      {R"("end": 1,)", R"("end": 1e999,)", "p.json: unreadable JSON"},
      {R"("payload": "value"})", R"("payload": "val"})", "transfers[0].payload: must be \"value\" or \"partial\""},
      {R"("payload": "value"})", R"("payload": "value", "route": ["p0", "p1"]})",
       "transfers[0].route: routes belong to platform graphs"},
      {R"({"from": "p0",)", R"({"from": "p0", "from": "p0",)", "from: the key appears twice"},
      {R"({"from": "p0",)", R"({)", "transfers[0].from: missing"},
      {R"("transfers": [)", R"("transfers": [1, )", "transfers[0]: must be an object"},
      {R"("transfers": [)", R"("transfers": {"a": [)", "p.json: malformed JSON"},
      {R"("source": "p0", )", "", "p.json: source: missing"},
      {R"("status": "finished")", R"("status": "done")", "p.json: status: must be \"finished\""},
      {R"({"operation")", R"({"transfers": [], "operation")", "transfers: the key appears twice"},
      {R"("from": "p0")", "\"from\": \"p\n0\"", "p.json: malformed JSON"},
      {R"("from": "p0")", R"("from": "p\u0030")", "no error"},  // escaped: reads as p0
      {R"("from": "p0")", R"("from": 0)", "no error"},           // an index: the reference reads it
      {R"("to": "p1")", R"("to": "1")", "no error"},             // an index as a string: find reads it
      {R"("start": 0,)", R"("start": 0, "note": {"x": [1]},)", "no error"},  // an unknown field: ignored
  };
  for (const auto& mutation : mutations) {
    std::string text = plan;
    const auto at = text.find(mutation.from);
    ASSERT_NE(at, std::string::npos) << mutation.from;
    text.replace(at, mutation.from.size(), mutation.to);
    agrees_with_reference(text, cluster);
    const std::string message = testing::input_error_message([&] { parse_plan_json(text, cluster, "p.json"); });
    EXPECT_NE(message.find(mutation.message), std::string::npos) << message << "\n" << text;
  }
  // Trailing text after the plan.
  EXPECT_NE(testing::input_error_message([&] { parse_plan_json(plan + " x", cluster, "p.json"); })
                .find("p.json: malformed JSON"),
            std::string::npos);
}

TEST(PlanJsonReader, TopLevelKeyCheckSaysNoOnlyWhenAParserWouldNotFindIt) {
  EXPECT_FALSE(may_have_top_level_key(R"({"a": {"period": 1}, "b": ["period", {"period": [2]}]})", "period"));
  EXPECT_FALSE(may_have_top_level_key(R"({"a": "{\"period\": 1", "b": "]]"})", "period"));  // braces in strings
  EXPECT_FALSE(may_have_top_level_key(R"(["period", 1])", "period"));
  EXPECT_TRUE(may_have_top_level_key(R"({"a": 1, "period" : 2})", "period"));
  EXPECT_TRUE(may_have_top_level_key(R"({"a": [{"x": "]"}], "period": 2})", "period"));
  EXPECT_TRUE(may_have_top_level_key(R"({"a": "\\", "period": 2})", "period"));  // an escaped backslash
  EXPECT_TRUE(may_have_top_level_key(R"({"a": 1, "p\u0065riod": 2})", "period"));  // maybe: the parser unescapes
  // Against the parser on every plan the writer gives, and on its steady plans' marker.
  const Cluster cluster = Cluster::from_times({1, 2, 3});
  MakespanRequest request;
  request.root = 0;
  const std::string plan = written(plan_makespan(cluster, request), cluster);
  EXPECT_FALSE(may_have_top_level_key(plan, "period"));
  EXPECT_TRUE(may_have_top_level_key(plan, "transfers"));
  EXPECT_TRUE(may_have_top_level_key(plan, "stats"));
  EXPECT_FALSE(may_have_top_level_key(plan, "nodes"));  // a key of "stats", not of the plan
}

}  // namespace
}  // namespace hetcoll
