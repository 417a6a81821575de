// Tests of the drawings in viz/: Gantt charts, communication trees (SVG and
// Graphviz DOT) and line plots. Every SVG is parsed as XML (pugixml), must
// show every processor it promises, must escape ids, must handle n = 1 and
// empty plans, and must stay small for a 100000-processor plan.
//
// With HETCOLL_VIZ_EXAMPLES_DIR set, VizExamples.Write also writes the
// example pictures of docs/images/ to that directory.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/viz/communication_tree.h"
#include "hetcoll/viz/gantt_svg.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/viz/svg_support.h"
#include "hetcoll/viz/tree_dot.h"
#include "hetcoll/viz/tree_svg.h"

namespace hetcoll {
namespace {

// Every processor id of the cluster (Cluster::ids() returns a copy).
std::set<std::string> id_set(const Cluster& cluster) {
  const std::vector<std::string> ids = cluster.ids();
  return {ids.begin(), ids.end()};
}

// The parsed picture; fails the test when `svg` is not well-formed XML
// with an <svg> root element.
pugi::xml_document parse_svg(const std::string& svg) {
  pugi::xml_document document;
  const pugi::xml_parse_result result = document.load_string(svg.c_str());
  EXPECT_TRUE(result) << "not well-formed XML: " << result.description() << " at offset " << result.offset << " near \""
                      << svg.substr(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, result.offset - 40)), 80) << "\"";
  EXPECT_STREQ(document.document_element().name(), "svg");
  return document;
}

// The text content of every <text> element (tspans joined), in document order.
std::vector<std::string> texts_of(const pugi::xml_document& document) {
  std::vector<std::string> texts;
  for (const pugi::xpath_node& node : document.select_nodes("//text")) {
    std::string content;
    for (const pugi::xpath_node& piece : node.node().select_nodes(".//text()")) content += piece.node().value();
    texts.push_back(content);
  }
  return texts;
}

// The contents of <text> or <tspan> elements with the given class.
std::vector<std::string> texts_with_class(const pugi::xml_document& document, const std::string& class_name) {
  std::vector<std::string> texts;
  const std::string query = "//*[contains(concat(' ', @class, ' '), ' " + class_name + " ')]";
  for (const pugi::xpath_node& node : document.select_nodes(query.c_str())) texts.push_back(node.node().text().get());
  return texts;
}

bool any_text_contains(const std::vector<std::string>& texts, const std::string& needle) {
  return std::any_of(texts.begin(), texts.end(), [&](const std::string& text) { return text.find(needle) != std::string::npos; });
}

std::size_t count_of(const std::string& haystack, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size())) ++count;
  return count;
}

// Rectangles drawn with the given fill that carry a <title> tooltip: the
// message bars of a Gantt chart.
std::size_t bars_with_fill(const pugi::xml_document& document, const std::string& fill) {
  const std::string query = "//rect[@fill='" + fill + "' and title]";
  return document.select_nodes(query.c_str()).size();
}

Cluster eight_processors() { return Cluster::from_times({1, 1, 2, 2, 3, 3, 4, 4}); }

Cluster awkward_ids() {
  return Cluster({"a<b>&\"c'", "x&y", "<script>", "plain"}, {1, 2, 2, 3});
}

// The row labels of a Gantt chart: the processor ids, the root with its role.
std::set<std::string> gantt_row_ids(const pugi::xml_document& document) {
  std::set<std::string> ids;
  for (const pugi::xpath_node& node : document.select_nodes("//text[contains(concat(' ', @class, ' '), ' row ')]")) {
    const std::string cls = node.node().attribute("class").value();
    if (cls.find("time") != std::string::npos) continue;
    std::string text = node.node().text().get();
    for (const char* role : {" (source)", " (root)", " (target)"}) {
      if (const auto at = text.find(role); at != std::string::npos) text.erase(at);
    }
    ids.insert(text);
  }
  return ids;
}

// ---------------------------------------------------------------- helpers

TEST(SvgSupport, EscapesXmlSpecialCharacters) {
  EXPECT_EQ(svg::xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(svg::xml_escape(std::string("bell\x07")), "bell?");
  EXPECT_EQ(svg::xml_escape("plain π"), "plain π");
}

TEST(SvgSupport, FormatsNumbersCompactly) {
  EXPECT_EQ(svg::format_number(3), "3");
  EXPECT_EQ(svg::format_number(0.5), "0.5");
  EXPECT_EQ(svg::format_number(4.0 / 3.0), "1.333");
  EXPECT_EQ(svg::format_number(12500), "12500");
  EXPECT_EQ(svg::format_number(-0.0), "0");
  EXPECT_EQ(svg::format_number(0.1 + 0.2), "0.3");
}

TEST(SvgSupport, ShortensOnCodePoints) {
  EXPECT_EQ(svg::shorten("abc", 5), "abc");
  EXPECT_EQ(svg::shorten("abcdef", 4), "abc…");
  EXPECT_EQ(svg::shorten("ééééé", 3), "éé…");  // never cuts inside a UTF-8 sequence
}

TEST(SvgSupport, WrapsLegendNamesAtSpacesInsteadOfCutting) {
  using Lines = std::vector<std::string>;
  EXPECT_EQ(svg::wrap_words("FNF", 10), Lines{"FNF"});
  EXPECT_EQ(svg::wrap_words("PTAS eps = 0.5, paper verbatim (no tightening)", 40),
            (Lines{"PTAS eps = 0.5, paper verbatim (no", "tightening)"}));
  EXPECT_EQ(svg::wrap_words("a bb ccc", 4), (Lines{"a bb", "ccc"}));
  EXPECT_EQ(svg::wrap_words("abcdefgh", 4), Lines{"abc…"});  // one word too long: shortened
  EXPECT_EQ(svg::wrap_words("aa bb cc dd", 2, 2), (Lines{"aa", "b…"}));  // beyond max_lines: the last shortened
  EXPECT_EQ(svg::wrap_words("", 5), Lines{""});
}

TEST(SvgSupport, LinearTicksAreRoundAndCoverTheRange) {
  for (const auto& [low, high] : std::vector<std::pair<double, double>>{{0, 7}, {0, 11}, {0.3, 0.9}, {-2.5, 13.1}, {5, 5}, {0, 1e-6}}) {
    const auto ticks = svg::nice_linear_ticks(low, high, 7);
    ASSERT_GE(ticks.values.size(), 2u) << low << ".." << high;
    EXPECT_LE(ticks.low, low + 1e-9 * ticks.step);
    EXPECT_GE(ticks.high, high - 1e-9 * ticks.step);
    EXPECT_LE(ticks.values.size(), 13u);
    const double mantissa = ticks.step / std::pow(10.0, std::floor(std::log10(ticks.step)));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 2.5) < 1e-9 ||
                std::fabs(mantissa - 5) < 1e-9)
        << ticks.step;
    for (double value : ticks.values) EXPECT_NEAR(std::remainder(value, ticks.step), 0.0, 1e-9 * ticks.step);
  }
}

