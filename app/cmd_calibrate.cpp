// calibrate: measure the ranks of an MPI job (under mpirun or smpirun) into
// platform files. The measurement is hetcoll::mpi::calibrate (src/hetcoll/mpi/calibrate.h).
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml_writer.h"
#include "hetcoll/plan/plan_json.h"

#ifdef HETCOLL_HAVE_MPI
#include <mpi.h>

#include "hetcoll/mpi/calibrate.h"
#endif

namespace hetcoll::cli {
namespace {

struct CalibrateOptions {
  std::string sizes = "1024,1048576";
  int repetitions = 5;
  std::optional<double> message_size;
  std::string out, graph, simgrid;
  bool json = false;
  bool quiet = false;
  bool one_pair_at_a_time = false;
};

#ifdef HETCOLL_HAVE_MPI

std::vector<double> parse_sizes(const std::string& text) {
  std::vector<double> sizes;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    try {
      size_t used = 0;
      double value = std::stod(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      sizes.push_back(value);
    } catch (const std::exception&) {
      throw InputError(fmt::format("--sizes: \"{}\" is not a number of bytes", item));
    }
  }
  if (sizes.size() != 2 || !(sizes[0] >= 0) || !(sizes[1] > sizes[0])) {
    throw InputError(fmt::format("--sizes: give two message sizes in bytes, S1 < S2 (e.g. 1024,1048576), got \"{}\"", text));
  }
  return sizes;
}

std::string json_matrix(const std::vector<std::vector<double>>& matrix) {
  std::string text = "[";
  for (size_t u = 0; u < matrix.size(); ++u) {
    text += u ? ",\n   [" : "\n   [";
    for (size_t v = 0; v < matrix[u].size(); ++v) text += fmt::format("{}{:.17g}", v ? ", " : "", matrix[u][v]);
    text += "]";
  }
  return text + "]";
}

// MPI_Finalize on every way out of the command.
struct MpiSession {
  bool started_here = false;
  MpiSession() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      MPI_Init(nullptr, nullptr);
      started_here = true;
    }
  }
  ~MpiSession() {
    if (started_here) MPI_Finalize();
  }
};

