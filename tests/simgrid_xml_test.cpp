// SimGrid XML import: units, SimGrid's small_platform.xml checked by hand,
// clusters, hierarchical and shortest-path routing, and every kind of bad
// input (each must be an InputError naming the file, the line, the element
// and the attribute).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid_xml.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

// SimGrid's example platform, shipped in examples/ (LGPL-2.1, see examples/README.md).
std::string small_platform_path() { return testing::source_path("examples/small_platform.xml"); }

const PlatformEdge* find_edge(const Platform& platform, std::string_view from, std::string_view to) {
  auto from_index = platform.find(from);
  auto to_index = platform.find(to);
  if (!from_index || !to_index) return nullptr;
  for (size_t e : platform.out_edges(*from_index)) {
    if (platform.edges()[e].to == *to_index) return &platform.edges()[e];
  }
  return nullptr;
}

void expect_route(const Platform& platform, std::string_view from, std::string_view to, double latency,
                  double bandwidth) {
  const PlatformEdge* edge = find_edge(platform, from, to);
  ASSERT_NE(edge, nullptr) << from << " -> " << to;
  EXPECT_FALSE(edge->cost.has_value());
  ASSERT_TRUE(edge->latency.has_value());
  ASSERT_TRUE(edge->bandwidth.has_value());
  EXPECT_NEAR(*edge->latency, latency, 1e-12 * std::max(1.0, latency)) << from << " -> " << to;
  EXPECT_NEAR(*edge->bandwidth, bandwidth, 1e-9 * bandwidth) << from << " -> " << to;
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
  EXPECT_THROW(parse_simgrid_quantity("1s", "mass", "w"), std::invalid_argument);
}

// ------------------------------------------------ small_platform.xml ---

TEST(SimgridXml, ReadsSmallPlatformByHand) {
  LoadedPlatform loaded = load_platform_file(small_platform_path());
  ASSERT_FALSE(loaded.is_cluster());
  const Platform& platform = loaded.graph();
  ASSERT_EQ(platform.size(), 7);
  const char* names[] = {"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin", "Boivin"};
  for (int v = 0; v < 7; ++v) EXPECT_EQ(platform.id(v), names[v]);
  EXPECT_DOUBLE_EQ(*platform.node(0).speed, 98.095e6);
  EXPECT_DOUBLE_EQ(*platform.node(3).speed, 48.492e6);
  EXPECT_DOUBLE_EQ(*platform.node(5).speed, 137.333e6);
  // 21 declared routes between distinct hosts, all symmetrical: the complete graph.
  EXPECT_EQ(platform.edges().size(), 42u);

  // Tremblay -> Jupiter: link 9 alone.
  expect_route(platform, "Tremblay", "Jupiter", 1.461517e-3, 7.20975e6);
  expect_route(platform, "Jupiter", "Tremblay", 1.461517e-3, 7.20975e6);
  // Tremblay -> Fafard: links 4 3 2 0 1 8.
  double latency = (479.78 + 514.433 + 136.931 + 59.904 + 514.433 + 270.544) * 1e-6;
  expect_route(platform, "Tremblay", "Fafard", latency, 8.158e6);  // link 8 is the narrowest
  expect_route(platform, "Fafard", "Tremblay", latency, 8.158e6);
  // Jacquelin -> Boivin: links 145 59 56 54 17 16 10 11 44 47.
  latency = (410.463 + 370.788 + 136.931 + 514.433 + 514.433 + 136.931) * 1e-6 +
            (29.5890617 + 35.083019 + 6.932556 + 6.932556) * 1e-3;
  expect_route(platform, "Jacquelin", "Boivin", latency, 2.583375e6);  // link 145
  // Boivin -> Fafard: links 47 44 11 6 9 79 78 80.
  latency = (136.931 + 59.904 + 1461.517 + 156.056 + 278.066) * 1e-6 + (6.932556 * 2 + 35.083019) * 1e-3;
  expect_route(platform, "Boivin", "Fafard", latency, 7.20975e6);  // link 9
}

TEST(SimgridXml, SmallPlatformServesTheSenderSpeedModel) {
  LoadedPlatform loaded = load_platform_file(small_platform_path());
  Cluster cluster = cluster_from_platform(loaded.graph(), 1e6, loaded.source_name);
  ASSERT_EQ(cluster.size(), 7);
  // Tremblay's slowest route for 1 MB is towards Fafard/Bourassa at 8.158 MBps or Jacquelin at 2.58 MBps.
  const Platform& platform = loaded.graph();
  double slowest = 0;
  for (size_t e : platform.out_edges(0)) slowest = std::max(slowest, platform.edges()[e].message_time(1e6));
  EXPECT_DOUBLE_EQ(cluster.transmission_time(0), slowest);
}

// ------------------------------------------------------------- routes ---