TEST(SvgSupport, LogTicksUseDecadesAndOneTwoFive) {
  const auto wide = svg::nice_log_ticks(1.2e-4, 0.7);
  EXPECT_DOUBLE_EQ(wide.low, 1e-4);
  EXPECT_DOUBLE_EQ(wide.high, 1);
  EXPECT_EQ(wide.values.size(), 5u);
  const auto many = svg::nice_log_ticks(1e-3, 1e20);  // every k-th decade, still covering the data
  EXPECT_LE(many.values.size(), 10u);
  EXPECT_LE(many.low, 1e-3);
  EXPECT_GE(many.high, 1e20);
  // Processor counts from a power of two to another: ticks on them, the axis
  // starting and ending at the data; every k-th power for long ranges.
  const auto powers_of_two = svg::nice_log_ticks(4, 256);
  EXPECT_EQ(powers_of_two.values, (std::vector<double>{4, 8, 16, 32, 64, 128, 256}));
  EXPECT_LT(powers_of_two.low, 4);
  EXPECT_GT(powers_of_two.low, 3);
  EXPECT_GT(powers_of_two.high, 256);
  EXPECT_LT(powers_of_two.high, 320);
  EXPECT_EQ(svg::nice_log_ticks(1, 65536).values, (std::vector<double>{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536}));
  EXPECT_EQ(svg::nice_log_ticks(4, 100).values, (std::vector<double>{2, 5, 10, 20, 50, 100}));  // 100 is no power of two
  const auto narrow = svg::nice_log_ticks(3, 40);
  EXPECT_EQ(narrow.values, (std::vector<double>{2, 5, 10, 20, 50}));
  EXPECT_EQ(svg::format_log_ticks({1e3, 1e4, 1e6}), (std::vector<std::string>{"10³", "10⁴", "10⁶"}));
  EXPECT_EQ(svg::format_log_ticks({0.01, 0.1, 1}), (std::vector<std::string>{"0.01", "0.1", "1"}));
  EXPECT_EQ(svg::format_log_ticks({1e-4, 5e-4}), (std::vector<std::string>{"10⁻⁴", "5×10⁻⁴"}));
}

// --------------------------------------------------------- communication tree

TEST(CommunicationTree, BroadcastTreeFollowsFirstReceives) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  const auto phases = communication_tree(plan, cluster);
  ASSERT_EQ(phases.size(), 1u);
  const TreePhase& tree = phases.front();
  EXPECT_FALSE(tree.points_to_root());
  ASSERT_EQ(tree.nodes.size(), 8u);
  EXPECT_EQ(tree.nodes.front().processor, 0);
  EXPECT_TRUE(tree.detached.empty());
  const auto parent = parents_of(plan, cluster.size());
  for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
    const TreeNode& node = tree.nodes[i];
    EXPECT_EQ(tree.nodes[node.parent].processor, parent[static_cast<std::size_t>(node.processor)]);
    EXPECT_EQ(node.depth, tree.nodes[node.parent].depth + 1);
    EXPECT_GE(node.depth, tree.nodes[i - 1].depth);  // breadth-first
    EXPECT_DOUBLE_EQ(node.ready_time, node.link_end);
  }
  for (const TreeNode& node : tree.nodes) {
    for (std::size_t k = 1; k < node.children.size(); ++k) {
      EXPECT_LE(tree.nodes[node.children[k - 1]].link_start, tree.nodes[node.children[k]].link_start);
    }
  }
}

TEST(CommunicationTree, ReduceTreePointsToTheRoot) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_reduce_snf(cluster, 0);
  const auto phases = communication_tree(plan, cluster);
  ASSERT_EQ(phases.size(), 1u);
  const TreePhase& tree = phases.front();
  EXPECT_TRUE(tree.points_to_root());
  ASSERT_EQ(tree.nodes.size(), 8u);
  for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
    const TreeNode& node = tree.nodes[i];
    // The link is the node's own send, to its parent.
    const auto sends = std::count_if(plan.transfers.begin(), plan.transfers.end(), [&](const Transfer& transfer) {
      return transfer.from == node.processor && transfer.to == tree.nodes[node.parent].processor &&
             transfer.start == node.link_start && transfer.end == node.link_end;
    });
    EXPECT_EQ(sends, 1) << cluster.id(node.processor);
    EXPECT_LE(node.ready_time, node.link_start);  // all inputs in before it sends
  }
  EXPECT_DOUBLE_EQ(tree.nodes.front().ready_time, plan.makespan);
}

TEST(CommunicationTree, AllReduceHasTwoPhases) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_allreduce_snf_fnf(cluster, kNoProcessor);
  const auto phases = communication_tree(plan, cluster);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_TRUE(phases[0].points_to_root());
  EXPECT_FALSE(phases[1].points_to_root());
  EXPECT_EQ(phases[0].nodes.size(), 8u);
  EXPECT_EQ(phases[1].nodes.size(), 8u);
  EXPECT_DOUBLE_EQ(phases[1].start_time, phases[0].end_time);
  EXPECT_DOUBLE_EQ(phases[1].end_time, plan.makespan);
}

TEST(CommunicationTree, BrokenPlansStillGiveATree) {
  const Cluster cluster = Cluster::from_times({1, 1, 1, 1});
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.root = 0;
  // p2 and p3 send to each other but nobody reaches them; one transfer names
  // a processor that does not exist.
  plan.transfers = {{0, 1, 0, 1}, {2, 3, 0, 1}, {3, 2, 1, 2}, {0, 9, 1, 2}};
  const auto phases = communication_tree(plan, cluster);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases.front().nodes.size(), 2u);
  EXPECT_EQ(phases.front().detached, (std::vector<ProcessorIndex>{2, 3}));
  EXPECT_NO_THROW(parse_svg(tree_svg(plan, cluster)));
  EXPECT_NO_THROW(parse_svg(gantt_svg(plan, cluster)));
}

// ------------------------------------------------------------------- Gantt

TEST(GanttSvg, BroadcastHasEveryRowAndEveryMessageTwice) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  const std::string svg = gantt_svg(plan, cluster);
  const auto document = parse_svg(svg);
  EXPECT_EQ(gantt_row_ids(document), id_set(cluster));
  EXPECT_EQ(bars_with_fill(document, "#0072B2"), plan.transfers.size());              // sends
  EXPECT_EQ(bars_with_fill(document, "url(#hatch-value)"), plan.transfers.size());    // receives
  const auto texts = texts_of(document);
  EXPECT_TRUE(any_text_contains(texts, "Broadcast from p0"));
  EXPECT_TRUE(any_text_contains(texts, "makespan " + svg::format_number(plan.makespan)));
  EXPECT_TRUE(any_text_contains(texts, "lower bound " + svg::format_number(plan.lower_bound)));
  EXPECT_TRUE(any_text_contains(texts, "guarantee ≤ 1.5 × optimal"));
  EXPECT_TRUE(any_text_contains(texts, "t=4"));
  EXPECT_TRUE(any_text_contains(texts, "receive (message)"));  // legend
}

TEST(GanttSvg, AllReducePhasesHaveTheirOwnColours) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_allreduce_snf_fnf(cluster, kNoProcessor);
  const auto document = parse_svg(gantt_svg(plan, cluster));
  const auto partial = static_cast<std::size_t>(std::count_if(plan.transfers.begin(), plan.transfers.end(), [](const Transfer& t) {
    return t.payload == Payload::partial_reduction;
  }));
  EXPECT_EQ(partial, 7u);
  EXPECT_EQ(bars_with_fill(document, "#E69F00"), partial);
  EXPECT_EQ(bars_with_fill(document, "#0072B2"), plan.transfers.size() - partial);
  const auto legend = texts_with_class(document, "legend");
  EXPECT_TRUE(any_text_contains(legend, "send (reduce phase)"));
  EXPECT_TRUE(any_text_contains(legend, "receive (broadcast phase)"));
}

TEST(GanttSvg, EscapesIds) {
  const Cluster cluster = awkward_ids();
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  const std::string svg = gantt_svg(plan, cluster);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_EQ(svg.find("a<b>"), std::string::npos);
  const auto document = parse_svg(svg);
  EXPECT_EQ(gantt_row_ids(document), id_set(cluster));
}

