// A small, dependency-free SVG line/scatter plot for experiment results.
#pragma once

#include <string>
#include <vector>

namespace hetcoll {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;
  bool dashed = false;
};

struct PlotSpec {
  std::string title;
  std::string x_label, y_label;
  bool log_y = false;
  bool log_x = false;
  std::vector<PlotSeries> series;
};

// Axes with ticks, one colour per series, a legend; returns the SVG text.
std::string line_plot_svg(const PlotSpec& spec);
// Writes it to `path` (throws std::runtime_error on I/O failure).
void write_line_plot_svg(const std::string& path, const PlotSpec& spec);

}  // namespace hetcoll
