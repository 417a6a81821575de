// SimGrid XML import: units, SimGrid's small_platform.xml checked by hand,
// clusters, hierarchical and shortest-path routing, and every kind of bad
// input (each must be an InputError naming the file, the line, the element
// and the attribute).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <vector>
#include <optional>
#include <stdexcept>
#include <string>

#include "hetcoll/core/error.h"
#include "hetcoll/model/element_names.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

// SimGrid's example platform, shipped in examples/ (LGPL-2.1, see examples/README.md).
std::string small_platform_path() { return testing::source_path("examples/small_platform.xml"); }

// The names of the links the platform's route from `from` to `to` crosses.
std::vector<std::string> route_links(const Platform& platform, std::string_view from, std::string_view to) {
  auto from_index = platform.find(from);
  auto to_index = platform.find(to);
  if (!from_index || !to_index) return {"(unknown end)"};
  auto route = platform.declared_route(*from_index, *to_index);
  if (!route) return {"(no route)"};
  EXPECT_FALSE(route_problem(platform, *from_index, *to_index, *route)) << from << " -> " << to;
  std::vector<std::string> names;
  for (size_t e : *route) {
    const PlatformNode& node = platform.node(platform.edges()[e].to);
    if (node.kind == NodeKind::link) names.push_back(node.id);
  }
  return names;
}

std::vector<std::string> names(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

// The route's latency (sum) and bandwidth (narrowest link), SimGrid's numbers for a flow alone on it.
void expect_route(const Platform& platform, std::string_view from, std::string_view to, double latency,
                  double bandwidth) {
  auto route = platform.declared_route(*platform.find(from), *platform.find(to));
  ASSERT_TRUE(route.has_value()) << from << " -> " << to;
  double sum = 0, narrowest = std::numeric_limits<double>::infinity();
  for (size_t e : *route) {
    const PlatformEdge& edge = platform.edges()[e];
    sum += edge.latency.value_or(0.0) + edge.cost.value_or(0.0);
    if (edge.bandwidth) narrowest = std::min(narrowest, *edge.bandwidth);
  }
  EXPECT_NEAR(sum, latency, 1e-12 * std::max(1.0, latency)) << from << " -> " << to;
  EXPECT_NEAR(narrowest, bandwidth, 1e-9 * bandwidth) << from << " -> " << to;
  // Platform::route_time is the same cut-through time.
  EXPECT_NEAR(platform.route_time(*route, 1e6), latency + 1e6 / bandwidth, 1e-9 * (latency + 1e6 / bandwidth));
}

size_t count_named(const Platform& platform, std::string_view id) {
  return static_cast<size_t>(std::count_if(platform.nodes().begin(), platform.nodes().end(),
                                           [&](const PlatformNode& node) { return node.id == id; }));
}

std::string platform_xml(const std::string& zone_content, const std::string& routing = "Full") {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"" + routing + "\">\n" +
         zone_content + "</zone>\n</platform>\n";
}

// Parses `text` as "bad.xml" and checks that the InputError contains every fragment.
void expect_error(const std::string& text, std::initializer_list<std::string> fragments,
                  const SimgridImportOptions& options = {}) {
  try {
    parse_simgrid_xml(text, "bad.xml", options);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind("bad.xml: ", 0), 0u) << message;
    for (const auto& fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos) << "missing \"" << fragment << "\" in: " << message;
    }
  }
}

const std::string kTwoHosts =
    "<host id=\"A\" speed=\"1Gf\"/>\n<host id=\"B\" speed=\"2Gf\"/>\n"
    "<link id=\"l\" bandwidth=\"1MBps\" latency=\"1ms\"/>\n";

// ------------------------------------------------------------- units ---

TEST(SimgridUnits, Speeds) {
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1f", "speed", "w"), 1.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1kf", "speed", "w"), 1e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("98.095Mf", "speed", "w"), 98.095e6);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Gf", "speed", "w"), 1e9);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("2Tf", "speed", "w"), 2e12);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Pf", "speed", "w"), 1e15);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Ef", "speed", "w"), 1e18);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Zf", "speed", "w"), 1e21);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("3flops", "speed", "w"), 3.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("3kflops", "speed", "w"), 3e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("2.5Gflops", "speed", "w"), 2.5e9);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("3kiloflops", "speed", "w"), 3e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1megaflops", "speed", "w"), 1e6);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("250", "speed", "w"), 250.0);  // bare number: flop/s
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1e9", "speed", "w"), 1e9);
}

TEST(SimgridUnits, Bandwidths) {
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Bps", "bandwidth", "w"), 1.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1kBps", "bandwidth", "w"), 1e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1KBps", "bandwidth", "w"), 1e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("41.279125MBps", "bandwidth", "w"), 41279125.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1.25GBps", "bandwidth", "w"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1TBps", "bandwidth", "w"), 1e12);
  // Bits are an eighth of a byte.
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("8bps", "bandwidth", "w"), 1.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1kbps", "bandwidth", "w"), 125.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Kbps", "bandwidth", "w"), 125.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Mbps", "bandwidth", "w"), 125e3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("10Gbps", "bandwidth", "w"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Tbps", "bandwidth", "w"), 1.25e11);
  // Binary prefixes.
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1KiBps", "bandwidth", "w"), 1024.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1MiBps", "bandwidth", "w"), 1048576.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("2GiBps", "bandwidth", "w"), 2.0 * 1073741824.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Kibps", "bandwidth", "w"), 128.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Mibps", "bandwidth", "w"), 131072.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1Gibps", "bandwidth", "w"), 134217728.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1000", "bandwidth", "w"), 1000.0);  // bare number: bytes/s
}

TEST(SimgridUnits, Latencies) {
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1s", "latency", "w"), 1.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1.5ms", "latency", "w"), 1.5e-3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("59.904us", "latency", "w"), 59.904e-6);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("3ns", "latency", "w"), 3e-9);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("4ps", "latency", "w"), 4e-12);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("2m", "latency", "w"), 120.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1h", "latency", "w"), 3600.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1d", "latency", "w"), 86400.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1w", "latency", "w"), 604800.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("0", "latency", "w"), 0.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("0.25", "latency", "w"), 0.25);  // bare number: seconds
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity(" 3ms ", "latency", "w"), 3e-3);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("+1s", "latency", "w"), 1.0);
  EXPECT_DOUBLE_EQ(parse_simgrid_quantity("1e-3s", "latency", "w"), 1e-3);
}