TEST(GanttSvg, SingleProcessorAndEmptyPlans) {
  const Cluster one = Cluster::from_times({2});
  const MakespanPlan lonely = plan_broadcast_fnf(one, 0);
  EXPECT_TRUE(lonely.transfers.empty());
  const auto document = parse_svg(gantt_svg(lonely, one));
  EXPECT_EQ(gantt_row_ids(document), std::set<std::string>{"p0"});
  EXPECT_TRUE(any_text_contains(texts_of(document), "No messages"));

  const Cluster three = Cluster::from_times({1, 2, 3});
  MakespanPlan empty;  // no root, no algorithm, no numbers
  const auto empty_document = parse_svg(gantt_svg(empty, three));
  EXPECT_EQ(gantt_row_ids(empty_document).size(), 3u);
  for (Operation operation : {Operation::reduce, Operation::allreduce, Operation::multicast}) {
    empty.operation = operation;
    parse_svg(gantt_svg(empty, three));
  }
  parse_svg(gantt_svg(MakespanPlan{}, Cluster{}));  // no processors at all
}

TEST(GanttSvg, TransfersNamingUnknownProcessorsAreSkippedAndReported) {
  const Cluster cluster = Cluster::from_times({1, 1});
  MakespanPlan plan;
  plan.root = 0;
  plan.transfers = {{0, 1, 0, 1}, {0, 7, 1, 2}, {-3, 1, 1, 2}};
  const auto document = parse_svg(gantt_svg(plan, cluster));
  EXPECT_EQ(bars_with_fill(document, "#0072B2"), 1u);
  EXPECT_TRUE(any_text_contains(texts_of(document), "2 messages naming processors outside the cluster"));
}

TEST(GanttSvg, HundredThousandProcessorsStaySmall) {
  std::vector<double> times;
  for (int i = 0; i < 100000; ++i) times.push_back(1 + i % 7);
  const Cluster cluster = Cluster::from_times(times);
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  // The summary: the source's row, then one row per class of times.
  const std::string svg = gantt_svg(plan, cluster);
  EXPECT_LT(svg.size(), 1'000'000u);
  const auto document = parse_svg(svg);
  // 100000 = 7 x 14285 + 5: times 1..5 have 14286 processors, 6 and 7 have
  // 14285, and the source p0 (t = 1) has its own row.
  EXPECT_EQ(gantt_row_ids(document), (std::set<std::string>{"p0", "14285 processors", "14286 processors"}));
  EXPECT_EQ(document.select_nodes("//text[@class='row time']").size(), 8u);
  EXPECT_TRUE(any_text_contains(texts_of(document), "100000 processors: one row per class"));
  EXPECT_EQ(document.select_nodes("//rect[title]").size(), 0u);  // no per-message bars
  EXPECT_GE(document.select_nodes("//path[@fill='#0072B2']").size(), 1u);                // the fast classes send
  EXPECT_EQ(document.select_nodes("//path[@fill='url(#hatch-value)']").size(), 7u);  // every class receives

  // Without the summary: the first rows.
  GanttOptions first_rows;
  first_rows.summary = false;
  const auto rows_document = parse_svg(gantt_svg(plan, cluster, first_rows));
  EXPECT_EQ(gantt_row_ids(rows_document).size(), 200u);
  EXPECT_TRUE(any_text_contains(texts_of(rows_document), "Only the first 200 of 100000 processors"));

  GanttOptions few;
  few.summary = false;
  few.max_rows = 10;
  few.max_transfers = 25;
  const std::string capped = gantt_svg(plan, cluster, few);
  const auto capped_document = parse_svg(capped);
  EXPECT_EQ(gantt_row_ids(capped_document).size(), 10u);
  EXPECT_LE(capped_document.select_nodes("//rect[title]").size(), 2 * few.max_transfers);
  EXPECT_TRUE(any_text_contains(texts_of(capped_document), "25 of the"));
}

TEST(GanttSvg, StarBroadcastIsCappedByTransfers) {
  // One processor sending to 20000 others: one row holds every message.
  const int n = 20001;
  const Cluster cluster = Cluster::from_times(std::vector<double>(n, 1.0));
  MakespanPlan plan;
  plan.root = 0;
  for (int p = 1; p < n; ++p) plan.transfers.push_back({0, p, p - 1.0, static_cast<double>(p)});
  plan.makespan = n - 1;
  GanttOptions first_rows;
  first_rows.summary = false;
  const std::string svg = gantt_svg(plan, cluster, first_rows);
  EXPECT_LT(svg.size(), 3'000'000u);
  const auto document = parse_svg(svg);
  EXPECT_EQ(bars_with_fill(document, "#0072B2"), 4000u);
  EXPECT_TRUE(any_text_contains(texts_of(document), "4000 of the 20000 messages"));
}

// Multicast from p0 to p3 and p4, relayed by the helper p1; p2 takes no part.
MakespanPlan small_multicast() {
  MakespanPlan plan;
  plan.operation = Operation::multicast;
  plan.algorithm = "hand-made";
  plan.root = 0;
  plan.targets = {3, 4};
  plan.transfers = {{0, 1, 0, 1}, {0, 3, 1, 2}, {1, 4, 1, 2}};
  plan.makespan = 2;
  return plan;
}

TEST(GanttSvg, MulticastMarksTargets) {
  const Cluster cluster = Cluster::from_times({1, 1, 1, 1, 1});
  const auto document = parse_svg(gantt_svg(small_multicast(), cluster));
  const auto rows = texts_with_class(document, "row");
  EXPECT_TRUE(any_text_contains(rows, "p3 (target)"));
  EXPECT_TRUE(any_text_contains(rows, "p4 (target)"));
  EXPECT_FALSE(any_text_contains(rows, "p1 (target)"));
  EXPECT_TRUE(any_text_contains(texts_of(document), "Multicast from p0 to 2 targets"));
}

// Arrows join send and receive through empty row space only: no full arrow
// runs across a bar of a row between its ends; a message whose rows between
// are busy all along gets ticks instead, so every message has one or the other.
TEST(GanttSvg, ArrowsCrossNoBarOfTheRowsBetween) {
  const Cluster cluster = Cluster::from_times({1, 1, 2, 1, 2, 4, 2, 1, 2, 2, 1, 2, 4, 1, 2, 1});
  for (const MakespanPlan& plan : {plan_broadcast_fnf(cluster, 0), plan_allreduce_snf_fnf(cluster, kNoProcessor)}) {
    const auto document = parse_svg(gantt_svg(plan, cluster));
    struct Bar {
      double left, right, top, bottom;
    };
    std::vector<Bar> bars;
    for (const pugi::xpath_node& node : document.select_nodes("//rect[title]")) {
      const pugi::xml_node rect = node.node();
      const double x = rect.attribute("x").as_double(), y = rect.attribute("y").as_double();
      bars.push_back({x, x + rect.attribute("width").as_double(), y, y + rect.attribute("height").as_double()});
    }
    ASSERT_EQ(bars.size(), 2 * plan.transfers.size());
    const auto arrows = document.select_nodes("//line[@class='arrow']");
    const auto receive_ticks = document.select_nodes("//line[@class='arrow-tick' and @marker-end]");
    EXPECT_GT(arrows.size(), 0u);
    EXPECT_GT(receive_ticks.size(), 0u);  // this plan has busy rows between some ends
    EXPECT_EQ(arrows.size() + receive_ticks.size(), plan.transfers.size());
    std::size_t crossings = 0;
    for (const pugi::xpath_node& node : arrows) {
      const pugi::xml_node line = node.node();
      const double x = line.attribute("x1").as_double();
      const double low = std::min(line.attribute("y1").as_double(), line.attribute("y2").as_double());
      const double high = std::max(line.attribute("y1").as_double(), line.attribute("y2").as_double());
      for (const Bar& bar : bars) {
        // A bar strictly between the arrow's ends (not the two bars it joins).
        if (bar.top > low && bar.bottom < high && x >= bar.left && x <= bar.right) ++crossings;
      }
    }
    EXPECT_EQ(crossings, 0u);
  }
}

