#include <filesystem>
#include <stdexcept>
#include <utility>

#include "hetcoll/core/files.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "experiments/experiment.h"
#include "experiments/experiments_list.h"

namespace hetcoll {

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> all = [] {
    std::vector<Experiment> list;
    // One line per experiment; each is defined in its own file.
    register_greedy_experiments(list);
    register_baseline_experiments(list);
    register_ptas_experiments(list);
    register_reduce_search_experiment(list);
    register_dp_references_experiment(list);
    register_bcast_search_experiment(list);
    register_search_distinct_experiment(list);
#ifdef HETCOLL_WITH_LP
    register_bcast_trees_experiment(list);
    register_bcast_crossover_experiment(list);
    register_steady_periodic_experiments(list);
    register_steady_scale_experiment(list);
#endif
    register_grid_makespan_experiment(list);
    return list;
  }();
  return all;
}

const Experiment* find_experiment(std::string_view name) {
  for (const auto& experiment : experiments()) {
    if (experiment.name == name) return &experiment;
  }
  return nullptr;
}

void CsvTable::write(const std::string& path) const {
  write_file_with(path, [&](std::ostream& out) {
    auto write_row = [&](const std::vector<std::string>& cells) {
      for (size_t i = 0; i < cells.size(); ++i) {
        const auto& cell = cells[i];
        bool quote = cell.find_first_of(",\"\n") != std::string::npos;
        if (i) out << ',';
        if (quote) {
          out << '"';
          for (char c : cell) out << (c == '"' ? "\"\"" : std::string(1, c));
          out << '"';
        } else {
          out << cell;
        }
      }
      out << '\n';
    };
    write_row(columns);
    for (const auto& row : rows) write_row(row);
  });
}

ExperimentResult write_table_and_plot(const ExperimentOptions& options, const std::string& name, const CsvTable& table,
                                      const PlotSpec& plot, std::string summary) {
  ExperimentResult result;
  const auto csv = (std::filesystem::path(options.out_dir) / (name + ".csv")).string();
  const auto svg = (std::filesystem::path(options.out_dir) / (name + ".svg")).string();
  table.write(csv);
  write_line_plot_svg(svg, plot);
  result.files = {csv, svg};
  result.summary = std::move(summary);
  return result;
}

}  // namespace hetcoll