void expect_quantity_error(const std::string& text, const std::string& kind, const std::string& fragment) {
  try {
    parse_simgrid_quantity(text, kind, "f.xml: line 3: <link id=\"x\"> bandwidth");
    ADD_FAILURE() << "no error for \"" << text << "\" as " << kind;
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind("f.xml: line 3: <link id=\"x\"> bandwidth: ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(SimgridUnits, BadQuantitiesAreInputErrors) {
  expect_quantity_error("10MBs", "bandwidth", "unknown unit \"MBs\"");
  expect_quantity_error("1Gf", "bandwidth", "unknown unit \"Gf\"");
  expect_quantity_error("1MBps", "speed", "unknown unit \"MBps\"");
  expect_quantity_error("1Ms", "latency", "unknown unit \"Ms\"");
  expect_quantity_error("0x10Bps", "bandwidth", "unknown unit");
  expect_quantity_error("fast", "bandwidth", "not a number");
  expect_quantity_error("", "bandwidth", "empty");
  expect_quantity_error("   ", "latency", "empty");
  expect_quantity_error("-1MBps", "bandwidth", "must be positive");
  expect_quantity_error("0Bps", "bandwidth", "must be positive");
  expect_quantity_error("0f", "speed", "must be positive");
  expect_quantity_error("-1us", "latency", "must be non-negative");
  expect_quantity_error("1e999Bps", "bandwidth", "out of range");
  expect_quantity_error("inf", "bandwidth", "not a finite number");
  expect_quantity_error("nanBps", "bandwidth", "not a finite number");
  expect_quantity_error("1e300YBps", "bandwidth", "not a finite number");  // overflows once scaled
  // Subnormal quantities lose precision (issue 24: a bandwidth of 1e-320Bps
  // turned every transfer into "cannot be reached").
  expect_quantity_error("1e-320Bps", "bandwidth", "too small");
  expect_quantity_error("1e-310s", "latency", "too small");
  EXPECT_THROW(parse_simgrid_quantity("1s", "mass", "w"), std::invalid_argument);
}

// ------------------------------------------------ small_platform.xml ---

TEST(SimgridXml, ReadsSmallPlatformByHand) {
  LoadedPlatform loaded = load_platform_file(small_platform_path());
  ASSERT_FALSE(loaded.is_cluster());
  const Platform& platform = loaded.graph();
  // 7 hosts first, then the 24 links as nodes.
  ASSERT_EQ(platform.size(), 7 + 24);
  const char* hosts[] = {"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin", "Boivin"};
  for (int v = 0; v < 7; ++v) {
    EXPECT_EQ(platform.id(v), hosts[v]);
    EXPECT_EQ(platform.node(v).kind, NodeKind::host);
  }
  for (ProcessorIndex v = 7; v < platform.size(); ++v) {
    EXPECT_EQ(platform.node(v).kind, NodeKind::link);
    EXPECT_TRUE(platform.node(v).router);
  }
  EXPECT_EQ(platform.node(*platform.find("9")).ports, PortModel::one_port);     // SHARED
  EXPECT_EQ(platform.node(*platform.find("loopback")).ports, PortModel::unlimited);  // FATPIPE
  EXPECT_EQ(platform.participants().size(), 7u);
  EXPECT_DOUBLE_EQ(*platform.node(0).speed, 98.095e6);
  EXPECT_DOUBLE_EQ(*platform.node(3).speed, 48.492e6);
  EXPECT_DOUBLE_EQ(*platform.node(5).speed, 137.333e6);
  // The edges entering a link carry it; the others are free wires.
  for (const PlatformEdge& edge : platform.edges()) {
    if (platform.node(edge.to).kind == NodeKind::link) {
      EXPECT_TRUE(edge.latency && edge.bandwidth && !edge.cost);
    } else {
      EXPECT_EQ(edge.cost, 0.0);
    }
  }

  EXPECT_EQ(route_links(platform, "Tremblay", "Jupiter"), names({"9"}));
  EXPECT_EQ(route_links(platform, "Tremblay", "Fafard"), names({"4", "3", "2", "0", "1", "8"}));
  EXPECT_EQ(route_links(platform, "Fafard", "Tremblay"), names({"8", "1", "0", "2", "3", "4"}));
  EXPECT_EQ(route_links(platform, "Jacquelin", "Boivin"), names({"145", "59", "56", "54", "17", "16", "10", "11", "44", "47"}));
  EXPECT_EQ(route_links(platform, "Boivin", "Fafard"), names({"47", "44", "11", "6", "9", "79", "78", "80"}));
  expect_route(platform, "Tremblay", "Jupiter", 1.461517e-3, 7.20975e6);
  double latency = (479.78 + 514.433 + 136.931 + 59.904 + 514.433 + 270.544) * 1e-6;
  expect_route(platform, "Tremblay", "Fafard", latency, 8.158e6);  // link 8 is the narrowest
  latency = (410.463 + 370.788 + 136.931 + 514.433 + 514.433 + 136.931) * 1e-6 +
            (29.5890617 + 35.083019 + 6.932556 + 6.932556) * 1e-3;
  expect_route(platform, "Jacquelin", "Boivin", latency, 2.583375e6);  // link 145
}

TEST(SimgridXml, SmallPlatformServesTheSenderSpeedModel) {
  LoadedPlatform loaded = load_platform_file(small_platform_path());
  const Platform& platform = loaded.graph();
  Cluster cluster = cluster_from_platform(platform, 1e6, loaded.source_name);
  ASSERT_EQ(cluster.size(), 7);
  // Tremblay's time is its slowest route for 1 MB.
  double slowest = 0;
  for (ProcessorIndex to = 1; to < 7; ++to) {
    slowest = std::max(slowest, platform.route_time(*platform.declared_route(0, to), 1e6));
  }
  EXPECT_DOUBLE_EQ(cluster.transmission_time(0), slowest);
}

// ------------------------------------------------------------- routes ---

TEST(SimgridXml, AsymmetricRoutesFollowTheirOwnLinks) {
  Platform platform = parse_simgrid_xml(
      platform_xml(kTwoHosts + "<link id=\"m\" bandwidth=\"2MBps\" latency=\"3ms\"/>\n"
                               "<route src=\"A\" dst=\"B\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                               "<route src=\"B\" dst=\"A\" symmetrical=\"NO\"><link_ctn id=\"m\"/></route>\n"),
      "t.xml");
  EXPECT_EQ(route_links(platform, "A", "B"), names({"l"}));
  EXPECT_EQ(route_links(platform, "B", "A"), names({"m"}));
  expect_route(platform, "A", "B", 1e-3, 1e6);
  expect_route(platform, "B", "A", 3e-3, 2e6);
  EXPECT_DOUBLE_EQ(*platform.node(1).speed, 2e9);

  Platform one_way = parse_simgrid_xml(
      platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"), "t.xml");
  EXPECT_EQ(one_way.edges().size(), 2u);  // A -> l, l -> B
  EXPECT_FALSE(one_way.declared_route(1, 0));
  EXPECT_FALSE(one_way.route(1, 0, one_way.edge_costs(1.0)));  // nothing leads back
}

// A declared route (or bypass route) crosses each link once; the reader
// refuses one that comes back to a link, naming the line and the link.
TEST(SimgridXml, RoutesCrossingALinkTwiceAreRefused) {
  const std::string hosts =
      "<host id=\"A\" speed=\"1Gf\"/>\n<host id=\"B\" speed=\"1Gf\"/>\n"
      "<link id=\"l1\" bandwidth=\"1MBps\" latency=\"1ms\"/>\n<link id=\"l2\" bandwidth=\"1MBps\" latency=\"1ms\"/>\n";
  expect_error(platform_xml(hosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/>"
                                    "<link_ctn id=\"l1\"/></route>\n"),
               {"the route crosses link \"l1\" twice"});
  expect_error(platform_xml(hosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l1\"/></route>\n"
                                    "<bypassRoute src=\"A\" dst=\"B\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/>"
                                    "<link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></bypassRoute>\n"),
               {"the route crosses link \"l1\" twice"});
  EXPECT_NO_THROW(parse_simgrid_xml(
      platform_xml(hosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n"), "ok.xml"));
}

TEST(SimgridXml, HostsWithoutRoutesHaveNoEdges) {
  Platform platform = parse_simgrid_xml(platform_xml(kTwoHosts), "t.xml");
  EXPECT_EQ(platform.size(), 3);  // two hosts and the unused link
  EXPECT_TRUE(platform.edges().empty());
  EXPECT_FALSE(platform.declared_route(0, 1));
}

TEST(SimgridXml, ALinkSharedByRoutesIsOneNode) {
  // S1 -> C1 and S2 -> C2 both cross link 2 (SimGrid's dogbone.xml); FATPIPE
  // links take any number of transfers at once, SHARED ones one.
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"S1\" speed=\"1Gf\"/><host id=\"S2\" speed=\"1Gf\"/><host id=\"C1\" speed=\"1Gf\"/>"
                   "<host id=\"C2\" speed=\"1Gf\"/>\n"
                   "<link id=\"1\" bandwidth=\"1MBps\"/><link id=\"2\" bandwidth=\"1MBps\"/><link id=\"3\" bandwidth=\"1MBps\"/>"
                   "<link id=\"4\" bandwidth=\"1MBps\"/><link id=\"5\" bandwidth=\"1MBps\"/>\n"
                   "<link id=\"fat\" bandwidth=\"1MBps\" sharing_policy=\"FATPIPE\"/>\n"
                   "<route src=\"S1\" dst=\"C1\"><link_ctn id=\"1\"/><link_ctn id=\"2\"/><link_ctn id=\"3\"/></route>\n"
                   "<route src=\"S2\" dst=\"C2\"><link_ctn id=\"4\"/><link_ctn id=\"2\"/><link_ctn id=\"5\"/></route>\n"
                   "<route src=\"S1\" dst=\"S2\"><link_ctn id=\"fat\"/></route>\n"),
      "t.xml");
  EXPECT_EQ(count_named(platform, "2"), 1u);
  auto two = *platform.find("2");
  EXPECT_EQ(platform.in_edges(two).size(), 4u);  // from 1 and 4, and from 3 and 5 on the way back
  EXPECT_EQ(platform.node(two).ports, PortModel::one_port);
  EXPECT_EQ(platform.node(*platform.find("fat")).ports, PortModel::unlimited);
  EXPECT_EQ(route_links(platform, "S2", "C2"), names({"4", "2", "5"}));
  // S1 -> C2 is not declared: the graph would join it through link 2 (1, 2, 5), but the
  // platform declares nothing, so only Platform::route's cheapest path can give it.
  EXPECT_FALSE(platform.declared_route(*platform.find("S1"), *platform.find("C2")));
  auto filled = platform.route(*platform.find("S1"), *platform.find("C2"), platform.edge_costs(1.0));
  ASSERT_TRUE(filled);
  EXPECT_EQ(filled->size(), 4u);  // S1, 1, 2, 5, C2
}

TEST(SimgridXml, ToleratesPropertiesDisksTracesAndConfig) {
  std::string text =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4\">\n<config><prop id=\"network/model\" value=\"CM02\"/></config>\n"
      "<zone id=\"z\" routing=\"Full\">\n<prop id=\"k\" value=\"v\"/>\n"
      "<host id=\"A\" speed=\"100Mf,50Mf,20Mf,0f\" core=\"4\" pstate=\"0\"><prop id=\"p\" value=\"1\"/>"
      "<disk id=\"d\" read_bw=\"1MBps\" write_bw=\"1MBps\"/></host>\n"
      "<host id=\"B\" speed=\"1Gf\" unknown_attribute=\"x\"/>\n"
      "<link id=\"l\" bandwidth=\"1MBps\" latency=\"1ms\" sharing_policy=\"FATPIPE\"><prop id=\"q\" value=\"2\"/></link>\n"
      "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n"
      "<route src=\"A\" dst=\"A\"><link_ctn id=\"l\"/></route>\n"  // a loopback: no transfer between two nodes uses it
      "<trace id=\"t\" periodicity=\"1\">0 1</trace>\n"
      "</zone>\n<actor host=\"A\" function=\"f\"><argument value=\"1\"/></actor>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "t.xml");
  EXPECT_EQ(platform.size(), 3);
  EXPECT_DOUBLE_EQ(*platform.node(0).speed, 100e6);  // the first pstate; later ones may be 0
  EXPECT_EQ(platform.edges().size(), 4u);
  EXPECT_EQ(route_links(platform, "A", "B"), names({"l"}));
}

TEST(SimgridXml, SplitDuplexLinksAreOneNodePerDirection) {
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<link id=\"l\" bandwidth=\"10MBps\" latency=\"2ms\" sharing_policy=\"SPLITDUPLEX\"/>\n"
                   "<link id=\"m\" bandwidth=\"5MBps\" latency=\"1ms\"/>\n"
                   "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\" direction=\"UP\"/><link_ctn id=\"m\"/>"
                   "</route>\n"),
      "t.xml");
  EXPECT_EQ(count_named(platform, "l"), 0u);
  EXPECT_EQ(count_named(platform, "l_UP"), 1u);
  EXPECT_EQ(count_named(platform, "l_DOWN"), 1u);
  // The reverse of a symmetrical route crosses the other half (SimGrid's get_link_list_impl).
  EXPECT_EQ(route_links(platform, "A", "B"), names({"l_UP", "m"}));
  EXPECT_EQ(route_links(platform, "B", "A"), names({"m", "l_DOWN"}));
  expect_route(platform, "A", "B", 3e-3, 5e6);
  Platform halves = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<link id=\"l\" bandwidth=\"10MBps\" latency=\"2ms\" sharing_policy=\"FULLDUPLEX\"/>\n"
                   "<route src=\"A\" dst=\"B\" symmetrical=\"NO\"><link_ctn id=\"l_UP\"/></route>\n"
                   "<route src=\"B\" dst=\"A\" symmetrical=\"NO\"><link_ctn id=\"l\" direction=\"DOWN\"/></route>\n"),
      "t.xml");
  EXPECT_EQ(route_links(halves, "A", "B"), names({"l_UP"}));
  EXPECT_EQ(route_links(halves, "B", "A"), names({"l_DOWN"}));
}

