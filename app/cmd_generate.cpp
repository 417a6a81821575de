// generate: random platform files.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/gen/grid_generator.h"
#include "hetcoll/gen/random_platform.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::cli {
namespace {

int run_generate_cluster(const ClusterGeneratorOptions& options, const std::string& out_file) {
  Cluster cluster = generate_cluster(options);
  if (out_file.empty()) {
    write_cluster_json(std::cout, cluster);
  } else {
    write_file_with(out_file, [&](std::ostream& out) { write_cluster_json(out, cluster); }, "--out");
    std::cout << fmt::format("wrote a {}-processor cluster to {}\n", cluster.size(), out_file);
  }
  return 0;
}

// Platform graphs go to stdout as JSON, or to --out with a one-line summary.
int write_generated_platform(const Platform& platform, const std::string& out_file) {
  if (out_file.empty()) {
    write_platform_json(std::cout, platform);
    return 0;
  }
  std::ostringstream text;
  write_platform_json(text, platform);
  write_file(out_file, text.str(), "--out");
  const double n = platform.size();
  const double links = static_cast<double>(platform.edges().size()) / 2;
  std::cout << fmt::format("wrote a {}-node platform with {} links (density {:.3f}) to {}\n", platform.size(), links,
                           n > 1 ? links / (n * (n - 1) / 2) : 0.0, out_file);
  return 0;
}

// Options both platform-graph generators share (link_draws.h).
void add_link_draw_options(CLI::App* command, LinkDrawOptions& links) {
  command->add_option("--bandwidth-mean", links.bandwidth_mean,
                      "Mean link bandwidth, bytes/s (default 1e8 = 100 MB/s, Gaussian)");
  command->add_option("--bandwidth-deviation", links.bandwidth_deviation,
                      "Standard deviation of link bandwidths, bytes/s (default 2e7)");
  command->add_option("--send-overhead-fraction", links.send_overhead_fraction,
                      "Multi-port send overhead of a node = this fraction x the time its fastest link takes for one "
                      "slice (default 0.8: no send_overhead is written and the planners apply this rule at the "
                      "slice size in use; another fraction writes fixed seconds per slice, see --slice-size)");
  add_table_option(command, "--slice-size", links.slice_size);
}

// generate grid: sites of hosts behind shared wide-area links (gen/grid_generator.h).
void add_generate_grid(CLI::App* generate, int& result) {
  struct GridCommandOptions {
    GridGeneratorOptions grid;
    std::string hosts_per_site = "4-64";
    int total_hosts = 0;
    double man_ratio = 0;
    std::string out;
  };
  auto options = std::make_shared<GridCommandOptions>();
  CLI::App* grid = generate->add_subcommand(
      "grid", "A grid of sites: hosts on a site switch (LAN), sites joined by shared WAN links (two levels), or "
              "grouped in regions joined by MAN links (three levels); costs are times of one message");
  grid->add_option("--levels", options->grid.levels, "2 (sites and a WAN) or 3 (sites, regions, a WAN); default 2")
      ->check(CLI::IsMember({2, 3}));
  grid->add_option("--sites", options->grid.sites, "Sites (two levels) or sites per region (three levels); default 4")
      ->check(positive_finite_number());
  grid->add_option("--regions", options->grid.regions, "Regions (three levels; default 2)")->check(positive_finite_number());
  grid->add_option("--hosts-per-site", options->hosts_per_site, "Hosts per site, N or MIN-MAX (default 4-64)");
  grid->add_option("--hosts", options->total_hosts,
                   "Total hosts: add sites until there are this many (overrides --sites and --regions)")
      ->check(positive_finite_number());
  grid->add_option("--lan-cost", options->grid.lan_cost, "Time of one message between two hosts of a site (default 1)")
      ->check(positive_finite_number());
  grid->add_option("--wan-ratio", options->grid.wan_ratio,
                   "Time between two sites (regions) over the time inside a site (default 10)")
      ->check(CLI::Range(1.0, 1e6));
  grid->add_option("--man-ratio", options->man_ratio,
                   "Three levels: time between two sites of a region over the LAN time (default sqrt(--wan-ratio))")
      ->check(CLI::Range(1.0, 1e6));
  grid->add_option("--jitter", options->grid.jitter,
                   "Spread of host link costs: each is [1 - jitter, 1] x its site's (default 0.5)")
      ->check(CLI::Range(0.0, 0.99));
  grid->add_flag("--speeds", options->grid.speeds, "Give hosts a compute speed in [1, 4] (reductions cost time)");
  add_table_option(grid, "--seed", options->grid.seed);
  add_table_option(grid, "--out", options->out);
  grid->callback([&result, options] {
    GridGeneratorOptions chosen = options->grid;
    const std::string& range = options->hosts_per_site;
    const auto dash = range.find('-');
    try {
      std::size_t used = 0;
      chosen.min_hosts = std::stoi(range.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? range.size() : dash)) throw std::invalid_argument(range);
      chosen.max_hosts = dash == std::string::npos ? chosen.min_hosts : std::stoi(range.substr(dash + 1), &used);
      if (dash != std::string::npos && used != range.size() - dash - 1) throw std::invalid_argument(range);
    } catch (const std::exception&) {
      throw InputError(fmt::format("--hosts-per-site: expected N or MIN-MAX, got \"{}\"", range));
    }
    if (chosen.min_hosts < 1 || chosen.max_hosts < chosen.min_hosts) {
      throw InputError(fmt::format("--hosts-per-site: need 1 <= MIN <= MAX, got \"{}\"", range));
    }
    if (options->total_hosts > 0) chosen.total_hosts = options->total_hosts;
    if (options->man_ratio > 0) chosen.man_ratio = options->man_ratio;
    result = write_generated_platform(generate_grid(chosen), options->out);
  });
}

}  // namespace