// A plan on a platform graph with more participants than rows: one summary
// row per site (4 sites of 60 hosts), not the first 200 hosts.
TEST(GanttSvg, LargeGraphPlansAreSummarisedPerSite) {
  constexpr int kSites = 4, kHostsPerSite = 60;
  std::vector<PlatformNode> nodes = {PlatformNode::forwarder("wan")};
  std::vector<PlatformEdge> edges;
  auto link = [&edges](ProcessorIndex a, ProcessorIndex b, double cost) {
    edges.push_back(PlatformEdge::with_cost(a, b, cost));
    edges.push_back(PlatformEdge::with_cost(b, a, cost));
  };
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "hand-made";
  for (int site = 0; site < kSites; ++site) {
    const auto gateway = static_cast<ProcessorIndex>(nodes.size());
    nodes.push_back(PlatformNode::forwarder(fmt::format("switch{}", site)));
    link(0, gateway, 10);
    for (int host = 0; host < kHostsPerSite; ++host) {
      const auto index = static_cast<ProcessorIndex>(nodes.size());
      nodes.push_back(PlatformNode::host(fmt::format("s{}-h{}", site, host)));
      link(gateway, index, 1);
      // Each site's hosts pass the message along; the first host of each
      // site gets it from the source (s0-h0) over the WAN.
      if (host > 0) plan.transfers.push_back({index - 1, index, 10.0 * site + host - 1, 10.0 * site + host});
      if (host == 0 && site > 0) plan.transfers.push_back({2, index, 10.0 * site - 10, 10.0 * site});
    }
  }
  plan.root = 2;  // s0-h0
  plan.makespan = 10.0 * (kSites - 1) + kHostsPerSite - 1;
  const Platform platform(nodes, edges, "four sites");
  const GraphNetwork network(platform, std::nullopt);
  const auto document = parse_svg(gantt_svg(plan, network));
  const auto rows = texts_with_class(document, "row");
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const std::string& row) { return row == "60 participants"; }), 3);
  EXPECT_TRUE(any_text_contains(rows, "59 participants"));  // site 0 without its source
  EXPECT_TRUE(any_text_contains(rows, "site 3"));
  EXPECT_TRUE(any_text_contains(rows, "s0-h0 (source)"));
  EXPECT_FALSE(any_text_contains(rows, "s0-h1"));
  EXPECT_TRUE(any_text_contains(texts_of(document), "240 participants: one row per site"));
  EXPECT_GE(document.select_nodes("//path[@fill='#0072B2']").size(), 4u);  // sending shares

  GanttOptions first_rows;
  first_rows.summary = false;
  const auto rows_only = texts_with_class(parse_svg(gantt_svg(plan, network, first_rows)), "row");
  EXPECT_TRUE(any_text_contains(rows_only, "s0-h1"));
}

// -------------------------------------------------------------- tree (SVG)

std::set<std::string> tree_box_ids(const pugi::xml_document& document) {
  const auto ids = texts_with_class(document, "id");
  return {ids.begin(), ids.end()};
}

TEST(TreeSvg, BroadcastAndReduceShowEveryProcessor) {
  const Cluster cluster = eight_processors();
  const std::set<std::string> all_ids = id_set(cluster);
  for (const MakespanPlan& plan : {plan_broadcast_fnf(cluster, 0), plan_reduce_snf(cluster, 0)}) {
    const std::string svg = tree_svg(plan, cluster);
    const auto document = parse_svg(svg);
    EXPECT_EQ(tree_box_ids(document), all_ids);
    EXPECT_EQ(document.select_nodes("//path[@marker-end]").size(), 7u);  // one edge per non-root
    const auto edge_labels = texts_with_class(document, "edge-label");
    EXPECT_EQ(edge_labels.size(), 7u);
    const Transfer& first = plan.transfers.front();
    EXPECT_TRUE(any_text_contains(edge_labels, svg::format_number(first.start) + "–" + svg::format_number(first.end)));
    const bool reduce = plan.operation == Operation::reduce;
    EXPECT_NE(svg.find(reduce ? "url(#arrow-partial)" : "url(#arrow-value)"), std::string::npos);
  }
}

TEST(TreeSvg, AllReduceDrawsBothPhases) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_allreduce_snf_fnf(cluster, kNoProcessor);
  const auto document = parse_svg(tree_svg(plan, cluster));
  const auto panels = texts_with_class(document, "panel");
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_TRUE(any_text_contains(panels, "Phase 1"));
  EXPECT_TRUE(any_text_contains(panels, "Phase 2"));
  EXPECT_EQ(texts_with_class(document, "id").size(), 16u);
  EXPECT_EQ(document.select_nodes("//path[@marker-end='url(#arrow-partial)']").size(), 7u);
  EXPECT_EQ(document.select_nodes("//path[@marker-end='url(#arrow-value)']").size(), 7u);
}

TEST(TreeSvg, MulticastShowsHelpersAndAbsentProcessors) {
  const Cluster cluster = Cluster::from_times({1, 1, 1, 1, 1});
  const std::string svg = tree_svg(small_multicast(), cluster);
  const auto document = parse_svg(svg);
  EXPECT_EQ(tree_box_ids(document), (std::set<std::string>{"p0", "p1", "p3", "p4"}));
  EXPECT_TRUE(any_text_contains(texts_of(document), "helper · ready 1"));
  EXPECT_TRUE(any_text_contains(texts_of(document), "1 processor takes no part"));
  const std::string dot = tree_dot(small_multicast(), cluster);
  EXPECT_NE(dot.find("helper, ready 1"), std::string::npos);
  EXPECT_NE(dot.find("1 processor takes no part"), std::string::npos);
  EXPECT_EQ(count_of(dot, " -> "), 3u);
}

TEST(TreeSvg, BothDirectionsWork) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  for (auto direction : {TreeSvgOptions::Direction::top_down, TreeSvgOptions::Direction::left_to_right}) {
    TreeSvgOptions options;
    options.direction = direction;
    const auto document = parse_svg(tree_svg(plan, cluster, options));
    EXPECT_EQ(tree_box_ids(document).size(), 8u);
  }
}

// A chain of 60 processors (each forwards to the next) is 60 levels deep:
// drawn in one column it would be about 5000 px tall. It is wrapped into
// bands that fit a screen, every processor still drawn once, no two boxes
// overlapping, and each band after the first opens with a dashed copy of
// the parent it continues from.
// A broadcast passed along a chain p0 -> p1 -> ... (one message per unit of time).
MakespanPlan chain_broadcast(const Cluster& cluster) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "hand-made chain";
  plan.root = 0;
  for (ProcessorIndex p = 0; p + 1 < cluster.size(); ++p) {
    plan.transfers.push_back({p, p + 1, static_cast<double>(p), static_cast<double>(p + 1)});
  }
  plan.makespan = static_cast<double>(cluster.size() - 1);
  return plan;
}

// Rectangles of a drawing (boxes, badges) and how many pairs of them overlap.
struct SvgRect {
  double x, y, width, height;
  bool holds(double px, double py) const { return px >= x && px <= x + width && py >= y && py <= y + height; }
  bool overlaps(const SvgRect& other) const {
    return !(x + width <= other.x || other.x + other.width <= x || y + height <= other.y || other.y + other.height <= y);
  }
};

std::vector<SvgRect> rects_of(const pugi::xml_document& document, const char* xpath) {
  std::vector<SvgRect> rects;
  for (const pugi::xpath_node& node : document.select_nodes(xpath)) {
    const pugi::xml_node rect = node.node();
    rects.push_back({rect.attribute("x").as_double(), rect.attribute("y").as_double(), rect.attribute("width").as_double(),
                     rect.attribute("height").as_double()});
  }
  return rects;
}

std::size_t overlapping_pairs(const std::vector<SvgRect>& rects) {
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < rects.size(); ++i) {
    for (std::size_t j = i + 1; j < rects.size(); ++j) pairs += rects[i].overlaps(rects[j]);
  }
  return pairs;
}