int run_calibrate(const CalibrateOptions& options) {
  MpiSession session;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool talk = rank == 0;
  if (size < 2) {
    throw InputError("calibrate: this job has 1 rank; run it under mpirun -np N (or smpirun -np N -platform F) with N >= 2");
  }
  mpi::CalibrationOptions calibration_options;
  calibration_options.sizes = parse_sizes(options.sizes);
  calibration_options.repetitions = options.repetitions;
  calibration_options.one_pair_at_a_time = options.one_pair_at_a_time;
  if (talk && !options.quiet) {
    calibration_options.progress = [](std::string_view line) { std::cerr << line << std::endl; };
    std::cerr << fmt::format("calibrate: {} ranks, {} rounds of ping-pongs ({} and {} bytes, median of {} round trips "
                             "each way)\n",
                             size,
                             options.one_pair_at_a_time ? static_cast<std::size_t>(size) * (size - 1) / 2
                                                        : mpi::calibration_rounds(size).size(),
                             calibration_options.sizes[0],
                             calibration_options.sizes[1], options.repetitions);
  }
  auto result = mpi::calibrate(MPI_COMM_WORLD, calibration_options);
  if (!talk) return 0;

  double message_size = options.message_size.value_or(calibration_options.sizes[0]);
  auto graph = result.graph();
  auto cluster = result.cluster(message_size);
  for (const auto& warning : result.warnings) std::cerr << "calibrate: warning: " << warning << "\n";
  if (!options.out.empty()) {
    std::ostringstream text;
    write_cluster_json(text, cluster);
    write_file(options.out, text.str(), "--out");
  }
  if (!options.graph.empty()) {
    std::ostringstream text;
    write_platform_json(text, graph);
    write_file(options.graph, text.str(), "--graph");
  }
  if (!options.simgrid.empty()) {
    std::ostringstream text;
    write_simgrid_xml(text, graph,
                      fmt::format("measured by hetcoll calibrate: {} ranks, ping-pongs of {} and {} bytes, median of "
                                  "{} round trips; one link per ordered pair of hosts",
                                  size, calibration_options.sizes[0], calibration_options.sizes[1], options.repetitions),
                      "calibrated");
    write_file(options.simgrid, text.str(), "--simgrid");
  }
  if (options.json) {
    std::string names;
    for (size_t i = 0; i < result.names.size(); ++i) names += (i ? ", " : "") + json_quote(result.names[i]);
    std::string times;
    for (ProcessorIndex p = 0; p < cluster.size(); ++p) times += fmt::format("{}{:.17g}", p ? ", " : "", cluster.transmission_time(p));
    std::cout << fmt::format(
        "{{\"ranks\": {}, \"names\": [{}], \"sizes\": [{:.17g}, {:.17g}], \"repetitions\": {}, \"rounds\": {}, "
        "\"seconds\": {:.17g},\n \"message_size\": {:.17g}, \"t\": [{}],\n \"latency\": {},\n \"bandwidth\": {},\n "
        "\"warnings\": {}}}\n",
        size, names, result.sizes[0], result.sizes[1], options.repetitions, result.rounds, result.seconds, message_size,
        times, json_matrix(result.latency), json_matrix(result.bandwidth), result.warnings.size());
    return 0;
  }
  std::cout << fmt::format("calibrated {} ranks in {} rounds ({:.3g} s)\n", size, result.rounds, result.seconds);
  std::cout << fmt::format("{:<20} {:>14} {:>14} {:>14} {:>14}\n", "rank / host", "t (s)", "latency (s)",
                           "bw min (B/s)", "bw max (B/s)");
  for (int u = 0; u < size; ++u) {
    double latency_sum = 0, bw_min = 0, bw_max = 0;
    for (int v = 0; v < size; ++v) {
      if (u == v) continue;
      auto [uu, vv] = std::pair{static_cast<size_t>(u), static_cast<size_t>(v)};
      latency_sum += result.latency[uu][vv];
      bw_min = bw_min == 0 ? result.bandwidth[uu][vv] : std::min(bw_min, result.bandwidth[uu][vv]);
      bw_max = std::max(bw_max, result.bandwidth[uu][vv]);
    }
    std::cout << fmt::format("{:<20} {:>14.6g} {:>14.6g} {:>14.6g} {:>14.6g}\n",
                             fmt::format("{} {}", u, result.names[static_cast<size_t>(u)]),
                             cluster.transmission_time(u), latency_sum / (size - 1), bw_min, bw_max);
  }
  std::cout << fmt::format("t = the sender-speed time of a {:g}-byte message (slowest route); latency = mean over "
                           "peers; bandwidths over peers\n",
                           message_size);
  for (const auto& [file, what] : {std::pair{options.out, "sender-speed cluster"}, std::pair{options.graph, "graph"},
                                   std::pair{options.simgrid, "SimGrid platform"}}) {
    if (!file.empty()) std::cout << fmt::format("wrote the {} to {}\n", what, file);
  }
  return 0;
}

#endif

}  // namespace

void add_calibrate_command(CLI::App& app, int& result) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* calibrate = app.add_subcommand(
      "calibrate",
      "Measure the ranks of an MPI job into platform files (run under mpirun -np N or smpirun -np N -platform F).\n"
      "Every pair of ranks ping-pongs two message sizes (median of repeated round trips), in rounds where each rank "
      "has one partner, so the run takes O(N) rounds. Fits per-pair latency and bandwidth; writes the graph, the "
      "sender-speed cluster and a SimGrid platform. Rank 0 prints and writes; progress goes to stderr.");
  add_table_option(calibrate, "--sizes", options->sizes);
  calibrate->add_option("--repetitions", options->repetitions,
                        "Measured round trips per pair, size and direction; the median is kept (default 5; one "
                        "warm-up round trip more is not counted)");
  add_byte_size_option(calibrate, "--message-size", options->message_size);
  add_table_option(calibrate, "--out", options->out);
  calibrate->add_option("--graph", options->graph,
                        "Write the platform graph (JSON: per-pair latency and bandwidth) to this file");
  calibrate->add_option("--simgrid", options->simgrid,
                        "Write the graph as a SimGrid platform (XML, one link per ordered pair) to this file");
  add_table_flag(calibrate, "--json", options->json);
  add_table_flag(calibrate, "--quiet", options->quiet);
  calibrate->add_flag("--one-pair-at-a-time", options->one_pair_at_a_time,
                      "Measure one pair per round instead of disjoint pairs side by side: for networks whose routes "
                      "share links (two sites joined by one WAN link), where pairs measured together would share its "
                      "bandwidth; N(N-1)/2 rounds");
  calibrate->callback([options, &result] {
#ifdef HETCOLL_HAVE_MPI
    result = run_calibrate(*options);
#else
    (void)options;
    (void)result;
    throw InputError("calibrate: this hetcoll was built without MPI (install libopenmpi-dev and openmpi-bin, then "
                     "rebuild: scripts/setup)");
#endif
  });
}

}  // namespace hetcoll::cli