TEST(SimgridXml, LinksMayBeDeclaredAfterTheRoutesThatUseThem) {
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<route src=\"A\" dst=\"B\"><link_ctn id=\"late\"/></route>\n"
                   "<link id=\"late\" bandwidth=\"3MBps\"/>\n"),
      "t.xml");
  expect_route(platform, "A", "B", 0.0, 3e6);  // latency defaults to 0
}

TEST(SimgridXml, LinkNamedLikeAHostGetsAPrefix) {
  // Links and hosts have separate namespaces in SimGrid; graph nodes share one.
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/><link id=\"A\" bandwidth=\"1MBps\"/>\n"
                   "<route src=\"A\" dst=\"B\"><link_ctn id=\"A\"/></route>\n"),
      "t.xml");
  EXPECT_EQ(route_links(platform, "A", "B"), names({"link:A"}));
}

// ----------------------------------------------------------- clusters ---

TEST(SimgridXml, ClusterPrivateBackboneAndLimiterLinksAppearOnce) {
  std::string text =
      "<platform version=\"4.1\">\n"
      "  <cluster id=\"bob\" prefix=\"bob-\" suffix=\".edu\" radical=\"0-2,5\" speed=\"1Gf,500Mf\"\n"
      "           bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\" limiter_link=\"100MBps\"/>\n"
      "</platform>\n";
  Platform platform = parse_simgrid_xml(text, "cluster.xml");
  EXPECT_EQ(platform.id(0), "bob-0.edu");
  EXPECT_EQ(platform.id(3), "bob-5.edu");
  EXPECT_DOUBLE_EQ(*platform.node(3).speed, 1e9);
  for (const char* id : {"bob_backbone", "bob_link_5_UP", "bob_link_5_DOWN", "bob_link_5_limiter", "bob",
                         "bob-bob_router.edu"}) {
    EXPECT_EQ(count_named(platform, id), 1u) << id;
  }
  EXPECT_EQ(platform.node(*platform.find("bob")).kind, NodeKind::router);  // the cluster's crossbar
  EXPECT_EQ(platform.node(*platform.find("bob")).ports, PortModel::unlimited);
  // limiter, private link up, backbone, private link down, limiter (sg_platf_new_cluster_flat).
  EXPECT_EQ(route_links(platform, "bob-0.edu", "bob-5.edu"),
            names({"bob_link_0_limiter", "bob_link_0_UP", "bob_backbone", "bob_link_5_DOWN", "bob_link_5_limiter"}));
  expect_route(platform, "bob-0.edu", "bob-5.edu", 600e-6, 100e6);
  // The router is the cluster's gateway: reached through the backbone.
  auto router = *platform.find("bob-bob_router.edu");
  auto to_router = platform.declared_route(0, router);
  ASSERT_TRUE(to_router);
  EXPECT_EQ(route_links(platform, "bob-1.edu", "bob-bob_router.edu"),
            names({"bob_link_1_limiter", "bob_link_1_UP", "bob_backbone"}));
}

TEST(SimgridXml, ClusterSharingPolicies) {
  std::string text = platform_xml(
      "<cluster id=\"c\" prefix=\"n\" radical=\"1-3\" speed=\"2Gf\" bw=\"1Gbps\" lat=\"10us\" bb_lat=\"1s\"\n"
      "         sharing_policy=\"SHARED\"/>\n"
      "<cluster id=\"d\" prefix=\"m\" radical=\"1-2\" speed=\"2Gf\" bw=\"1Gbps\" bb_bw=\"1GBps\" sharing_policy=\"FATPIPE\"\n"
      "         bb_sharing_policy=\"FATPIPE\"/>\n");
  Platform platform = parse_simgrid_xml(text, "cluster.xml");
  // No bb_bw: no backbone, the hosts meet at the crossbar. SHARED: one node both ways.
  EXPECT_EQ(route_links(platform, "n1", "n3"), names({"c_link_1", "c_link_3"}));
  EXPECT_EQ(route_links(platform, "n3", "n1"), names({"c_link_3", "c_link_1"}));
  expect_route(platform, "n1", "n3", 20e-6, 125e6);
  EXPECT_EQ(platform.node(*platform.find("c_link_1")).ports, PortModel::one_port);
  EXPECT_EQ(platform.node(*platform.find("d_link_1")).ports, PortModel::unlimited);
  EXPECT_EQ(platform.node(*platform.find("d_backbone")).ports, PortModel::unlimited);
}