TEST(SimgridXml, AsymmetricRouteGivesOneEdge) {
  Platform platform = parse_simgrid_xml(
      platform_xml(kTwoHosts + "<route src=\"A\" dst=\"B\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"),
      "t.xml");
  ASSERT_EQ(platform.edges().size(), 1u);
  expect_route(platform, "A", "B", 1e-3, 1e6);
  EXPECT_EQ(find_edge(platform, "B", "A"), nullptr);
  EXPECT_DOUBLE_EQ(*platform.node(1).speed, 2e9);
}

TEST(SimgridXml, HostsWithoutRoutesHaveNoEdges) {
  Platform platform = parse_simgrid_xml(platform_xml(kTwoHosts), "t.xml");
  EXPECT_EQ(platform.size(), 2);
  EXPECT_TRUE(platform.edges().empty());
}

TEST(SimgridXml, ToleratesPropertiesDisksTracesAndConfig) {
  std::string text =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4\">\n<config><prop id=\"network/model\" value=\"CM02\"/></config>\n"
      "<zone id=\"z\" routing=\"Full\">\n<prop id=\"k\" value=\"v\"/>\n"
      "<host id=\"A\" speed=\"100Mf,50Mf,20Mf\" core=\"4\" pstate=\"0\"><prop id=\"p\" value=\"1\"/>"
      "<disk id=\"d\" read_bw=\"1MBps\" write_bw=\"1MBps\"/></host>\n"
      "<host id=\"B\" speed=\"1Gf\" unknown_attribute=\"x\"/>\n"
      "<link id=\"l\" bandwidth=\"1MBps\" latency=\"1ms\" sharing_policy=\"FATPIPE\"><prop id=\"q\" value=\"2\"/></link>\n"
      "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></route>\n"
      "<trace id=\"t\" periodicity=\"1\">0 1</trace>\n"
      "</zone>\n<actor host=\"A\" function=\"f\"><argument value=\"1\"/></actor>\n</platform>\n";
  Platform platform = parse_simgrid_xml(text, "t.xml");
  EXPECT_EQ(platform.size(), 2);
  EXPECT_DOUBLE_EQ(*platform.node(0).speed, 100e6);  // the first pstate
  EXPECT_EQ(platform.edges().size(), 2u);
}

TEST(SimgridXml, SplitDuplexHalvesCanBeNamed) {
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<link id=\"l\" bandwidth=\"10MBps\" latency=\"2ms\" sharing_policy=\"SPLITDUPLEX\"/>\n"
                   "<link id=\"m\" bandwidth=\"5MBps\" latency=\"1ms\"/>\n"
                   "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\" direction=\"UP\"/><link_ctn id=\"m\"/>"
                   "</route>\n"),
      "t.xml");
  expect_route(platform, "A", "B", 3e-3, 5e6);
  Platform halves = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<link id=\"l\" bandwidth=\"10MBps\" latency=\"2ms\" sharing_policy=\"SPLITDUPLEX\"/>\n"
                   "<route src=\"A\" dst=\"B\" symmetrical=\"NO\"><link_ctn id=\"l_UP\"/></route>\n"
                   "<route src=\"B\" dst=\"A\" symmetrical=\"NO\"><link_ctn id=\"l_DOWN\"/></route>\n"),
      "t.xml");
  expect_route(halves, "A", "B", 2e-3, 10e6);
  expect_route(halves, "B", "A", 2e-3, 10e6);
}

TEST(SimgridXml, LinksMayBeDeclaredAfterTheRoutesThatUseThem) {
  Platform platform = parse_simgrid_xml(
      platform_xml("<host id=\"A\" speed=\"1Gf\"/><host id=\"B\" speed=\"1Gf\"/>\n"
                   "<route src=\"A\" dst=\"B\"><link_ctn id=\"late\"/></route>\n"
                   "<link id=\"late\" bandwidth=\"3MBps\"/>\n"),
      "t.xml");
  expect_route(platform, "A", "B", 0.0, 3e6);  // latency defaults to 0
}

// ----------------------------------------------------------- clusters ---

TEST(SimgridXml, ClusterExpandsRadicalAndJoinsEveryPair) {
  std::string text =
      "<platform version=\"4.1\">\n"
      "  <cluster id=\"bob\" prefix=\"bob-\" suffix=\".edu\" radical=\"0-2,5\" speed=\"1Gf,500Mf\"\n"
      "           bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>\n"
      "</platform>\n";
  Platform platform = parse_simgrid_xml(text, "cluster.xml");
  ASSERT_EQ(platform.size(), 4);
  EXPECT_EQ(platform.id(0), "bob-0.edu");
  EXPECT_EQ(platform.id(1), "bob-1.edu");
  EXPECT_EQ(platform.id(2), "bob-2.edu");
  EXPECT_EQ(platform.id(3), "bob-5.edu");
  EXPECT_DOUBLE_EQ(*platform.node(3).speed, 1e9);
  EXPECT_EQ(platform.edges().size(), 12u);  // the complete graph
  // host link + backbone + host link
  expect_route(platform, "bob-0.edu", "bob-5.edu", 600e-6, 125e6);
  expect_route(platform, "bob-5.edu", "bob-1.edu", 600e-6, 125e6);
}