void add_generate_command(CLI::App& app, int& result) {
  struct GenerateOptions {
    ClusterGeneratorOptions cluster;
    std::string out, class_times;
  };
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* generate = app.add_subcommand("generate", "Generate a random platform file");
  generate->require_subcommand(1);
  CLI::App* cluster = generate->add_subcommand("cluster", "A k-class sender-speed cluster (papers' experiments)");
  cluster->add_option("--processors,-n", options->cluster.processors, "Number of processors (default 16)");
  cluster->add_option("--classes", options->cluster.classes, "Number of distinct times (default 3)");
  cluster->add_option("--min-time", options->cluster.min_time, "Fastest time (default 1)");
  cluster->add_option("--max-time", options->cluster.max_time, "Slowest time (default 4)");
  cluster->add_option("--class-times", options->class_times, "Explicit class times T,T,... (overrides)");
  add_table_option(cluster, "--seed", options->cluster.seed);
  add_table_option(cluster, "--out", options->out);
  cluster->callback([&result, options] {
    if (!options->class_times.empty()) {
      options->cluster.class_times = parse_times_list(options->class_times, "class_times").transmission_times();
    }
    result = run_generate_cluster(options->cluster, options->out);
  });

  auto random_options = std::make_shared<RandomPlatformOptions>();
  CLI::App* random = generate->add_subcommand(
      "random", "A random platform graph (Beaumont, Marchal, Robert 2004, Table 2): each pair of nodes is linked with "
                "probability --density; a disconnected draw is repaired with the fewest extra links");
  add_table_option(random, "--nodes", random_options->nodes, "--nodes,-n");
  random->add_option("--density", random_options->density,
                     "Probability of a link between two nodes (default 0.1; the paper uses 0.04..0.20)");
  random->add_option("--latency", random_options->latency, "Latency of every link, seconds (default 0)");
  add_table_option(random, "--seed", random_options->seed);
  add_table_option(random, "--out", options->out);
  add_link_draw_options(random, random_options->links);
  random->callback([&result, options, random_options] {
    result = write_generated_platform(generate_random_platform(*random_options), options->out);
  });

  struct TiersCommandOptions {
    int nodes = 65;
    TiersPlatformOptions tiers;
  };
  auto tiers_options = std::make_shared<TiersCommandOptions>();
  CLI::App* tiers = generate->add_subcommand(
      "tiers", "A three-level WAN/MAN/LAN platform in the style of the Tiers generator (Doar 1996): spanning trees "
               "plus redundancy links inside WAN and MANs, LANs as stars, MANs hung off WAN nodes and LANs off MAN "
               "nodes. --nodes 30 or 65 picks the paper's sizes; the other options override the preset");
  add_table_option(tiers, "--nodes", tiers_options->nodes, "--nodes,-n");
  auto& t = tiers_options->tiers;
  tiers->add_option("--wan-nodes", t.wan_nodes, "Nodes in the WAN");
  tiers->add_option("--mans", t.mans, "Number of MANs (each hung off a WAN node)");
  tiers->add_option("--man-nodes", t.man_nodes, "Nodes per MAN");
  tiers->add_option("--lans-per-man", t.lans_per_man, "LANs per MAN (each hung off a MAN node)");
  tiers->add_option("--lan-nodes", t.lan_nodes, "Nodes per LAN (a star on its first node)");
  tiers->add_option("--wan-redundancy", t.wan_redundancy, "Degree each WAN node reaches inside the WAN (default 3)");
  tiers->add_option("--man-redundancy", t.man_redundancy, "Degree each MAN node reaches inside its MAN (default 3)");
  tiers->add_option("--lan-redundancy", t.lan_redundancy, "Degree each LAN leaf reaches inside its LAN (default 1: a star)");
  tiers->add_option("--man-wan-links", t.man_wan_links, "Links between a MAN and the WAN (default 2)");
  tiers->add_option("--lan-man-links", t.lan_man_links, "Links between a LAN and its MAN (default 2)");
  tiers->add_option("--wan-latency", t.wan_latency, "Latency of WAN links and MAN-WAN links, seconds (default 0)");
  tiers->add_option("--man-latency", t.man_latency, "Latency of MAN links and LAN-MAN links, seconds (default 0)");
  tiers->add_option("--lan-latency", t.lan_latency, "Latency of LAN links, seconds (default 0)");
  add_table_option(tiers, "--seed", t.seed);
  add_table_option(tiers, "--out", options->out);
  add_link_draw_options(tiers, t.links);
  tiers->callback([&result, options, tiers_options, tiers] {
    // The preset fills every size option the user did not give.
    TiersPlatformOptions chosen = tiers_preset(tiers_options->nodes);
    const auto& given = tiers_options->tiers;
    auto take = [&](const char* flag, auto& field, const auto& value) {
      if (tiers->count(flag) > 0) field = value;
    };
    take("--wan-nodes", chosen.wan_nodes, given.wan_nodes);
    take("--mans", chosen.mans, given.mans);
    take("--man-nodes", chosen.man_nodes, given.man_nodes);
    take("--lans-per-man", chosen.lans_per_man, given.lans_per_man);
    take("--lan-nodes", chosen.lan_nodes, given.lan_nodes);
    take("--wan-redundancy", chosen.wan_redundancy, given.wan_redundancy);
    take("--man-redundancy", chosen.man_redundancy, given.man_redundancy);
    take("--lan-redundancy", chosen.lan_redundancy, given.lan_redundancy);
    take("--man-wan-links", chosen.man_wan_links, given.man_wan_links);
    take("--lan-man-links", chosen.lan_man_links, given.lan_man_links);
    chosen.wan_latency = given.wan_latency;
    chosen.man_latency = given.man_latency;
    chosen.lan_latency = given.lan_latency;
    chosen.seed = given.seed;
    chosen.links = given.links;
    result = write_generated_platform(generate_tiers_platform(chosen), options->out);
  });
  add_generate_grid(generate, result);
}

}  // namespace hetcoll::cli