TEST(SimgridXml, TenThousandHostClusterHasLinearlyManyEdges) {
  const int hosts = 10'000;
  std::string text = platform_xml("<cluster id=\"big\" prefix=\"n\" radical=\"0-" + std::to_string(hosts - 1) +
                                  "\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"10GBps\" bb_lat=\"1us\"/>\n");
  Platform platform = parse_simgrid_xml(text, "big.xml");
  EXPECT_EQ(platform.participants().size(), static_cast<size_t>(hosts));
  // Per host: host -> up, up -> backbone, centre -> down, backbone -> down, down -> host.
  EXPECT_LE(platform.edges().size(), 5u * hosts + 8);
  EXPECT_EQ(route_links(platform, "n17", "n9999"), names({"big_link_17_UP", "big_backbone", "big_link_9999_DOWN"}));
  expect_route(platform, "n9999", "n0", 101e-6, 125e6);
  // The sender-speed view times every pair: refused at this size, with the reason.
  try {
    cluster_from_platform(platform, 1e6, "big.xml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("above the limit of 4096 participants"), std::string::npos) << error.what();
  }
}

TEST(SimgridXml, ClustersJoinedByZoneRoute) {
  // The shape of SimGrid's examples/platforms/cluster_multi.xml.
  std::string text =
      "<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n"
      "<cluster id=\"bob_cluster\" prefix=\"bob\" suffix=\".hamburger.edu\" radical=\"0-1\" speed=\"1Gf\"\n"
      "         bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>\n"
      "<cluster id=\"alice_cluster\" prefix=\"alice\" suffix=\".crepe.fr\" radical=\"0-1\" speed=\"1Gf\"\n"
      "         bw=\"125MBps\" lat=\"50us\"/>\n"
      "<link id=\"backbone\" bandwidth=\"100MBps\" latency=\"500us\"/>\n"
      "<zoneRoute src=\"bob_cluster\" dst=\"alice_cluster\" gw_src=\"bobbob_cluster_router.hamburger.edu\"\n"
      "           gw_dst=\"alicealice_cluster_router.crepe.fr\"><link_ctn id=\"backbone\"/></zoneRoute>\n"
      "</zone>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "multi.xml");
  EXPECT_EQ(platform.participants().size(), 4u);
  expect_route(platform, "bob0.hamburger.edu", "bob1.hamburger.edu", 600e-6, 125e6);
  expect_route(platform, "alice0.crepe.fr", "alice1.crepe.fr", 100e-6, 125e6);
  // bob0 -> its router (private link + backbone), the zoneRoute, alice's router -> alice1 (private link).
  EXPECT_EQ(route_links(platform, "bob0.hamburger.edu", "alice1.crepe.fr"),
            names({"bob_cluster_link_0_UP", "bob_cluster_backbone", "backbone", "alice_cluster_link_1_DOWN"}));
  EXPECT_EQ(route_links(platform, "alice0.crepe.fr", "bob1.hamburger.edu"),
            names({"alice_cluster_link_0_UP", "backbone", "bob_cluster_backbone", "bob_cluster_link_1_DOWN"}));
  expect_route(platform, "bob0.hamburger.edu", "alice1.crepe.fr", 1100e-6, 100e6);
  // The gateways are routers: on the route, forwarding at no cost and without a port limit.
  auto gateway = *platform.find("bobbob_cluster_router.hamburger.edu");
  EXPECT_EQ(platform.node(gateway).kind, NodeKind::router);
  EXPECT_EQ(platform.node(gateway).ports, PortModel::unlimited);
  auto route = *platform.declared_route(*platform.find("bob0.hamburger.edu"), *platform.find("alice1.crepe.fr"));
  EXPECT_TRUE(std::any_of(route.begin(), route.end(), [&](size_t e) { return platform.edges()[e].to == gateway; }));
}

TEST(SimgridXml, NestedFullZonesWithGatewayRouters) {
  std::string text =
      "<platform version=\"4.1\">\n<zone id=\"root\" routing=\"Full\">\n"
      "  <zone id=\"left\" routing=\"Full\">\n"
      "    <host id=\"L\" speed=\"1Gf\"/><router id=\"gl\"/>\n"
      "    <link id=\"ll\" bandwidth=\"10MBps\" latency=\"1ms\"/>\n"
      "    <route src=\"L\" dst=\"gl\"><link_ctn id=\"ll\"/></route>\n"
      "  </zone>\n"
      "  <zone id=\"right\" routing=\"Full\">\n"
      "    <host id=\"R\" speed=\"1Gf\"/><router id=\"gr\"/>\n"
      "    <link id=\"rr\" bandwidth=\"20MBps\" latency=\"2ms\"/>\n"
      "    <route src=\"gr\" dst=\"R\"><link_ctn id=\"rr\"/></route>\n"
      "  </zone>\n"
      "  <link id=\"wan\" bandwidth=\"5MBps\" latency=\"30ms\"/>\n"
      "  <zoneRoute src=\"left\" dst=\"right\" gw_src=\"gl\" gw_dst=\"gr\"><link_ctn id=\"wan\"/></zoneRoute>\n"
      "</zone>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "nested.xml");
  EXPECT_EQ(platform.participants().size(), 2u);
  EXPECT_EQ(route_links(platform, "L", "R"), names({"ll", "wan", "rr"}));
  EXPECT_EQ(route_links(platform, "R", "L"), names({"rr", "wan", "ll"}));
  expect_route(platform, "L", "R", 33e-3, 5e6);
}

// Grid'5000's shape (g5k.xml): sites reach a Floyd backbone zone through
// zoneRoutes; SimGrid joins the two zoneRoutes by the backbone's own route
// between their gateways (FloydZone::get_local_route).
const std::string kGridOfSites =
    "<platform version=\"4.1\">\n<zone id=\"grid\" routing=\"Floyd\">\n"
    "  <zone id=\"backbone\" routing=\"Floyd\">\n"
    "    <router id=\"ra\"/><router id=\"rb\"/><router id=\"rc\"/>\n"
    "    <link id=\"ab\" bandwidth=\"1GBps\" latency=\"1ms\"/><link id=\"bc\" bandwidth=\"1GBps\" latency=\"2ms\"/>\n"
    "    <route src=\"ra\" dst=\"rb\"><link_ctn id=\"ab\"/></route>\n"
    "    <route src=\"rb\" dst=\"rc\"><link_ctn id=\"bc\"/></route>\n"
    "  </zone>\n"
    "  <zone id=\"siteA\" routing=\"Full\">\n"
    "    <host id=\"hA\" speed=\"1Gf\"/><router id=\"gA\"/><link id=\"la\" bandwidth=\"100MBps\" latency=\"10us\"/>\n"
    "    <route src=\"hA\" dst=\"gA\"><link_ctn id=\"la\"/></route>\n"
    "  </zone>\n"
    "  <zone id=\"siteC\" routing=\"Full\">\n"
    "    <host id=\"hC\" speed=\"1Gf\"/><router id=\"gC\"/>\n"
    "    <link id=\"lc\" bandwidth=\"100MBps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
    "    <route src=\"hC\" dst=\"gC\"><link_ctn id=\"lc\" direction=\"UP\"/></route>\n"
    "  </zone>\n"
    "  <link id=\"ga\" bandwidth=\"10GBps\" latency=\"5us\"/><link id=\"gc\" bandwidth=\"10GBps\" latency=\"5us\"/>\n"
    "  <link id=\"shortcut\" bandwidth=\"1MBps\" latency=\"1us\"/>\n"
    "  <zoneRoute src=\"siteA\" dst=\"backbone\" gw_src=\"gA\" gw_dst=\"ra\"><link_ctn id=\"ga\"/></zoneRoute>\n"
    "  <zoneRoute src=\"siteC\" dst=\"backbone\" gw_src=\"gC\" gw_dst=\"rc\"><link_ctn id=\"gc\"/></zoneRoute>\n"
    "  @EXTRA@"
    "</zone>\n</platform>\n";

std::string grid_of_sites(const std::string& extra) {
  std::string text = kGridOfSites;
  text.replace(text.find("@EXTRA@"), 7, extra);
  return text;
}

TEST(SimgridXml, FloydChainsOfZoneRoutesThroughGateways) {
  Platform platform = parse_simgrid_xml(grid_of_sites(""), "grid.xml");
  EXPECT_EQ(route_links(platform, "hA", "hC"), names({"la", "ga", "ab", "bc", "gc", "lc_DOWN"}));
  EXPECT_EQ(route_links(platform, "hC", "hA"), names({"lc_UP", "gc", "bc", "ab", "ga", "la"}));
  expect_route(platform, "hA", "hC", 3.03e-3, 100e6);
  // Gateways and backbone routers are on the route as unlimited routers.
  for (const char* router : {"gA", "ra", "rb", "rc", "gC"}) {
    auto node = *platform.find(router);
    EXPECT_EQ(platform.node(node).kind, NodeKind::router) << router;
    auto route = *platform.declared_route(*platform.find("hA"), *platform.find("hC"));
    EXPECT_TRUE(std::any_of(route.begin(), route.end(), [&](size_t e) { return platform.edges()[e].to == node; }))
        << router;
  }
}

TEST(SimgridXml, AsymmetricZoneRoutes) {
  // A one-way zoneRoute from siteA to siteC straight over a slow link, the
  // way back through the backbone: each direction keeps its own route.
  Platform platform = parse_simgrid_xml(
      grid_of_sites("<zoneRoute src=\"siteA\" dst=\"siteC\" gw_src=\"gA\" gw_dst=\"gC\" symmetrical=\"NO\">"
                    "<link_ctn id=\"shortcut\"/></zoneRoute>\n"),
      "grid.xml");
  EXPECT_EQ(route_links(platform, "hA", "hC"), names({"la", "shortcut", "lc_DOWN"}));
  EXPECT_EQ(route_links(platform, "hC", "hA"), names({"lc_UP", "gc", "bc", "ab", "ga", "la"}));
}

TEST(SimgridXml, BypassRoutesReplaceTheRoutingsChoice) {
  // SimGrid's bypassRoute.xml, reduced: host1 -> host2 would take the
  // central router's links; the bypass sends it round the bypass routers.
  std::string text =
      "<platform version=\"4.1\">\n<zone id=\"AS_2\" routing=\"Floyd\">\n"
      "<host id=\"h1\" speed=\"1Gf\"/><host id=\"h2\" speed=\"1Gf\"/>\n"
      "<router id=\"central\"/><router id=\"b1\"/><router id=\"b2\"/>\n"
      "<link id=\"l1\" bandwidth=\"1GBps\" latency=\"1ms\"/><link id=\"l2\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
      "<link id=\"l5\" bandwidth=\"1GBps\" latency=\"1ms\"/><link id=\"l6\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
      "<link id=\"l7\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
      "<route src=\"central\" dst=\"h1\"><link_ctn id=\"l1\"/></route>\n"
      "<route src=\"central\" dst=\"h2\"><link_ctn id=\"l2\"/></route>\n"
      "<route src=\"b1\" dst=\"h2\"><link_ctn id=\"l5\"/></route>\n"
      "<route src=\"b1\" dst=\"b2\"><link_ctn id=\"l6\"/></route>\n"
      "<route src=\"b2\" dst=\"h1\"><link_ctn id=\"l7\"/></route>\n"
      "<bypassRoute src=\"h1\" dst=\"h2\"><link_ctn id=\"l7\"/><link_ctn id=\"l6\"/><link_ctn id=\"l5\"/></bypassRoute>\n"
      "</zone>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "bypass.xml");
  EXPECT_EQ(route_links(platform, "h1", "h2"), names({"l7", "l6", "l5"}));
  EXPECT_EQ(route_links(platform, "h2", "h1"), names({"l2", "l1"}));  // a bypass is one way
  // The graph's cheapest path is the central one: the declared route is what planners must follow.
  auto costs = platform.edge_costs(1e6);
  auto cheapest = shortest_paths_from(platform, 0, costs).path(platform, 1);
  EXPECT_NE(cheapest, *platform.route(0, 1, costs));
  EXPECT_EQ(*platform.route(0, 1, costs), *platform.declared_route(0, 1));
}

TEST(SimgridXml, BypassZoneRoutes) {
  // SimGrid's bypassZoneRoute.xml: three one-host clusters, the bypass joins the first two by its own link.
  Platform platform = load_platform_file(testing::source_path("tests/data/simgrid/bypassZoneRoute.xml")).graph();
  EXPECT_EQ(route_links(platform, "1", "2"), names({"my_cluster_1_link_1_UP", "link_tmp", "my_cluster_2_link_2_DOWN"}));
  EXPECT_EQ(route_links(platform, "1", "3"), names({"my_cluster_1_link_1_UP", "link1", "link3", "my_cluster_3_link_3_DOWN"}));
}

TEST(SimgridXml, HandWrittenClusterZoneAndCabinets) {
  std::string text = platform_xml(
      "<host id=\"n0\" speed=\"1Gf\"/><host id=\"n1\" speed=\"1Gf\"/>\n"
      "<link id=\"l0\" bandwidth=\"1GBps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
      "<link id=\"l1\" bandwidth=\"2GBps\" latency=\"20us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
      "<host_link id=\"n0\" up=\"l0_UP\" down=\"l0_DOWN\"/><host_link id=\"n1\" up=\"l1_UP\" down=\"l1_DOWN\"/>\n"
      "<cabinet id=\"cab\" prefix=\"c\" suffix=\"\" radical=\"1-2\" speed=\"2Gf\" bw=\"125MBps\" lat=\"5us\"/>\n"
      "<backbone id=\"bb\" bandwidth=\"500MBps\" latency=\"1us\"/>\n<router id=\"gateway\"/>\n",
      "Cluster");
  Platform platform = parse_simgrid_xml(text, "hand.xml");
  EXPECT_EQ(route_links(platform, "n0", "n1"), names({"l0_UP", "bb", "l1_DOWN"}));
  EXPECT_EQ(route_links(platform, "c2", "n0"), names({"link_c2_UP", "bb", "l0_DOWN"}));
  EXPECT_EQ(route_links(platform, "n1", "gateway"), names({"l1_UP", "bb"}));
  EXPECT_EQ(route_links(platform, "gateway", "c1"), names({"bb", "link_c1_DOWN"}));
  expect_route(platform, "n0", "n1", 31e-6, 500e6);
  EXPECT_DOUBLE_EQ(*platform.node(*platform.find("c1")).speed, 2e9);
}

// ---------------------------------------------- Floyd and Dijkstra zones ---

TEST(SimgridXml, ShortestPathZonesChainDeclaredRoutes) {
  for (const std::string routing : {"Floyd", "Dijkstra", "DijkstraCache"}) {
    std::string text = platform_xml(
        "<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/><host id=\"C\" speed=\"1Gf\"/>\n"
        "<router id=\"R\"/>\n"
        "<link id=\"ar\" bandwidth=\"100MBps\" latency=\"1ms\"/><link id=\"rb\" bandwidth=\"100MBps\" latency=\"1ms\"/>\n"
        "<link id=\"ab\" bandwidth=\"10MBps\" latency=\"5ms\"/><link id=\"bc\" bandwidth=\"50MBps\" latency=\"2ms\"/>\n"
        "<route src=\"A\" dst=\"R\"><link_ctn id=\"ar\"/></route>\n"
        "<route src=\"R\" dst=\"B\"><link_ctn id=\"rb\"/></route>\n"
        "<route src=\"A\" dst=\"B\"><link_ctn id=\"ab\"/></route>\n"
        "<route src=\"B\" dst=\"C\"><link_ctn id=\"bc\"/></route>\n",
        routing);
    Platform platform = parse_simgrid_xml(text, "floyd.xml");
    SCOPED_TRACE(routing);
    // One link beats two, whatever their speed (SimGrid counts links).
    EXPECT_EQ(route_links(platform, "A", "B"), names({"ab"}));
    // A -> B -> C (2 links) rather than A -> R -> B -> C (3 links).
    EXPECT_EQ(route_links(platform, "A", "C"), names({"ab", "bc"}));
    EXPECT_EQ(route_links(platform, "C", "A"), names({"bc", "ab"}));
    expect_route(platform, "A", "C", 7e-3, 10e6);
  }
}

// ------------------------------------------- Vivaldi, Wi-Fi, topologies ---

TEST(SimgridXml, VivaldiDistancesAddLatency) {
  std::string text =
      "<platform version=\"4.1\">\n<zone id=\"AS0\" routing=\"Vivaldi\">\n"
      "<peer id=\"p\" coordinates=\"0 0 1\" speed=\"1Gf\" bw_in=\"10MBps\" bw_out=\"20MBps\"/>\n"
      "<peer id=\"q\" coordinates=\"3 4 2\" speed=\"1Gf\" bw_in=\"30MBps\" bw_out=\"40MBps\"/>\n"
      "<host id=\"h\" coordinates=\"0 0 0\" speed=\"1Gf\"/>\n"
      "</zone>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "vivaldi.xml");
  // The euclidean distance 5 plus both heights 1 + 2: 8 ms (VivaldiZone::get_local_route).
  EXPECT_EQ(route_links(platform, "p", "q"), names({"link_p_UP", "link_q_DOWN"}));
  expect_route(platform, "p", "q", 8e-3, 20e6);
  expect_route(platform, "q", "p", 8e-3, 10e6);
  // A host without peer links: the distance alone (here 5 + 2).
  auto route = *platform.declared_route(*platform.find("h"), *platform.find("q"));
  EXPECT_DOUBLE_EQ(platform.route_time(route, 1e6), 7e-3 + 1e6 / 30e6);
  expect_error(platform_xml("<host id=\"h\" speed=\"1Gf\"/>\n", "Vivaldi"),
               {"<host id=\"h\"> coordinates: missing", "Vivaldi"});
  expect_error(platform_xml("<host id=\"h\" speed=\"1Gf\" coordinates=\"1 2\"/>\n", "Vivaldi"),
               {"<host id=\"h\"> coordinates: must be three numbers"});
  expect_error(platform_xml("<peer id=\"p\" coordinates=\"0 0 1\" speed=\"1Gf\" bw_in=\"1Bps\" bw_out=\"1Bps\"/>\n"),
               {"<peer id=\"p\">", "Vivaldi"});
}

TEST(SimgridXml, WifiCellIsOneSharedLink) {
  Platform platform = load_platform_file(testing::source_path("tests/data/simgrid/wifi.xml")).graph();
  auto cell = *platform.find("AP1");
  EXPECT_EQ(platform.node(cell).kind, NodeKind::link);
  EXPECT_EQ(platform.node(cell).ports, PortModel::one_port);
  EXPECT_EQ(route_links(platform, "Station 1", "Station 2"), names({"AP1"}));
  EXPECT_EQ(route_links(platform, "Station 1", "node1"), names({"AP1", "Collector"}));
  EXPECT_EQ(route_links(platform, "node1", "Station 2"), names({"Collector", "AP1"}));
  expect_route(platform, "Station 1", "node1", 0.0, 54e6 / 8);  // the first rate of "54Mbps,36Mbps,24Mbps"
}

TEST(SimgridXml, TorusRoutesCrossEveryLimiterOnTheWay) {
  // A ring of 4 (TorusZone): 0 -> 2 goes right through 1; every position's limiter is crossed once.
  std::string text = platform_xml(
      "<cluster id=\"t\" topology=\"TORUS\" topo_parameters=\"4\" prefix=\"n\" suffix=\"\" radical=\"0-3\"\n"
      "         speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" limiter_link=\"100MBps\"/>\n");
  Platform platform = parse_simgrid_xml(text, "torus.xml");
  EXPECT_EQ(route_links(platform, "n0", "n2"),
            names({"t_link_0_limiter", "t_link_from_0_to_1_UP", "t_link_1_limiter", "t_link_from_1_to_2_UP",
                   "t_link_2_limiter"}));
  // 3 -> 0 wraps around to the right; 0 -> 3 goes left over 3's link, down half.
  EXPECT_EQ(route_links(platform, "n3", "n0"), names({"t_link_3_limiter", "t_link_from_3_to_0_UP", "t_link_0_limiter"}));
  EXPECT_EQ(route_links(platform, "n0", "n3"), names({"t_link_0_limiter", "t_link_from_3_to_0_DOWN", "t_link_3_limiter"}));
  expect_route(platform, "n0", "n2", 100e-6, 100e6);
  // Positions are switches: a transit does not pass through a host.
  auto route = *platform.declared_route(0, 2);
  for (size_t e : route) {
    auto head = platform.edges()[e].to;
    if (head != 2) { EXPECT_NE(platform.node(head).kind, NodeKind::host) << platform.id(head); }
  }
  expect_error(platform_xml("<cluster id=\"t\" topology=\"TORUS\" topo_parameters=\"4,x\" prefix=\"n\" radical=\"0-3\""
                            " speed=\"1Gf\" bw=\"1GBps\"/>\n"),
               {"<cluster id=\"t\"> topo_parameters", "\"x\" is not a positive integer"});
  expect_error(platform_xml("<cluster id=\"t\" topology=\"TORUS\" topo_parameters=\"4,2\" prefix=\"n\" radical=\"0-3\""
                            " speed=\"1Gf\" bw=\"1GBps\"/>\n"),
               {"<cluster id=\"t\"> radical", "has 8 hosts but the radical names 4"});
  expect_error(platform_xml("<cluster id=\"f\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2\" prefix=\"n\""
                            " radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\"/>\n"),
               {"<cluster id=\"f\"> topo_parameters", "fat tree"});
  expect_error(platform_xml("<cluster id=\"d\" topology=\"DRAGONFLY\" topo_parameters=\"3,1;1,1;2,1;1\" prefix=\"n\""
                            " radical=\"0-5\" speed=\"1Gf\" bw=\"1GBps\"/>\n"),
               {"<cluster id=\"d\"> topo_parameters", "3 groups need at least as many routers"});
}

// --------------------------------------------------------- bad input ---

TEST(SimgridXmlErrors, MalformedXmlReportsLineAndColumn) {
  expect_error("<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">\n  </platform>\n",
               {"line 3, column", "malformed XML"});
  expect_error("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n<host id=\"A speed=\"1Gf\"/>",
               {"line 3, column", "malformed XML"});
  expect_error("", {"malformed XML"});
  expect_error("just text", {"malformed XML"});
  expect_error("<platform version=\"4.1\"/>\n<platform version=\"4.1\"/>", {"line 2", "single root"});
}

TEST(SimgridXmlErrors, DocumentLevelProblems) {
  expect_error("<?xml version='1.0'?>\n<html/>", {"line 2: <html>", "<platform>"});
  expect_error("<platform>\n<zone id=\"z\" routing=\"Full\"/>\n</platform>", {"line 1: <platform> version: missing"});
  expect_error("<platform version=\"3\">\n</platform>", {"<platform> version", "\"3\"", "simgrid_update_xml"});
  expect_error("<platform version=\"4.1\">\n</platform>", {"no <zone> or <cluster>"});
  expect_error("<platform version=\"4.1\">\n<zone id=\"a\" routing=\"Full\"/>\n<zone id=\"b\" routing=\"Full\"/>\n"
               "</platform>",
               {"line 3: <zone id=\"b\">", "single root"});
  expect_error(platform_xml("<router id=\"r\"/>\n"), {"no <host>"});
  expect_error("<platform version=\"4.1\">\n<include file=\"other.xml\"/>\n</platform>",
               {"line 2: <include>", "not supported"});
  // <AS> and <ASroute> are version 4.1's deprecated names of <zone> and <zoneRoute>.
  Platform old_names = parse_simgrid_xml(
      "<platform version=\"4.1\">\n<AS id=\"a\" routing=\"Full\"><host id=\"h\" speed=\"1f\"/></AS>\n</platform>", "t.xml");
  EXPECT_EQ(old_names.size(), 1);
}

TEST(SimgridXmlErrors, ZonesAndRoutingKinds) {
  expect_error(platform_xml(kTwoHosts, "Fancy"), {"line 3: <zone id=\"z\"> routing", "unknown routing \"Fancy\""});
  expect_error(platform_xml(kTwoHosts, "RuleBased"), {"<zone id=\"z\"> routing", "unknown routing \"RuleBased\""});
  expect_error("<platform version=\"4.1\">\n<zone routing=\"Full\"/>\n</platform>", {"line 2: <zone> id: missing"});
  expect_error("<platform version=\"4.1\">\n<zone id=\"z\"/>\n</platform>", {"<zone id=\"z\"> routing: missing"});
  std::string deep = "<platform version=\"4.1\">\n";
  for (int level = 0; level < 40; ++level) deep += "<zone id=\"z" + std::to_string(level) + "\" routing=\"Full\">";
  for (int level = 0; level < 40; ++level) deep += "</zone>";
  deep += "</platform>";
  expect_error(deep, {"nested more than 32 deep"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n", "None"),
               {"<route src=\"A\" dst=\"B\">", "takes no <route>"});
  expect_error(platform_xml(kTwoHosts + "<backbone id=\"bb\" bandwidth=\"1GBps\"/>\n"),
               {"<backbone id=\"bb\">", "routing \"Cluster\""});
  expect_error(platform_xml(kTwoHosts + "<cabinet id=\"c\" prefix=\"x\" radical=\"1\" speed=\"1f\" bw=\"1Bps\" lat=\"0\"/>\n"),
               {"<cabinet id=\"c\">", "routing \"Cluster\""});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n", "Cluster"),
               {"<route src=\"A\" dst=\"B\">", "takes no <route>"});
  expect_error(platform_xml("<host id=\"A\" speed=\"1f\" coordinates=\"0 0 0\"/><host id=\"B\" speed=\"1f\" "
                            "coordinates=\"0 0 0\"/><link id=\"l\" bandwidth=\"1Bps\"/>\n"
                            "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n",
                            "Vivaldi"),
               {"<route src=\"A\" dst=\"B\">", "routes by itself"});
  expect_error(platform_xml("<link id=\"a\" bandwidth=\"1Bps\"/><link id=\"b\" bandwidth=\"1Bps\"/>\n", "Wifi"),
               {"<link id=\"b\">", "already has its link"});
}

TEST(SimgridXmlErrors, HostsAndLinks) {
  expect_error(platform_xml("<host id=\"A\"/>\n"), {"bad.xml: line 4: <host id=\"A\"> speed: missing"});
  expect_error(platform_xml("<host speed=\"1Gf\"/>\n"), {"line 4: <host> id: missing"});
  expect_error(platform_xml("<host id=\"\" speed=\"1Gf\"/>\n"), {"<host id=\"\"> id: must not be empty"});
  expect_error(platform_xml("<host id=\"A\" speed=\"1Gf\"/>\n<host id=\"A\" speed=\"2Gf\"/>\n"),
               {"line 5: <host id=\"A\"> id: duplicate name \"A\"", "line 4"});
  expect_error(platform_xml("<host id=\"z\" speed=\"1Gf\"/>\n"), {"<host id=\"z\"> id: duplicate name \"z\""});
  // Names become JSON strings when the platform is written out: UTF-8 only, and messages stay printable.
  expect_error(platform_xml("<host id=\"A\xd9\xd9\" speed=\"1Gf\"/>\n"), {"<host id=\"A??\"> id: is not valid UTF-8"});
  expect_error(platform_xml("<host id=\"\xc3\xa9t\xc3\xa9\"/>\n"), {"<host id=\"\xc3\xa9t\xc3\xa9\"> speed: missing"});
  expect_error(platform_xml("<host id=\"A\" speed=\"-1Gf\"/>\n"), {"<host id=\"A\"> speed", "must be positive"});
  expect_error(platform_xml("<host id=\"A\" speed=\"1Gf,\"/>\n"), {"<host id=\"A\"> speed", "empty"});
  expect_error(platform_xml("<host id=\"A\" speed=\"1Gf,2GHz\"/>\n"), {"<host id=\"A\"> speed", "unknown unit \"GHz\""});
  expect_error(platform_xml("<host id=\"A\" speed=\"1Gf\"/>\n<link id=\"l3\" bandwidth=\"10MBs\"/>\n"),
               {"bad.xml: line 5: <link id=\"l3\"> bandwidth: unknown unit \"MBs\""});
  expect_error(platform_xml("<link id=\"l\"/>\n"), {"<link id=\"l\"> bandwidth: missing"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"0MBps\"/>\n"), {"<link id=\"l\"> bandwidth", "positive"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\" latency=\"-2ms\"/>\n"),
               {"<link id=\"l\"> latency", "non-negative"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\" latency=\"1e999s\"/>\n"),
               {"<link id=\"l\"> latency", "out of range"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\"/>\n<link id=\"l\" bandwidth=\"2MBps\"/>\n"),
               {"line 5: <link id=\"l\"> id: duplicate link name \"l\"", "line 4"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\" sharing_policy=\"SPLITDUPLEX\"/>\n"
                            "<link id=\"l_UP\" bandwidth=\"2MBps\"/>\n"),
               {"duplicate link name \"l_UP\""});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\" sharing_policy=\"WIFI\"/>\n"),
               {"<link id=\"l\"> sharing_policy", "a WIFI link belongs in a zone with routing \"Wifi\""});
  expect_error(platform_xml("<host id=\"A\" speed=\"1Gf,-1f\"/>\n"), {"<host id=\"A\"> speed", "non-negative"});
  expect_error(platform_xml("<link id=\"l\" bandwidth=\"1MBps\" sharing_policy=\"LOOSE\"/>\n"),
               {"<link id=\"l\"> sharing_policy", "unknown sharing policy"});
}

