// Experiments reproduce the papers' tables and figures: `hetcoll experiment
// NAME [--quick] [--out DIR]` writes NAME.csv and NAME.svg into DIR and
// prints a short summary. One function per table or figure, registered by
// name in experiments/registry.cpp.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hetcoll {

struct ExperimentOptions {
  bool quick = false;            // a small version that runs in seconds (tests use it)
  std::string out_dir = ".";     // where the CSV and SVG files go
  std::uint64_t seed = 1;        // every random instance derives from it
  double time_limit_seconds = 0; // 0 = the experiment's own default
  // Problem sizes to run instead of the experiment's own (empty: its own);
  // only experiments with takes_sizes use it.
  std::vector<int> sizes;
  // Threads of the exact broadcast search (SearchLimits::threads; 0 = the
  // hardware's) and the operations to run (empty: all); only experiments
  // with takes_threads use them.
  unsigned threads = 1;
  std::vector<std::string> operations;
  // Progress lines for long runs ("P = 14: 50/50 clusters, 0.8 s").
  std::function<void(std::string_view)> progress = [](std::string_view) {};
};

struct ExperimentResult {
  std::vector<std::string> files;  // paths written
  std::string summary;             // a few lines for the terminal
};

struct Experiment {
  std::string name;
  std::string description;
  std::string reference;  // seed and table/figure
  std::function<ExperimentResult(const ExperimentOptions&)> run;
  bool takes_sizes = false;  // honours ExperimentOptions::sizes
  bool takes_threads = false;  // honours ExperimentOptions::threads and operations
  bool takes_operations = false;  // honours ExperimentOptions::operations only
};

const std::vector<Experiment>& experiments();
const Experiment* find_experiment(std::string_view name);

// A CSV table written column by column name; values are preformatted.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  void write(const std::string& path) const;  // throws std::runtime_error on I/O failure
};

struct PlotSpec;

// Writes `table` as OUT_DIR/NAME.csv and `plot` as OUT_DIR/NAME.svg; the
// result lists both files and carries `summary`.
ExperimentResult write_table_and_plot(const ExperimentOptions& options, const std::string& name, const CsvTable& table,
                                      const PlotSpec& plot, std::string summary);

}  // namespace hetcoll