TEST(TreeSvg, DeepTreesAreWrappedIntoBandsThatFit) {
  const Cluster cluster = Cluster::from_times(std::vector<double>(60, 1.0));
  const MakespanPlan plan = chain_broadcast(cluster);
  for (auto direction : {TreeSvgOptions::Direction::automatic, TreeSvgOptions::Direction::left_to_right}) {
    TreeSvgOptions options;
    options.direction = direction;
    const auto document = parse_svg(tree_svg(plan, cluster, options));
    const pugi::xml_node root = document.document_element();
    EXPECT_LE(root.attribute("width").as_double(), 2000);
    EXPECT_LE(root.attribute("height").as_double(), 2000);
    EXPECT_EQ(texts_with_class(document, "id").size(), 60u);
    EXPECT_EQ(tree_box_ids(document).size(), 60u);
    const auto copies = texts_with_class(document, "continued-id");
    ASSERT_GE(copies.size(), 3u);
    EXPECT_EQ(document.select_nodes("//line[@class='continues']").size(), copies.size());
    EXPECT_TRUE(any_text_contains(texts_of(document), "drawn in bands of"));
    const auto boxes = rects_of(document, "//g/rect");
    EXPECT_EQ(boxes.size(), 60u + copies.size());
    EXPECT_EQ(overlapping_pairs(boxes), 0u);
  }
}

// A star: the root serves (broadcast) or hears from (reduce) processor i
// during [i - 1, i].
MakespanPlan star_plan(const Cluster& cluster, Operation operation) {
  MakespanPlan plan;
  plan.operation = operation;
  plan.algorithm = "hand-made star";
  plan.root = 0;
  for (ProcessorIndex p = 1; p < cluster.size(); ++p) {
    const double end = static_cast<double>(p);
    if (operation == Operation::reduce) {
      plan.transfers.push_back({p, 0, end - 1, end});
    } else {
      plan.transfers.push_back({0, p, end - 1, end});
    }
  }
  plan.makespan = static_cast<double>(cluster.size() - 1);
  return plan;
}

// The corners of an SVG path made of M, H and V commands ("M1,2 H3 V4").
std::vector<std::pair<double, double>> path_corners(const std::string& d) {
  std::vector<std::pair<double, double>> corners;
  std::istringstream in(d);
  std::string token;
  double x = 0, y = 0;
  while (in >> token) {
    const char command = token.front();
    const std::string value = token.substr(1);
    if (command == 'M') {
      const auto comma = value.find(',');
      x = std::stod(value.substr(0, comma));
      y = std::stod(value.substr(comma + 1));
    } else if (command == 'H') {
      x = std::stod(value);
    } else if (command == 'V') {
      y = std::stod(value);
    } else {
      ADD_FAILURE() << "unexpected path command in " << d;
    }
    corners.emplace_back(x, y);
  }
  return corners;
}

// Where each edge of a tree drawing starts and ends (indices into `boxes`),
// how many ends lie in no box, and how many times an edge passes through a
// box that is neither of its ends.
struct EdgeEnds {
  std::vector<std::pair<std::size_t, std::size_t>> box_pairs;
  std::size_t unattached = 0, crossings = 0;
};

EdgeEnds edge_ends(const pugi::xml_document& document, const std::vector<SvgRect>& boxes) {
  EdgeEnds ends;
  auto box_holding = [&boxes](const std::pair<double, double>& point) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      if (boxes[i].holds(point.first, point.second)) return i;
    }
    return boxes.size();
  };
  for (const pugi::xpath_node& edge : document.select_nodes("//path[@marker-end]")) {
    const auto corners = path_corners(edge.node().attribute("d").as_string());
    if (corners.size() < 2) {
      ++ends.unattached;
      continue;
    }
    const std::size_t from = box_holding(corners.front()), to = box_holding(corners.back());
    ends.unattached += (from == boxes.size()) + (to == boxes.size());
    ends.box_pairs.emplace_back(from, to);
    for (std::size_t k = 1; k < corners.size(); ++k) {
      const double x0 = std::min(corners[k - 1].first, corners[k].first), x1 = std::max(corners[k - 1].first, corners[k].first);
      const double y0 = std::min(corners[k - 1].second, corners[k].second), y1 = std::max(corners[k - 1].second, corners[k].second);
      for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (i == from || i == to) continue;
        const SvgRect& box = boxes[i];
        ends.crossings += x0 < box.x + box.width && x1 > box.x && y0 < box.y + box.height && y1 > box.y;
      }
    }
  }
  return ends;
}

// A root with 150 leaf children (p0 with t = 1 beside 150 processors with
// t = 200) was drawn as one column, 839 x 3986 px. Its children are now
// drawn in several columns: the picture is about as wide as tall, every
// drawn child is still there once, no two boxes overlap, and every edge
// runs from the root's box to one child's box without crossing any other.
TEST(TreeSvg, WideStarsAreDrawnInColumnsThatFit) {
  std::vector<double> times(151, 200.0);
  times[0] = 1;
  const Cluster cluster = Cluster::from_times(times);
  for (const Operation operation : {Operation::broadcast, Operation::reduce}) {
    SCOPED_TRACE(operation == Operation::reduce ? "reduce" : "broadcast");
    const auto document = parse_svg(tree_svg(star_plan(cluster, operation), cluster));
    const pugi::xml_node root = document.document_element();
    const double width = root.attribute("width").as_double(), height = root.attribute("height").as_double();
    EXPECT_LE(std::max(width, height), 3 * std::min(width, height)) << width << " x " << height;
    EXPECT_LE(std::max(width, height), 2000);
    EXPECT_EQ(tree_box_ids(document).size(), TreeSvgOptions{}.max_nodes);
    EXPECT_TRUE(any_text_contains(texts_of(document), "drawn in framed columns"));
    // Boxes, without the "+k" badge the root carries (one child is not drawn).
    const auto boxes = rects_of(document, "//g[title]/rect[not(@fill='#666666')]");
    ASSERT_EQ(boxes.size(), TreeSvgOptions{}.max_nodes);
    std::set<double> child_columns;
    for (std::size_t i = 1; i < boxes.size(); ++i) child_columns.insert(boxes[i].x);
    EXPECT_GE(child_columns.size(), 3u);
    EXPECT_EQ(overlapping_pairs(boxes), 0u);
    // Box 0 is the root's (boxes are drawn in breadth-first order).
    const EdgeEnds ends = edge_ends(document, boxes);
    EXPECT_EQ(ends.unattached, 0u);
    EXPECT_EQ(ends.crossings, 0u);
    std::set<std::size_t> children_reached;
    for (const auto& [from, to] : ends.box_pairs) {
      // Reduce edges start at the child.
      EXPECT_EQ(operation == Operation::reduce ? to : from, 0u);
      children_reached.insert(operation == Operation::reduce ? from : to);
    }
    EXPECT_EQ(children_reached.size(), boxes.size() - 1);
  }
}

// The 600-processor FNF tree (its first 150 nodes, 10 below the root) was
// drawn 1011 x 3180 px; the root's subtrees now go into columns side by
// side, the picture about screen-shaped, no box overlapping another and
// every edge joining two boxes without crossing a third.
TEST(TreeSvg, WideTreesFoldTheirSubtreesIntoColumns) {
  std::vector<double> times;
  for (int i = 0; i < 600; ++i) times.push_back(1 + (i * 7) % 5);
  const Cluster cluster = Cluster::from_times(times);
  const auto document = parse_svg(tree_svg(plan_broadcast_fnf(cluster, 0), cluster));
  const pugi::xml_node root = document.document_element();
  const double width = root.attribute("width").as_double(), height = root.attribute("height").as_double();
  EXPECT_LE(std::max(width, height), 3 * std::min(width, height)) << width << " x " << height;
  EXPECT_LE(height, 2000) << width << " x " << height;
  const auto boxes = rects_of(document, "//g[title]/rect[not(@fill='#666666')]");
  ASSERT_EQ(boxes.size(), TreeSvgOptions{}.max_nodes);
  EXPECT_EQ(overlapping_pairs(boxes), 0u);
  const EdgeEnds ends = edge_ends(document, boxes);
  EXPECT_EQ(ends.box_pairs.size(), boxes.size() - 1);
  EXPECT_EQ(ends.unattached, 0u);
  EXPECT_EQ(ends.crossings, 0u);
  EXPECT_TRUE(any_text_contains(texts_of(document), "drawn in framed columns"));
}