TEST(SimgridXmlErrors, Routes) {
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"Z\"><link_ctn id=\"l\"/></route>\n"),
               {"line 7: <route src=\"A\" dst=\"Z\"> dst: unknown host, router or zone \"Z\""});
  expect_error(platform_xml(kTwoHosts + "<route dst=\"B\"><link_ctn id=\"l\"/></route>\n"),
               {"<route dst=\"B\"> src: missing"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\">\n  <link_ctn id=\"nope\"/>\n</route>\n"),
               {"line 8: <link_ctn id=\"nope\"> id: unknown link \"nope\""});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn/></route>\n"),
               {"<link_ctn> id: missing"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"></route>\n"),
               {"<route src=\"A\" dst=\"B\">", "at least one <link_ctn>"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n"
                                        "<route src=\"B\" dst=\"A\"><link_ctn id=\"l\"/></route>\n"),
               {"line 8: <route src=\"B\" dst=\"A\">", "already given at line 7", "symmetrical"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\" symmetrical=\"maybe\"><link_ctn id=\"l\"/></route>\n"),
               {"symmetrical: must be YES or NO"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\" direction=\"LEFT\"/></route>\n"),
               {"<link_ctn id=\"l\"> direction"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><host id=\"C\" speed=\"1f\"/></route>\n"),
               {"<host id=\"C\">", "expected <link_ctn>"});
  expect_error(platform_xml(kTwoHosts + "<bypassRoute src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></bypassRoute>\n"
                                        "<bypassRoute src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></bypassRoute>\n"),
               {"line 8: <bypassRoute src=\"A\" dst=\"B\">", "bypass route from \"A\" to \"B\" is already given"});
  expect_error(platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/><link_ctn id=\"l\"/></route>\n"),
               {"<link_ctn id=\"l\"> id", "crosses this link twice in a row"});
  expect_error(platform_xml("<host id=\"A\" speed=\"1f\"/><host id=\"B\" speed=\"1f\"/>\n"
                            "<link id=\"s\" bandwidth=\"1Bps\" sharing_policy=\"SPLITDUPLEX\"/>\n"
                            "<route src=\"A\" dst=\"B\"><link_ctn id=\"s\"/></route>\n"),
               {"<link_ctn id=\"s\"> direction", "SPLITDUPLEX", "s_UP"});
  expect_error(platform_xml(kTwoHosts + "<fancy/>\n"), {"line 7: <fancy>", "unexpected element"});
}

