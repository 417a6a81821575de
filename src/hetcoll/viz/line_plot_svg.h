// A small, dependency-free SVG line/scatter plot for experiment results:
// axes with "nice" ticks (linear, or log10 with 1-2-5 steps), one
// colour-blind-friendly colour and marker shape per series, dashed series,
// a legend to the right of the plot. Points that cannot be drawn (NaN,
// infinite, or <= 0 on a log axis) are skipped and break the line.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace hetcoll {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;
  bool dashed = false;
  bool markers = true;  // a marker at each point (only when the series has at most 80 points)
  // Series with the same key share colour and marker (a measured line and
  // its dashed prediction); empty: the name.
  std::string style_key;
};

// Colour and marker for each series key, in first-seen order. One instance
// shared by every plot of an experiment keeps a series' look the same in
// each plot; within a plot, different keys always look different (8
// colours x 7 markers).
class SeriesStyles {
 public:
  std::size_t style_of(const std::string& key);

 private:
  std::vector<std::string> keys_;
};

struct PlotSpec {
  std::string title;
  std::string x_label, y_label;
  bool log_y = false;
  bool log_x = false;
  std::vector<PlotSeries> series;
  int width = 760;   // picture size in pixels; grows to fit the legend and notes
  int height = 460;
  // Shared across an experiment's plots (see SeriesStyles); null: this plot's own.
  std::shared_ptr<SeriesStyles> styles;
};

// Axes with ticks, one colour per series, a legend; returns the SVG text.
std::string line_plot_svg(const PlotSpec& spec);
// Writes it to `path` (throws std::runtime_error on I/O failure).
void write_line_plot_svg(const std::string& path, const PlotSpec& spec);

}  // namespace hetcoll