// A chain of 30 processors whose last one serves 110 more: wrapped into
// bands alone, the star at its end made the picture 4256 x 3026 px; bands
// and columns chosen together fit it on a screen.
TEST(TreeSvg, ChainEndingInAStarFoldsBothWays) {
  const Cluster cluster = Cluster::from_times(std::vector<double>(140, 1.0));
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "hand-made chain and star";
  plan.root = 0;
  double time = 0;
  for (ProcessorIndex p = 1; p < cluster.size(); ++p, time += 1) plan.transfers.push_back({p < 30 ? p - 1 : 29, p, time, time + 1});
  plan.makespan = time;
  const auto document = parse_svg(tree_svg(plan, cluster));
  const pugi::xml_node root = document.document_element();
  const double width = root.attribute("width").as_double(), height = root.attribute("height").as_double();
  EXPECT_LE(std::max(width, height), 2000) << width << " x " << height;
  EXPECT_LE(std::max(width, height), 3 * std::min(width, height)) << width << " x " << height;
  EXPECT_EQ(tree_box_ids(document).size(), 140u);
  EXPECT_TRUE(any_text_contains(texts_of(document), "drawn in bands of"));
  EXPECT_TRUE(any_text_contains(texts_of(document), "drawn in framed columns"));
  EXPECT_EQ(overlapping_pairs(rects_of(document, "//g/rect")), 0u);
}

TEST(TreeSvg, EscapesIdsAndHandlesTinyPlans) {
  const Cluster cluster = awkward_ids();
  const std::string svg = tree_svg(plan_reduce_snf(cluster, 1), cluster);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_EQ(tree_box_ids(parse_svg(svg)), id_set(cluster));

  const Cluster one = Cluster::from_times({2});
  for (const MakespanPlan& plan :
       {plan_broadcast_fnf(one, 0), plan_reduce_snf(one, 0), plan_allreduce_snf_fnf(one, kNoProcessor)}) {
    const auto document = parse_svg(tree_svg(plan, one));
    EXPECT_EQ(tree_box_ids(document), std::set<std::string>{"p0"});
  }
  const Cluster three = Cluster::from_times({1, 2, 3});
  const auto empty_document = parse_svg(tree_svg(MakespanPlan{}, three));
  EXPECT_TRUE(any_text_contains(texts_of(empty_document), "2 processors are not reached"));
  parse_svg(tree_svg(MakespanPlan{}, Cluster{}));
}

// Badges ("+k": children not drawn) of a 600-processor tree touch no other
// node's box, in both directions.
TEST(TreeSvg, BadgesOfLargeTreesOverlapNoBox) {
  std::vector<double> times;
  for (int i = 0; i < 600; ++i) times.push_back(1 + (i * 7) % 5);
  const Cluster cluster = Cluster::from_times(times);
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  for (auto direction : {TreeSvgOptions::Direction::automatic, TreeSvgOptions::Direction::top_down}) {
    TreeSvgOptions options;
    options.direction = direction;
    const auto document = parse_svg(tree_svg(plan, cluster, options));
    struct Box {
      double x, y, width, height;
    };
    auto box_of = [](const pugi::xml_node& rect) {
      return Box{rect.attribute("x").as_double(), rect.attribute("y").as_double(), rect.attribute("width").as_double(),
                 rect.attribute("height").as_double()};
    };
    std::vector<Box> boxes, badges;
    for (const pugi::xpath_node& node : document.select_nodes("//g[title]/rect[not(@fill='#666666')]")) boxes.push_back(box_of(node.node()));
    for (const pugi::xpath_node& node : document.select_nodes("//rect[@fill='#666666']")) badges.push_back(box_of(node.node()));
    ASSERT_GT(badges.size(), 10u);
    ASSERT_GE(boxes.size(), 150u);
    std::size_t overlaps = 0;
    for (const Box& badge : badges) {
      std::size_t touched = 0;  // the badge's own box may hold it; no second box may
      for (const Box& box : boxes) {
        const bool apart = badge.x + badge.width <= box.x || box.x + box.width <= badge.x ||
                           badge.y + badge.height <= box.y || box.y + box.height <= badge.y;
        touched += !apart;
      }
      overlaps += touched > 1;
    }
    EXPECT_EQ(overlaps, 0u);
  }
}

TEST(TreeSvg, HundredThousandProcessorsAreCapped) {
  std::vector<double> times;
  for (int i = 0; i < 100000; ++i) times.push_back(1 + i % 7);
  const Cluster cluster = Cluster::from_times(times);
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  const std::string svg = tree_svg(plan, cluster);
  EXPECT_LT(svg.size(), 1'000'000u);
  const auto document = parse_svg(svg);
  EXPECT_EQ(texts_with_class(document, "id").size(), TreeSvgOptions{}.max_nodes);
  EXPECT_TRUE(any_text_contains(texts_of(document), "99850 left out"));
  EXPECT_FALSE(texts_with_class(document, "badge").empty());
}

// -------------------------------------------------------------- tree (DOT)

TEST(TreeDot, BroadcastNodesEdgesAndLabels) {
  const Cluster cluster = eight_processors();
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  const std::string dot = tree_dot(plan, cluster);
  EXPECT_EQ(dot.rfind("//", 0), 0u);
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_EQ(count_of(dot, "{"), count_of(dot, "}"));
  EXPECT_EQ(count_of(dot, " -> "), 7u);
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    const std::string node_line = fmt::format("b{} [label=\"{}  t=", p, cluster.id(p));
    EXPECT_NE(dot.find(node_line), std::string::npos) << node_line;
  }
  EXPECT_NE(dot.find("source, ready 0"), std::string::npos);
  EXPECT_NE(dot.find("b0 -> b1 [label=\" 0–1\"]"), std::string::npos);
  EXPECT_EQ(dot.find("dir=back"), std::string::npos);
}

TEST(TreeDot, ReduceEdgesPointToTheRootAndAllReduceHasTwoClusters) {
  const Cluster cluster = eight_processors();
  const std::string reduce = tree_dot(plan_reduce_snf(cluster, 0), cluster);
  EXPECT_NE(reduce.find("dir=back"), std::string::npos);
  EXPECT_EQ(count_of(reduce, " -> "), 7u);
  const std::string allreduce = tree_dot(plan_allreduce_snf_fnf(cluster, kNoProcessor), cluster);
  EXPECT_NE(allreduce.find("subgraph cluster_reduce"), std::string::npos);
  EXPECT_NE(allreduce.find("subgraph cluster_broadcast"), std::string::npos);
  EXPECT_EQ(count_of(allreduce, " -> "), 14u);
  EXPECT_EQ(count_of(allreduce, "{"), count_of(allreduce, "}"));
}

TEST(TreeDot, EscapesQuotesAndBackslashes) {
  const Cluster cluster({"say \"hi\"", "back\\slash", "a<b>&c"}, {1, 2, 3});
  const std::string dot = tree_dot(plan_broadcast_fnf(cluster, 0), cluster);
  EXPECT_NE(dot.find("say \\\"hi\\\""), std::string::npos);
  EXPECT_NE(dot.find("back\\\\slash"), std::string::npos);
  EXPECT_NE(dot.find("a<b>&c"), std::string::npos);  // DOT strings need no XML escaping
  // Every quote is escaped or paired: outside of escapes, quotes come in pairs.
  std::size_t unescaped_quotes = 0;
  for (std::size_t i = 0; i < dot.size(); ++i) {
    if (dot[i] == '\\') {
      ++i;
    } else if (dot[i] == '"') {
      ++unescaped_quotes;
    }
  }
  EXPECT_EQ(unescaped_quotes % 2, 0u);
}