TEST(SimgridXmlErrors, RoutesAcrossZones) {
  const std::string inner = "<zone id=\"inner\" routing=\"Full\"><host id=\"C\" speed=\"1Gf\"/><router id=\"g\"/></zone>\n";
  // A route names a host of a sub-zone.
  expect_error(platform_xml(kTwoHosts + inner + "<route src=\"A\" dst=\"C\"><link_ctn id=\"l\"/></route>\n"),
               {"<route src=\"A\" dst=\"C\"> dst", "not declared directly in zone \"z\""});
  // A route names a zone.
  expect_error(platform_xml(kTwoHosts + inner + "<route src=\"A\" dst=\"inner\"><link_ctn id=\"l\"/></route>\n"),
               {"dst", "is a zone: use <zoneRoute>"});
  // A zoneRoute names hosts.
  expect_error(platform_xml(kTwoHosts + "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"A\" gw_dst=\"B\"/>\n"),
               {"<zoneRoute src=\"A\" dst=\"B\"> src", "joins two zones"});
  // A gateway outside its zone.
  const std::string two_zones = "<zone id=\"x\" routing=\"Full\"><host id=\"X\" speed=\"1Gf\"/></zone>\n"
                                "<zone id=\"y\" routing=\"Full\"><host id=\"Y\" speed=\"1Gf\"/></zone>\n";
  expect_error(platform_xml(two_zones + "<zoneRoute src=\"x\" dst=\"y\" gw_src=\"Y\" gw_dst=\"Y\"/>\n"),
               {"gw_src", "\"Y\" is not inside zone \"x\""});
  expect_error(platform_xml(two_zones + "<zoneRoute src=\"x\" dst=\"y\" gw_src=\"X\"/>\n"), {"gw_dst: missing"});
  expect_error(platform_xml(two_zones + "<zoneRoute src=\"x\" dst=\"y\" gw_src=\"x\" gw_dst=\"Y\"/>\n"),
               {"gw_src", "is a zone"});
}