TEST(SimgridXml, ClusterWithoutBackboneUsesOnlyPrivateLinks) {
  std::string text = platform_xml(
      "<cluster id=\"c\" prefix=\"n\" radical=\"1-3\" speed=\"2Gf\" bw=\"1Gbps\" lat=\"10us\" bb_lat=\"1s\"/>\n");
  Platform platform = parse_simgrid_xml(text, "cluster.xml");
  ASSERT_EQ(platform.size(), 3);
  EXPECT_EQ(platform.id(0), "n1");
  expect_route(platform, "n1", "n3", 20e-6, 125e6);
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
  ASSERT_EQ(platform.size(), 4);
  EXPECT_EQ(platform.edges().size(), 12u);
  expect_route(platform, "bob0.hamburger.edu", "bob1.hamburger.edu", 600e-6, 125e6);
  expect_route(platform, "alice0.crepe.fr", "alice1.crepe.fr", 100e-6, 125e6);
  // bob0 -> its router (private link + backbone), the zoneRoute, alice's router -> alice1 (private link).
  expect_route(platform, "bob0.hamburger.edu", "alice1.crepe.fr", 1100e-6, 100e6);
  expect_route(platform, "alice0.crepe.fr", "bob1.hamburger.edu", 1100e-6, 100e6);  // symmetrical
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
  ASSERT_EQ(platform.size(), 2);
  expect_route(platform, "L", "R", 33e-3, 5e6);
  expect_route(platform, "R", "L", 33e-3, 5e6);
}

TEST(SimgridXml, HandWrittenClusterZone) {
  std::string text = platform_xml(
      "<host id=\"n0\" speed=\"1Gf\"/><host id=\"n1\" speed=\"1Gf\"/>\n"
      "<link id=\"l0\" bandwidth=\"1GBps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
      "<link id=\"l1\" bandwidth=\"2GBps\" latency=\"20us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
      "<host_link id=\"n0\" up=\"l0_UP\" down=\"l0_DOWN\"/><host_link id=\"n1\" up=\"l1_UP\" down=\"l1_DOWN\"/>\n"
      "<backbone id=\"bb\" bandwidth=\"500MBps\" latency=\"1us\"/>\n<router id=\"gateway\"/>\n",
      "Cluster");
  Platform platform = parse_simgrid_xml(text, "hand.xml");
  expect_route(platform, "n0", "n1", 31e-6, 500e6);
  expect_route(platform, "n1", "n0", 31e-6, 500e6);
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
    EXPECT_EQ(platform.edges().size(), 6u);
    // One link beats two, whatever their speed (SimGrid counts links).
    expect_route(platform, "A", "B", 5e-3, 10e6);
    // A -> B -> C (2 links) rather than A -> R -> B -> C (3 links).
    expect_route(platform, "A", "C", 7e-3, 10e6);
    expect_route(platform, "C", "A", 7e-3, 10e6);
  }
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
  expect_error("<platform version=\"4.1\">\n<AS id=\"a\" routing=\"Full\"/>\n</platform>", {"line 2: <AS id=\"a\">",
                                                                                             "simgrid_update_xml"});
}

TEST(SimgridXmlErrors, ZonesAndRoutingKinds) {
  expect_error(platform_xml(kTwoHosts, "Fancy"), {"line 3: <zone id=\"z\"> routing", "unknown routing \"Fancy\""});
  expect_error(platform_xml(kTwoHosts, "Vivaldi"), {"<zone id=\"z\"> routing", "not supported"});
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
               {"<link id=\"l\"> sharing_policy", "WIFI"});
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
  expect_error(platform_xml(kTwoHosts + "<bypassRoute src=\"A\" dst=\"B\"><link_ctn id=\"l\"/></bypassRoute>\n"),
               {"<bypassRoute src=\"A\" dst=\"B\">", "not supported"});
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
  expect_error(platform_xml(cluster + "radical=\"0-3\" topology=\"TORUS\" topo_parameters=\"2,2\"/>\n"),
               {"<cluster id=\"c\"> topology", "TORUS"});
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
  // Latencies that add up past the largest double.
  expect_error(platform_xml("<host id=\"A\" speed=\"1f\"/><host id=\"B\" speed=\"1f\"/>\n"
                            "<link id=\"l\" bandwidth=\"1Bps\" latency=\"1e308s\"/>\n"
                            "<route src=\"A\" dst=\"B\"><link_ctn id=\"l\"/><link_ctn id=\"l\"/></route>\n"),
               {"from \"A\" to \"B\"", "infinite latency"});
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

}  // namespace
}  // namespace hetcoll