TEST(TreeDot, LargeTreesAreCapped) {
  std::vector<double> times;
  for (int i = 0; i < 100000; ++i) times.push_back(1 + i % 7);
  const Cluster cluster = Cluster::from_times(times);
  const std::string dot = tree_dot(plan_broadcast_fnf(cluster, 0), cluster);
  EXPECT_LT(dot.size(), 500'000u);
  // Tree edges, plus one dashed edge to each "+k more" node.
  EXPECT_EQ(count_of(dot, " -> ") - count_of(dot, "style=dashed"), TreeDotOptions{}.max_nodes - 1);
  EXPECT_GT(count_of(dot, "style=dashed"), 0u);
  EXPECT_NE(dot.find("99000 left out"), std::string::npos);
  const Cluster one = Cluster::from_times({1});
  EXPECT_EQ(count_of(tree_dot(plan_broadcast_fnf(one, 0), one), " -> "), 0u);
}

// Graphviz itself accepts the DOT text (when `dot` is installed).
TEST(TreeDot, GraphvizRendersIt) {
  if (std::system("command -v dot > /dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz (dot) is not installed";
  const auto directory = std::filesystem::temp_directory_path() / ("hetcoll-viz-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const Cluster cluster = awkward_ids();
  const std::vector<MakespanPlan> plans = {plan_broadcast_fnf(cluster, 0), plan_reduce_snf(cluster, 0),
                                           plan_allreduce_snf_fnf(cluster, kNoProcessor)};
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const auto dot_path = directory / fmt::format("tree{}.dot", i);
    const auto svg_path = directory / fmt::format("tree{}.svg", i);
    write_tree_dot(dot_path.string(), plans[i], cluster);
    const std::string command = fmt::format("dot -Tsvg -o '{}' '{}' 2>&1", svg_path.string(), dot_path.string());
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    pugi::xml_document rendered;
    EXPECT_TRUE(rendered.load_file(svg_path.c_str())) << svg_path;
    const std::string all_text = [&] {
      std::string text;
      for (const pugi::xpath_node& node : rendered.select_nodes("//text")) text += std::string(node.node().text().get()) + "\n";
      return text;
    }();
    for (const auto& id : cluster.ids()) EXPECT_NE(all_text.find(id), std::string::npos) << id;
  }
  std::filesystem::remove_all(directory);
}

// --------------------------------------------------------------- line plot

TEST(LinePlotSvg, SeriesLegendAndAxes) {
  PlotSpec spec;
  spec.title = "Ratio <FNF> & \"optimal\"";
  spec.x_label = "processors";
  spec.y_label = "makespan ratio";
  spec.series = {{"FNF", {2, 4, 8, 16}, {1.0, 1.1, 1.05, 1.2}}, {"SNF & co", {2, 4, 8, 16}, {1.0, 1.3, 1.2, 1.25}, true}};
  const std::string svg = line_plot_svg(spec);
  const auto document = parse_svg(svg);
  const auto texts = texts_of(document);
  EXPECT_TRUE(any_text_contains(texts, "Ratio <FNF> & \"optimal\""));
  EXPECT_TRUE(any_text_contains(texts, "processors"));
  EXPECT_TRUE(any_text_contains(texts, "makespan ratio"));
  const auto legend = texts_with_class(document, "legend");
  EXPECT_EQ(legend, (std::vector<std::string>{"FNF", "SNF & co"}));
  EXPECT_EQ(document.select_nodes("//path[@stroke-width='2']").size(), 2u);
  EXPECT_EQ(document.select_nodes("//path[@stroke-dasharray]").size(), 1u);
  EXPECT_GE(texts_with_class(document, "tick").size(), 6u);
}

TEST(LinePlotSvg, LogAxesSkipPointsTheyCannotShow) {
  PlotSpec spec;
  spec.log_x = spec.log_y = true;
  spec.series = {{"time", {1e3, 1e4, 0, 1e6, 1e7}, {1e-4, 2e-3, 5, -1, std::nan("")}}};
  const auto document = parse_svg(line_plot_svg(spec));
  EXPECT_EQ(document.select_nodes("//path[@stroke-width='2']").size(), 1u);  // the two drawable points
  const auto ticks = texts_with_class(document, "tick");
  EXPECT_TRUE(any_text_contains(ticks, "10⁻⁴"));  // y: 1e-4 .. 2e-3 needs powers of ten
  EXPECT_TRUE(any_text_contains(ticks, "5000"));   // x: 1000 .. 10000 reads plainly
}

// One look per series across an experiment's plots; no yellow; long legends
// widen the picture instead of being cut off; a series hidden under another
// is named in a note.
TEST(LinePlotSvg, StylesLegendsAndCoincidingSeries) {
  auto styles = std::make_shared<SeriesStyles>();
  PlotSpec first, second;
  first.styles = second.styles = styles;
  first.series = {{"FNF", {1, 2}, {1, 2}}, {"optimal", {1, 2}, {1, 1.5}}};
  second.series = {{"optimal", {1, 2}, {3, 4}}, {"FNF", {1, 2}, {5, 6}}};
  auto stroke_of = [](const pugi::xml_document& document, const std::string& name) {
    for (const pugi::xpath_node& node : document.select_nodes("//g[title]")) {
      if (std::string(node.node().child("title").text().get()) == name) {
        return std::string(node.node().child("path").attribute("stroke").value());
      }
    }
    return std::string("(none)");
  };
  const auto first_document = parse_svg(line_plot_svg(first));
  const auto second_document = parse_svg(line_plot_svg(second));
  EXPECT_EQ(stroke_of(first_document, "FNF"), stroke_of(second_document, "FNF"));
  EXPECT_EQ(stroke_of(first_document, "optimal"), stroke_of(second_document, "optimal"));
  EXPECT_NE(stroke_of(first_document, "FNF"), stroke_of(first_document, "optimal"));

  PlotSpec many;
  for (int s = 0; s < 12; ++s) {
    many.series.push_back({fmt::format("a rather long series name number {} of twelve", s), {1, 2}, {1.0 * s, 2.0 * s + 1}});
  }
  many.series.push_back({"measured", {1, 2}, {7, 9}});
  PlotSeries predicted{"predicted", {1, 2}, {7, 9}, true};
  predicted.style_key = "measured";
  many.series.push_back(predicted);
  const std::string svg = line_plot_svg(many);
  EXPECT_EQ(svg.find("#F0E442"), std::string::npos);  // yellow
  const auto document = parse_svg(svg);
  const double width = document.document_element().attribute("width").as_double();
  const double height = document.document_element().attribute("height").as_double();
  for (const pugi::xpath_node& node : document.select_nodes("//text[@class='legend']")) {
    const double x = node.node().attribute("x").as_double(), y = node.node().attribute("y").as_double();
    EXPECT_LE(x + svg::text_width(node.node().text().get(), 12), width) << node.node().text().get();
    EXPECT_LE(y, height - 4) << node.node().text().get();
  }
  EXPECT_EQ(stroke_of(document, "measured"), stroke_of(document, "predicted"));
  EXPECT_TRUE(any_text_contains(texts_of(document), "\u201Cpredicted\u201D is equal to \u201Cmeasured\u201D at every point"));
}

TEST(LinePlotSvg, EmptyPlotsAreValid) {
  const auto document = parse_svg(line_plot_svg(PlotSpec{}));
  EXPECT_TRUE(any_text_contains(texts_of(document), "no data"));
  PlotSpec single;
  single.series = {{"one point", {3}, {4}}};
  parse_svg(line_plot_svg(single));
}

TEST(VizFiles, WritersThrowOnBadPaths) {
  const Cluster cluster = Cluster::from_times({1, 2});
  const MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  EXPECT_THROW(write_gantt_svg("/nonexistent-dir/x.svg", plan, cluster), std::runtime_error);
  EXPECT_THROW(write_tree_svg("/nonexistent-dir/x.svg", plan, cluster), std::runtime_error);
  EXPECT_THROW(write_tree_dot("/nonexistent-dir/x.dot", plan, cluster), std::runtime_error);
  EXPECT_THROW(write_line_plot_svg("/nonexistent-dir/x.svg", PlotSpec{}), std::runtime_error);
}

// ------------------------------------------------------------ example files

// Writes the pictures of docs/images/ (and a few more) when
// HETCOLL_VIZ_EXAMPLES_DIR names a directory.
TEST(VizExamples, Write) {
  const char* directory = std::getenv("HETCOLL_VIZ_EXAMPLES_DIR");
  if (directory == nullptr) GTEST_SKIP() << "set HETCOLL_VIZ_EXAMPLES_DIR to write the example pictures";
  const std::filesystem::path out(directory);
  std::filesystem::create_directories(out);
  auto path = [&](const char* name) { return (out / name).string(); };

  const Cluster cluster = eight_processors();
  const MakespanPlan broadcast = plan_broadcast_fnf(cluster, 0);
  const MakespanPlan reduce = plan_reduce_snf(cluster, 0);
  const MakespanPlan allreduce = plan_allreduce_snf_fnf(cluster, kNoProcessor);
  write_gantt_svg(path("gantt-broadcast.svg"), broadcast, cluster);
  write_gantt_svg(path("gantt-reduce.svg"), reduce, cluster);
  write_gantt_svg(path("gantt-allreduce.svg"), allreduce, cluster);
  write_tree_svg(path("tree-broadcast.svg"), broadcast, cluster);
  write_tree_svg(path("tree-reduce.svg"), reduce, cluster);
  write_tree_svg(path("tree-allreduce.svg"), allreduce, cluster);
  write_tree_dot(path("tree-allreduce.dot"), allreduce, cluster);

  // Liu 2002, Fig. 2: FNF is not optimal here.
  const Cluster figure2 = Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
  write_gantt_svg(path("gantt-liu2002-fig2.svg"), plan_broadcast_fnf(figure2, 0), figure2);
  write_tree_svg(path("tree-liu2002-fig2.svg"), plan_broadcast_fnf(figure2, 0), figure2);

  std::vector<double> times;
  for (int i = 0; i < 64; ++i) times.push_back(1 + (i * 7) % 5);
  const Cluster sixty_four = Cluster::from_times(times);
  write_gantt_svg(path("gantt-64.svg"), plan_broadcast_fnf(sixty_four, 0), sixty_four);
  write_tree_svg(path("tree-64.svg"), plan_broadcast_fnf(sixty_four, 0), sixty_four);

  // 600 processors: the Gantt summary per class and a tree cut at 150 nodes.
  for (int i = 64; i < 600; ++i) times.push_back(1 + (i * 7) % 5);
  const Cluster six_hundred = Cluster::from_times(times);
  write_gantt_svg(path("gantt-600-allreduce.svg"), plan_allreduce_snf_fnf(six_hundred, kNoProcessor), six_hundred);
  write_tree_svg(path("tree-600.svg"), plan_broadcast_fnf(six_hundred, 0), six_hundred);

  // A star of 151 processors: the root's leaf children in columns.
  std::vector<double> star_times(151, 200.0);
  star_times[0] = 1;
  const Cluster star = Cluster::from_times(star_times);
  write_tree_svg(path("tree-star-151.svg"), star_plan(star, Operation::broadcast), star);
  write_tree_svg(path("tree-star-151-reduce.svg"), star_plan(star, Operation::reduce), star);

  // A chain 60 levels deep: drawn in bands of levels.
  const Cluster chain = Cluster::from_times(std::vector<double>(60, 1.0));
  write_tree_svg(path("tree-chain-60.svg"), chain_broadcast(chain), chain);
  TreeSvgOptions left_to_right;
  left_to_right.direction = TreeSvgOptions::Direction::left_to_right;
  write_tree_svg(path("tree-chain-60-left-to-right.svg"), chain_broadcast(chain), chain, left_to_right);

  PlotSpec plot;
  plot.title = "Makespan of FNF broadcast and SNF reduce";
  plot.x_label = "processors (classes t = 1, 2, 3, 4 in equal numbers)";
  plot.y_label = "makespan";
  PlotSeries fnf{"FNF broadcast", {}, {}}, snf{"SNF reduce", {}, {}}, bound{"broadcast lower bound", {}, {}, true};
  for (int n = 4; n <= 256; n *= 2) {
    std::vector<double> class_times;
    for (int i = 0; i < n; ++i) class_times.push_back(1 + i % 4);
    const Cluster c = Cluster::from_times(class_times);
    const MakespanPlan b = plan_broadcast_fnf(c, 0);
    fnf.x.push_back(n), fnf.y.push_back(b.makespan);
    bound.x.push_back(n), bound.y.push_back(b.lower_bound);
    snf.x.push_back(n), snf.y.push_back(plan_reduce_snf(c, 0).makespan);
  }
  plot.log_x = true;
  plot.series = {fnf, snf, bound};
  write_line_plot_svg(path("plot-example.svg"), plot);
}

TEST(SvgSupport, IdShortenerKeepsTheDistinguishingPart) {
  // Grid'5000 names: the shared domain goes first, then the domain of the
  // host name; never a cut that leaves only the shared parts.
  const svg::IdShortener g5k({"bordeplage-12.bordeaux.grid5000.fr", "bordeplage-3.bordeaux.grid5000.fr",
                              "edel-7.grenoble.grid5000.fr"});
  EXPECT_EQ(g5k("bordeplage-12.bordeaux.grid5000.fr", 24), "bordeplage-12.bordeaux…");
  EXPECT_EQ(g5k("bordeplage-12.bordeaux.grid5000.fr", 16), "bordeplage-12…");
  EXPECT_EQ(g5k("edel-7.grenoble.grid5000.fr", 8), "edel-7…");
  // One cluster: the shared prefix goes too when nothing else fits, but
  // its end stays at a separator, so the digits survive.
  const svg::IdShortener cluster({"node-1.simgrid.org", "node-12.simgrid.org", "node-123.simgrid.org"});
  EXPECT_EQ(cluster("node-12.simgrid.org", 10), "node-12…");
  EXPECT_EQ(cluster("node-123.simgrid.org", 5), "…123");
  EXPECT_EQ(cluster("node-1.simgrid.org", 40), "node-1.simgrid.org");
  // Names that share nothing are cut in the middle, as before.
  const svg::IdShortener plain({"alpha-long-name-one", "beta"});
  EXPECT_EQ(plain("alpha-long-name-one", 9), svg::shorten_id("alpha-long-name-one", 9));
}

TEST(SvgSupport, WrapToWidthBreaksBetweenParts) {
  const std::string text = "makespan 0.5 s · lower bound 0.4 s · guarantee none · proven optimal in the sender-speed view";
  const auto one = svg::wrap_to_width(text, 10000, 12.5);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], text);
  const auto lines = svg::wrap_to_width(text, 300, 12.5);
  ASSERT_GE(lines.size(), 2u);
  std::string joined;
  for (const auto& line : lines) {
    EXPECT_LE(svg::text_width(line, 12.5), 300) << line;
    joined += (joined.empty() ? "" : " ") + line;
  }
  EXPECT_EQ(joined, text);
}

}  // namespace
}  // namespace hetcoll