TEST(SimgridXmlErrors, Clusters) {
  const std::string cluster = "<cluster id=\"c\" prefix=\"n\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" ";
  expect_error(platform_xml(cluster + "radical=\"0-x\"/>\n"), {"<cluster id=\"c\"> radical", "\"x\""});
  expect_error(platform_xml(cluster + "radical=\"5-2\"/>\n"), {"<cluster id=\"c\"> radical", "is empty"});
  expect_error(platform_xml(cluster + "radical=\"\"/>\n"), {"<cluster id=\"c\"> radical: must not be empty"});
  expect_error(platform_xml(cluster + "radical=\"0-99999999999\"/>\n"), {"radical", "too many hosts"});
  expect_error(platform_xml(cluster + "radical=\"0-3,2\"/>\n"), {"duplicate name \"n2\""});
  expect_error(platform_xml(cluster + "radical=\"0-3\" topology=\"RING\" topo_parameters=\"2,2\"/>\n"),
               {"<cluster id=\"c\"> topology", "unknown topology \"RING\""});
  expect_error(platform_xml(cluster + "radical=\"0-3\" topology=\"TORUS\"/>\n"), {"<cluster id=\"c\"> topo_parameters: missing"});
  expect_error(platform_xml(cluster + "radical=\"0-1\" bb_bw=\"1GBps\" bb_sharing_policy=\"SPLITDUPLEX\"/>\n"),
               {"<cluster id=\"c\"> bb_sharing_policy", "SHARED or FATPIPE"});
  expect_error(platform_xml("<cluster id=\"c\" radical=\"0-1\" speed=\"1Gf\" lat=\"1us\"/>\n"),
               {"<cluster id=\"c\"> bw: missing"});
  expect_error(platform_xml(cluster + "radical=\"0-1\" bb_bw=\"fast\"/>\n"), {"<cluster id=\"c\"> bb_bw"});
  expect_error(platform_xml("<host id=\"n\" speed=\"1Gf\"/><host id=\"m\" speed=\"1Gf\"/>\n"
                            "<link id=\"l\" bandwidth=\"1GBps\"/><host_link id=\"n\" up=\"l\" down=\"l\"/>\n",
                            "Cluster"),
               {"<zone id=\"z\">", "host \"m\" has no <host_link>"});
  expect_error(platform_xml("<host id=\"n\" speed=\"1Gf\"/>\n<host_link id=\"n\" up=\"l\" down=\"l\"/>\n", "Cluster"),
               {"<host_link id=\"n\"> up: unknown link \"l\""});
}

