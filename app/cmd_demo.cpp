// demo: the built-in example a new user runs first.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"

#include "hetcoll/registry/registry.h"
#include "hetcoll/report/plan_text.h"
#include "hetcoll/verify/verify.h"
#include "visual_outputs.h"

namespace hetcoll::cli {
namespace {

// Liu, Kuo, Wang 2009 sec. 6.1: four fast Xeon 3.2 GHz and four slow Athlon MP 2 GHz
// processors on fast Ethernet; send times in proportion to the clocks.
Cluster demo_cluster() {
  Cluster cluster({"xeon0", "xeon1", "xeon2", "xeon3", "athlon0", "athlon1", "athlon2", "athlon3"},
                  {1.0, 1.0, 1.0, 1.0, 1.6, 1.6, 1.6, 1.6}, "demo cluster");
  cluster.set_time_unit("ms");
  return cluster;
}

int run_demo(const std::string& out_dir) {
  Cluster cluster = demo_cluster();
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) throw InputError(fmt::format("--out: cannot create directory \"{}\": {}", out_dir, error.message()));
  std::cout << "hetcoll demo — the 8-processor cluster of Liu, Kuo, Wang 2009 sec. 6.1:\n"
               "  four fast processors (xeon0..3, t = 1.0 ms per message) and four slow ones\n"
               "  (athlon0..3, t = 1.6 ms). Planning the three collectives, checking every plan.\n\n";
  std::vector<std::string> written;
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    MakespanRequest request;
    request.operation = operation;
    request.root = operation == Operation::allreduce ? kNoProcessor : 0;
    MakespanPlan plan = plan_makespan(cluster, request);
    VerifyReport report = verify(cluster, plan);
    std::cout << plan_summary(plan, cluster, report) << "\n" << tree_text(plan, cluster) << "\n";
    std::string path = (std::filesystem::path(out_dir) / fmt::format("{}-gantt.svg", to_string(operation))).string();
    write_file(path, gantt_picture(plan, cluster), "demo");
    written.push_back(path);
    if (!report.valid) {
      std::cerr << "internal error: a demo plan failed verification:\n" << report.summary();
      return 1;
    }
  }
  std::cout << "Gantt charts written to " << std::filesystem::absolute(out_dir).string() << "/:\n";
  for (const auto& path : written) std::cout << "  " << path << "\n";
  const std::string& hetcoll = invocation_name();
  std::cout << fmt::format(
      "\nNext, for example:\n"
      "  {0} broadcast --times 1,1,2,3,3 --gantt g.svg    # your own cluster: one time per processor\n"
      "  {0} algorithms                                   # every algorithm, its guarantee and reference\n"
      "  {0} --help\n",
      hetcoll);
  return 0;
}

}  // namespace

void add_demo_command(CLI::App& app, int& result) {
  auto out_dir = std::make_shared<std::string>("hetcoll-demo");
  CLI::App* demo = app.add_subcommand("demo", "Plan broadcast, reduce and all-reduce on a built-in 8-processor cluster");
  add_table_option(demo, "--out", *out_dir);
  demo->callback([&result, out_dir] { result = run_demo(*out_dir); });
}

}  // namespace hetcoll::cli
