// tune: a tuning file for a stock MPI library (Open MPI's coll_tuned
// dynamic rules, MPICH's JSON selection file), each rule the library's own
// algorithm predicted fastest by hetcoll's flow model
// (registry/mpi_tuning.h, report/mpi_tuning_files.h).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/registry/mpi_tuning.h"
#include "hetcoll/report/mpi_tuning_files.h"

namespace hetcoll::cli {
namespace {

struct TuneOptions {
  PlatformOptions platform;
  std::string mpi;
  std::string out_file;
  std::string collectives = "bcast,reduce,allreduce";
  std::string communicator_sizes;
  std::string message_bytes;
  std::size_t step = 4;
  std::size_t element_bytes = 4;
  int root = 0;
  std::string base_file;
  bool quiet = false;
  bool commutative_only = false;
  bool json = false;
  bool replace_unmodelled = false;
};

std::size_t parse_size(const std::string& item, const char* option) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(item, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != item.size() || item.empty() || item[0] == '-' || value == 0) {
    throw InputError(option, fmt::format("\"{}\" is not a positive whole number", item));
  }
  return static_cast<std::size_t>(value);
}

int run_tune(const TuneOptions& options) {
  MpiTuningOptions tuning;
  tuning.library = options.mpi == "mpich" ? StockMpi::mpich : StockMpi::openmpi;
  tuning.operations.clear();
  for (const auto& item : split_list(options.collectives, "--collectives")) {
    if (item == "bcast" || item == "broadcast") {
      tuning.operations.push_back(Operation::broadcast);
    } else if (item == "reduce") {
      tuning.operations.push_back(Operation::reduce);
    } else if (item == "allreduce") {
      tuning.operations.push_back(Operation::allreduce);
    } else {
      throw InputError("--collectives", fmt::format("\"{}\" is not bcast, reduce or allreduce", item));
    }
  }
  if (!options.communicator_sizes.empty()) {
    for (const auto& item : split_list(options.communicator_sizes, "--communicator-sizes")) {
      tuning.communicator_sizes.push_back(static_cast<int>(
          std::min<std::size_t>(parse_size(item, "--communicator-sizes"), 1u << 30)));
    }
  }
  if (!options.message_bytes.empty()) {
    for (const auto& item : split_list(options.message_bytes, "--message-bytes")) {
      tuning.message_bytes.push_back(parse_size(item, "--message-bytes"));
    }
  } else {
    tuning.message_bytes = tuning_message_sizes(4, std::size_t{16} << 20, options.step);
  }
  tuning.element_bytes = options.element_bytes;
  tuning.root = options.root;
  tuning.commutative_only = options.commutative_only;
  tuning.replace_unmodelled_default = options.replace_unmodelled;
  tuning.flow.envelope_bytes = sim::kSmpiEnvelopeBytes;  // as the chooser (cmd_choose.cpp)
  std::optional<std::string> base;
  if (!options.base_file.empty()) {
    if (tuning.library != StockMpi::mpich) throw InputError("--base", "is for --mpi mpich only");
    std::ifstream in(options.base_file);
    if (!in) throw InputError("--base", fmt::format("cannot read {}", options.base_file));
    std::ostringstream text;
    text << in.rdbuf();
    base = text.str();
  }
  const LoadedPlatform loaded = load_platform(options.platform);
  const auto result = tune_stock_mpi(loaded, tuning);
  const std::string file =
      tuning.library == StockMpi::openmpi ? openmpi_rules_file(result) : mpich_selection_json(result, base);
  write_file(options.out_file, file, "--out");
  if (options.json) {
    std::cout << mpi_tuning_json(result);
    return 0;
  }
  if (!options.quiet) std::cout << mpi_tuning_text(result);
  std::cout << fmt::format("wrote {}\n", options.out_file);
  if (tuning.library == StockMpi::openmpi) {
    std::cout << fmt::format("use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "
                             "{} ...\n",
                             options.out_file);
  } else {
    std::cout << fmt::format("use: MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE={} mpiexec ...{}\n", options.out_file,
                             base ? "" : " (MPICH needs every collective in the file: pass MPICH's own "
                                         "maint/tuning/coll/mpir/generic.json with --base)");
  }
  return 0;
}

}  // namespace

void add_tune_command(CLI::App& app, int& result) {
  auto options = std::make_shared<TuneOptions>();
  auto* tune = app.add_subcommand(
      "tune",
      "A tuning file for a stock MPI library, nothing preloaded: for each collective, communicator size (the "
      "platform's first hosts, rank r on host r) and message size class, every built-in algorithm of the library "
      "that hetcoll models is predicted by the flow model of `hetcoll choose`, and the fastest is written: Open MPI "
      "4.1's coll_tuned dynamic rules file (mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
      "coll_tuned_dynamic_rules_filename FILE) or MPICH's JSON collective selection file "
      "(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE; not run-tested, MPICH is not installed here). A rule for "
      "size S holds up to the next class. Open MPI: where its own decision is modelled and predicted as fast, or "
      "picks an algorithm hetcoll does not model, the file keeps it (rule 0); algorithms wrong for "
      "non-commutative operations are written only with --commutative-only. Prints each rule and, for Open MPI, "
      "the predicted speed-up over its default decision.");
  add_table_option(tune, "--platform", options->platform.platform_file)->required();
  tune->add_option("--mpi", options->mpi, "openmpi or mpich")->required()->check(CLI::IsMember({"openmpi", "mpich"}));
  add_table_option(tune, "--out", options->out_file)->required();
  tune->add_option("--collectives", options->collectives, "Comma-separated: bcast, reduce, allreduce (default all)");
  tune->add_option("--communicator-sizes", options->communicator_sizes,
                   "Comma-separated communicator sizes, 2 to the host count (default: the host count and the "
                   "powers of two below it)");
  tune->add_option("--message-bytes", options->message_bytes,
                   "Comma-separated message size classes in bytes, multiples of --element-bytes (default 4 B to "
                   "16 MiB by --step)");
  tune->add_option("--step", options->step, "Ratio between the default message size classes: 2 or 4 (default 4)")
      ->check(CLI::IsMember({2, 4}));
  add_table_option(tune, "--element-bytes", options->element_bytes);
  add_table_option(tune, "--root", options->root)->check(CLI::NonNegativeNumber);
  tune->add_option("--base", options->base_file,
                   "MPICH only: a full selection file (MPICH's maint/tuning/coll/mpir/generic.json) whose bcast, "
                   "reduce and allreduce entries are replaced, so that MPICH finds every collective");
  tune->add_flag("--commutative-only", options->commutative_only,
                 "Open MPI: also write the reduce and all-reduce algorithms that are wrong for non-commutative "
                 "operations (Open MPI's rules apply to every operation): only for programs whose reductions all "
                 "commute");
  tune->add_flag("--replace-unmodelled-default", options->replace_unmodelled,
                 "Open MPI: also replace its default decision where it picks an algorithm hetcoll does not model "
                 "(by default those sizes keep Open MPI's decision, rule 0: nothing says the replacement is faster)");
  add_table_flag(tune, "--json", options->json);
  add_table_flag(tune, "--quiet", options->quiet);
  tune->callback([options, &result] { result = run_tune(*options); });
}

}  // namespace hetcoll::cli