TEST(SimgridXmlErrors, Limits) {
  SimgridImportOptions small;
  small.max_hosts = 3;
  expect_error(platform_xml("<host id=\"a\" speed=\"1f\"/><host id=\"b\" speed=\"1f\"/><host id=\"c\" speed=\"1f\"/>"
                            "<host id=\"d\" speed=\"1f\"/>\n"),
               {"<host id=\"d\">", "too many hosts", "3 hosts"}, small);
  expect_error(platform_xml("<cluster id=\"c\" radical=\"0-3\" speed=\"1f\" bw=\"1Bps\"/>\n"), {"too many hosts"},
               small);
  SimgridImportOptions few_nodes;
  few_nodes.max_elements = 10;
  expect_error(platform_xml("<cluster id=\"c\" radical=\"0-9\" speed=\"1f\" bw=\"1Bps\"/>\n"),
               {"<cluster id=\"c\">", "grows past 10 nodes"}, few_nodes);
  SimgridImportOptions small_vivaldi;
  small_vivaldi.max_vivaldi_members = 1;
  expect_error(platform_xml("<host id=\"a\" speed=\"1f\" coordinates=\"0 0 0\"/><host id=\"b\" speed=\"1f\" "
                            "coordinates=\"0 0 0\"/>\n",
                            "Vivaldi"),
               {"Vivaldi zone \"z\" has 2 members", "stops at 1 members"}, small_vivaldi);
  // A latency whose sums over a plan would pass the largest double is refused
  // when the file is read (the limit core/ids.h, largest_accepted_time, keeps
  // every route's time finite), naming the value and the link's ends.
  expect_error(platform_xml("<host id=\"A\" speed=\"1f\"/><host id=\"B\" speed=\"1f\"/>\n"
                            "<link id=\"l\" bandwidth=\"1Bps\" latency=\"1e308s\"/>\n"
                            "<link id=\"m\" bandwidth=\"1Bps\" latency=\"1e308s\"/>\n"
                            "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/><link_ctn id=\"m\"/>"
                            "</route>\n"),
               {"latency: 1e+308 is too large", "largest double", "\"l\""});
}

TEST(SimgridXmlErrors, LoadPlatformFileNamesTheFile) {
  try {
    load_platform_file(testing::source_path("fuzz/corpus/xml/bad_unit.xml"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("bad_unit.xml: line"), std::string::npos) << message;
    EXPECT_NE(message.find("bandwidth: unknown unit"), std::string::npos) << message;
  }
}

TEST(SimgridXml, SitesAreTheZonesBelowTheRoot) {
  // small_platform.xml: every host in the root zone, no site.
  const Platform small = load_platform_file(small_platform_path()).graph();
  for (auto v : small.participants()) EXPECT_EQ(small.node(v).site, "") << small.id(v);
  // g5k.xml: nine site zones under AS_grid5000, their clusters inside them.
  const Platform g5k = load_platform_file(testing::source_path("tests/data/simgrid/g5k.xml")).graph();
  std::vector<std::string> sites;
  for (auto v : g5k.participants()) {
    const std::string& site = g5k.node(v).site;
    if (std::find(sites.begin(), sites.end(), site) == sites.end()) sites.push_back(site);
  }
  EXPECT_EQ(sites.size(), 9u);
  EXPECT_EQ(sites.front(), "AS_bordeaux");
  EXPECT_EQ(g5k.node(*g5k.find("edel-1.grenoble.grid5000.fr")).site, "AS_grenoble");
  // Hand-made: a host of the root zone has none, hosts of nested zones take
  // the zone just below the root.
  const Platform nested = parse_simgrid_xml(R"(<?xml version='1.0'?>
<platform version="4.1">
  <zone id="root" routing="Full">
    <host id="top" speed="1Gf"/>
    <zone id="east" routing="Full">
      <zone id="rack" routing="Full"><host id="e1" speed="1Gf"/></zone>
    </zone>
    <cluster id="west" prefix="w" suffix="" radical="1-2" speed="1Gf" bw="125MBps" lat="50us"/>
  </zone>
</platform>)",
                                            "nested.xml");
  EXPECT_EQ(nested.node(*nested.find("top")).site, "");
  EXPECT_EQ(nested.node(*nested.find("e1")).site, "east");
  EXPECT_EQ(nested.node(*nested.find("w1")).site, "west");
}

TEST(ElementNames, LinksAndRoutersAreSaidAsSuch) {
  const Platform small = load_platform_file(small_platform_path()).graph();
  const ProcessorIndex link145 = *small.find("145");
  EXPECT_EQ(describe_element(small, link145), "link 145 (2.58 MB/s, 410 µs)");
  EXPECT_EQ(describe_element(small, *small.find("Tremblay")), "Tremblay");
  EXPECT_EQ(network_elements_text(small), "24 links");
  // SimGrid's route Ginette -> Jacquelin is the one link 145.
  const auto route = small.declared_route(*small.find("Ginette"), *small.find("Jacquelin"));
  ASSERT_TRUE(route);
  EXPECT_EQ(route_via_text(small, *route), " via link 145");
  EXPECT_EQ(route_via_text(small, *route, true), " via link 145 (2.58 MB/s, 410 µs)");
  const auto longer = small.declared_route(*small.find("Tremblay"), *small.find("Ginette"));
  ASSERT_TRUE(longer);
  EXPECT_EQ(route_via_text(small, *longer, true), " via links 4, 3, 5 (narrowest: link 4, 10.1 MB/s)");
  // Hosts first: a link's id is refused even where it is also a host's index.
  EXPECT_EQ(resolve_host(small, "Boivin", "source"), *small.find("Boivin"));
  try {
    resolve_host(small, "0", "source");
    ADD_FAILURE() << "a link taken as the source";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("source: \"0\" is link 0 (41.3 MB/s, 59.9 µs), not a host"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(resolve_host(small, "7", "source"), InputError);  // index 7 is a link
  EXPECT_THROW(resolve_host(small, "nobody", "source"), InputError);
  EXPECT_EQ(format_bandwidth(1.25e9), "1.25 GB/s");
  EXPECT_EQ(format_latency(35.083019e-3), "35.1 ms");
}

}  // namespace
}  // namespace hetcoll
