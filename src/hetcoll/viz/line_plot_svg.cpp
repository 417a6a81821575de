// Draws experiment results as an SVG line plot: axes, ticks, grid, one
// coloured line with markers per series, and a legend.
#include "hetcoll/viz/line_plot_svg.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/files.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {

namespace {

using svg::format_number;
using svg::text_width;
using svg::xml_escape;

constexpr std::size_t kMaxPointsWithMarkers = 80;
constexpr double kTickFont = 11.5;
constexpr double kLegendFont = 12;

// One axis: its ticks and how values map to pixels.
struct Axis {
  bool log = false;
  double low = 0, high = 1;  // axis range (tick values)
  std::vector<double> ticks;
  std::vector<std::string> labels;
  std::vector<double> minor_ticks;  // unlabelled (log axes showing only decades: 2..9 x 10^k)
  int scale_exponent = 0;           // linear axes: labels are tick / 10^scale_exponent

  // The axis title, with the scale of the labels when they are scaled.
  std::string title(const std::string& label) const {
    if (scale_exponent == 0) return label;
    const std::string scale = "×" + svg::power_of_ten(scale_exponent);
    return label.empty() ? scale : label + " (" + scale + ")";
  }

  bool drawable(double value) const { return std::isfinite(value) && (!log || value > 0); }
  // 0 at `low`, 1 at `high`.
  double fraction(double value) const {
    if (log) return (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low));
    return (value - low) / (high - low);
  }
};

// Axes start at the data (rounded to a nice tick), so ratios near 1 are not
// squashed into a line.
Axis make_axis(bool log, double data_low, double data_high, int target_ticks) {
  Axis axis;
  axis.log = log;
  const bool no_data = data_low > data_high;
  if (log) {
    const auto ticks = svg::nice_log_ticks(no_data ? 1 : data_low, no_data ? 10 : data_high);
    axis.low = ticks.low;
    axis.high = ticks.high;
    axis.ticks = ticks.values;
    axis.labels = svg::format_log_ticks(axis.ticks);
    const double decades = std::log10(axis.high / axis.low);
    const bool only_decades = axis.ticks.size() < 2 || std::fabs(std::log10(axis.ticks[1] / axis.ticks[0]) - 1) < 1e-9;
    if (only_decades && decades <= 8) {
      for (double decade = axis.low; decade < axis.high * (1 - 1e-9); decade *= 10) {
        for (int multiple = 2; multiple <= 9; ++multiple) axis.minor_ticks.push_back(multiple * decade);
      }
    }
  } else {
    if (no_data) data_low = 0, data_high = 1;
    const auto ticks = svg::nice_linear_ticks(data_low, data_high, target_ticks);
    axis.low = ticks.low;
    axis.high = ticks.high;
    axis.ticks = ticks.values;
    axis.scale_exponent = svg::axis_scale_exponent(axis.ticks);
    const double scale = std::pow(10.0, axis.scale_exponent);
    for (double tick : axis.ticks) axis.labels.push_back(format_number(tick / scale));
  }
  return axis;
}

constexpr std::size_t kMarkerShapes = 7;

// A marker shape per style, centred on (x, y); filled with the series colour.
std::string marker_svg(std::size_t style, double x, double y, const std::string& colour) {
  constexpr double r = 3.6;
  auto p = [](double value) { return std::round(value * 100) / 100 + 0.0; };
  switch (style % kMarkerShapes) {
    case 0: return fmt::format(R"svg(<circle cx="{}" cy="{}" r="{}" fill="{}"/>)svg", p(x), p(y), r, colour);
    case 1:
      return fmt::format(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)svg", p(x - r), p(y - r), 2 * r, 2 * r, colour);
    case 2:
      return fmt::format(R"svg(<path d="M{},{} L{},{} L{},{} z" fill="{}"/>)svg", p(x), p(y - r * 1.2), p(x + r * 1.15),
                         p(y + r * 0.9), p(x - r * 1.15), p(y + r * 0.9), colour);
    case 3:
      return fmt::format(R"svg(<path d="M{},{} L{},{} L{},{} L{},{} z" fill="{}"/>)svg", p(x), p(y - r * 1.3), p(x + r * 1.1), p(y),
                         p(x), p(y + r * 1.3), p(x - r * 1.1), p(y), colour);
    case 4:
      return fmt::format(R"svg(<path d="M{},{} L{},{} L{},{} z" fill="{}"/>)svg", p(x), p(y + r * 1.2), p(x + r * 1.15),
                         p(y - r * 0.9), p(x - r * 1.15), p(y - r * 0.9), colour);
    case 5:
      return fmt::format(R"svg(<circle cx="{}" cy="{}" r="{}" fill="#FFFFFF" stroke="{}" stroke-width="1.8"/>)svg", p(x), p(y), r,
                         colour);
    default:
      return fmt::format(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="#FFFFFF" stroke="{}" stroke-width="1.8"/>)svg",
                         p(x - r), p(y - r), 2 * r, 2 * r, colour);
  }
}

// The drawable points of a series in data coordinates.
std::vector<std::pair<double, double>> plottable_points(const PlotSeries& series, bool log_x, bool log_y) {
  std::vector<std::pair<double, double>> points;
  const std::size_t count = std::min(series.x.size(), series.y.size());
  for (std::size_t i = 0; i < count; ++i) {
    const double x = series.x[i], y = series.y[i];
    if (!std::isfinite(x) || !std::isfinite(y) || (log_x && x <= 0) || (log_y && y <= 0)) continue;
    points.emplace_back(x, y);
  }
  return points;
}

bool same_points(const std::vector<std::pair<double, double>>& a, const std::vector<std::pair<double, double>>& b) {
  if (a.size() != b.size() || a.empty()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double scale = std::max({std::fabs(a[i].second), std::fabs(b[i].second), 1e-300});
    if (a[i].first != b[i].first || std::fabs(a[i].second - b[i].second) > 1e-9 * scale) return false;
  }
  return true;
}

}  // namespace

std::size_t SeriesStyles::style_of(const std::string& key) {
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return i;
  }
  keys_.push_back(key);
  return keys_.size() - 1;
}

std::string line_plot_svg(const PlotSpec& spec) {
  int width = std::max(spec.width, 320);
  int height = std::max(spec.height, 240);

  // Styles by key; a series drawn exactly over an earlier one would hide it,
  // so a note under the plot says so.
  SeriesStyles own_styles;
  SeriesStyles& styles = spec.styles ? *spec.styles : own_styles;
  std::vector<std::size_t> style(spec.series.size());
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const auto& series = spec.series[s];
    style[s] = styles.style_of(series.style_key.empty() ? series.name : series.style_key);
  }
  std::vector<std::string> notes;
  {
    std::vector<std::vector<std::pair<double, double>>> points(spec.series.size());
    for (std::size_t s = 0; s < spec.series.size(); ++s) points[s] = plottable_points(spec.series[s], spec.log_x, spec.log_y);
    std::vector<bool> hidden(spec.series.size(), false);
    for (std::size_t s = 0; s < spec.series.size(); ++s) {
      if (spec.series[s].name.empty() || hidden[s]) continue;
      std::vector<std::string> twins;
      for (std::size_t t = s + 1; t < spec.series.size(); ++t) {
        if (!spec.series[t].name.empty() && same_points(points[s], points[t])) {
          hidden[t] = true;
          twins.push_back("\u201C" + svg::shorten(spec.series[t].name, 40) + "\u201D");
        }
      }
      if (twins.empty()) continue;
      std::string list;
      for (std::size_t i = 0; i < twins.size(); ++i) list += (i == 0 ? "" : i + 1 == twins.size() ? " and " : ", ") + twins[i];
      notes.push_back(fmt::format("{} {} equal to \u201C{}\u201D at every point (drawn over it)", list,
                                  twins.size() == 1 ? "is" : "are", svg::shorten(spec.series[s].name, 40)));
    }
  }

  // Data ranges over the drawable points.
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low;
  double y_low = x_low, y_high = -x_low;
  std::size_t drawable_points = 0;
  for (const auto& series : spec.series) {
    const std::size_t count = std::min(series.x.size(), series.y.size());
    for (std::size_t i = 0; i < count; ++i) {
      const double x = series.x[i], y = series.y[i];
      if (!std::isfinite(x) || !std::isfinite(y) || (spec.log_x && x <= 0) || (spec.log_y && y <= 0)) continue;
      x_low = std::min(x_low, x), x_high = std::max(x_high, x);
      y_low = std::min(y_low, y), y_high = std::max(y_high, y);
      ++drawable_points;
    }
  }

  // Legend to the right of the plot, when any series has a name. The picture
  // grows so that the legend never squeezes the plot below 60 % of it, and
  // never runs off the bottom.
  constexpr std::size_t kLegendCharacters = 40;
  double legend_width = 0;
  std::size_t legend_rows = 0;
  std::size_t legend_continuations = 0;  // the second and later lines of wrapped names
  for (const auto& series : spec.series) {
    if (series.name.empty()) continue;
    const auto lines = svg::wrap_words(series.name, kLegendCharacters);
    for (const std::string& line : lines) legend_width = std::max(legend_width, 44 + text_width(line, kLegendFont));
    ++legend_rows;
    legend_continuations += lines.size() - 1;
  }
  if (legend_width > 0) {
    const double plot_share = (width - 32 - legend_width - 16) / width;
    if (plot_share < 0.6) width = static_cast<int>(std::ceil((legend_width + 48) / 0.4));
  }
  const double title_height = spec.title.empty() ? 14 : 40;
  const double plot_top = title_height + 8;
  constexpr double kLegendRow = 22;
  constexpr double kLegendContinuation = 16;
  constexpr double kNoteRow = 17;
  height = std::max(height, static_cast<int>(std::ceil(plot_top + 10 + kLegendRow * legend_rows + kLegendContinuation * legend_continuations + 20)));
  const double notes_height = notes.empty() ? 0 : 8 + kNoteRow * notes.size();
  height += static_cast<int>(notes_height);
  const double plot_bottom = height - 54.0 - notes_height;  // tick labels, the x axis title, the notes
  const Axis y_axis = make_axis(spec.log_y, y_low, y_high, std::clamp(static_cast<int>((plot_bottom - plot_top) / 55), 3, 10));
  double y_label_width = 0;
  for (const auto& label : y_axis.labels) y_label_width = std::max(y_label_width, text_width(label, kTickFont));
  const double plot_left = 14 + (y_axis.title(spec.y_label).empty() ? 0 : 22) + y_label_width + 10;
  const double plot_right = width - 16 - (legend_width > 0 ? legend_width + 16 : 0);
  const Axis x_axis = make_axis(spec.log_x, x_low, x_high, std::clamp(static_cast<int>((plot_right - plot_left) / 80), 3, 10));

  auto to_x = [&](double x) { return plot_left + x_axis.fraction(x) * (plot_right - plot_left); };
  auto to_y = [&](double y) { return plot_bottom - y_axis.fraction(y) * (plot_bottom - plot_top); };

  svg::SvgText out;
  out.add(R"svg(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">
<style>
text {{ font-family: {2}; fill: #222222; }}
.title {{ font-size: 15px; font-weight: bold; }}
.tick {{ font-size: {3}px; fill: #444444; }}
.axis-title {{ font-size: 12.5px; fill: #333333; }}
.legend {{ font-size: {4}px; }}
.note {{ font-size: 12px; fill: #8A3B00; font-style: italic; }}
</style>
<title>{5}</title>
<rect width="{0}" height="{1}" fill="#FFFFFF"/>
)svg",
          width, height, svg::kFontFamily, kTickFont, kLegendFont, xml_escape(spec.title.empty() ? "plot" : spec.title));
  if (!spec.title.empty()) {
    // Centred over the plot, unless that would push it off the left edge.
    const double centre = (plot_left + plot_right) / 2;
    const bool centred = text_width(spec.title, 15) * 1.08 / 2 <= centre - 12;
    out.add("<text class=\"title\" x=\"{}\" y=\"26\" text-anchor=\"{}\">{}</text>\n", centred ? centre : 12.0,
            centred ? "middle" : "start", xml_escape(spec.title));
  }

  // Grid and ticks.
  for (std::size_t i = 0; i < y_axis.ticks.size(); ++i) {
    const double y = to_y(y_axis.ticks[i]);
    out.add(R"svg(<line x1="{0}" y1="{2}" x2="{1}" y2="{2}" stroke="#E3E3E3"/>)svg", plot_left, plot_right, y);
    out.add(R"svg(<line x1="{0}" y1="{2}" x2="{1}" y2="{2}" stroke="#555555"/>)svg", plot_left - 5, plot_left, y);
    out.add(R"svg(<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>)svg"
            "\n",
            plot_left - 8, y + 4, xml_escape(y_axis.labels[i]));
  }
  for (double tick : y_axis.minor_ticks) {
    out.add(R"svg(<line x1="{0}" y1="{2}" x2="{1}" y2="{2}" stroke="#777777"/>)svg", plot_left - 4, plot_left, to_y(tick));
  }
  for (double tick : x_axis.minor_ticks) {
    out.add(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#777777"/>)svg", to_x(tick), plot_bottom, plot_bottom + 4);
  }
  for (std::size_t i = 0; i < x_axis.ticks.size(); ++i) {
    const double x = to_x(x_axis.ticks[i]);
    out.add(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#E3E3E3"/>)svg", x, plot_top, plot_bottom);
    out.add(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#555555"/>)svg", x, plot_bottom, plot_bottom + 5);
    out.add(R"svg(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)svg"
            "\n",
            x, plot_bottom + 19, xml_escape(x_axis.labels[i]));
  }
  out.add(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#555555"/>)svg"
          "\n",
          plot_left, plot_top, plot_right - plot_left, plot_bottom - plot_top);
  if (const std::string x_title = x_axis.title(spec.x_label); !x_title.empty()) {
    out.add("<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (plot_left + plot_right) / 2,
            plot_bottom + 42, xml_escape(x_title));
  }
  if (const std::string y_title = y_axis.title(spec.y_label); !y_title.empty()) {
    const double x = 22, y = (plot_top + plot_bottom) / 2;
    out.add("<text class=\"axis-title\" x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\">{2}</text>\n",
            x, y, xml_escape(y_title));
  }
  for (std::size_t i = 0; i < notes.size(); ++i) {
    out.add("<text class=\"note\" x=\"{}\" y=\"{}\">{}</text>\n", plot_left, plot_bottom + 54 + 8 + kNoteRow * i + 4,
            xml_escape(notes[i]));
  }
  if (drawable_points == 0) {
    out.add("<text class=\"note\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">no data to plot</text>\n", (plot_left + plot_right) / 2,
            (plot_top + plot_bottom) / 2);
  }

  // Series: lines (broken at points that cannot be drawn), then markers.
  const auto& colours = svg::palette();
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const auto& series = spec.series[s];
    const std::string& colour = colours[style[s] % colours.size()];
    const std::size_t count = std::min(series.x.size(), series.y.size());
    std::string path;
    bool pen_down = false;
    std::vector<std::pair<double, double>> points;
    for (std::size_t i = 0; i < count; ++i) {
      const double x = series.x[i], y = series.y[i];
      if (!x_axis.drawable(x) || !y_axis.drawable(y)) {
        pen_down = false;
        continue;
      }
      const double px = to_x(x), py = to_y(y);
      path += fmt::format("{}{:.2f},{:.2f} ", pen_down ? "L" : "M", px, py);
      pen_down = true;
      points.emplace_back(px, py);
    }
    out.add("<g>");
    if (!series.name.empty()) out.add("<title>{}</title>", xml_escape(series.name));
    if (points.size() > 1) {
      out.add(R"svg(<path d="{}" fill="none" stroke="{}" stroke-width="2" stroke-linejoin="round"{}/>)svg", path, colour,
              series.dashed ? R"svg( stroke-dasharray="7 4")svg" : "");
    }
    if (series.markers && points.size() <= kMaxPointsWithMarkers) {
      for (const auto& [px, py] : points) out.add_raw(marker_svg(style[s], px, py, colour));
    } else if (points.size() == 1) {
      out.add_raw(marker_svg(style[s], points.front().first, points.front().second, colour));
    }
    out.add("</g>\n");
  }

  // Legend: a line sample with the marker, then the name.
  double legend_y = plot_top + 10;
  const double legend_x = plot_right + 18;
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const auto& series = spec.series[s];
    if (series.name.empty()) continue;
    const std::string& colour = colours[style[s] % colours.size()];
    out.add(R"svg(<line x1="{0}" y1="{2}" x2="{1}" y2="{2}" stroke="{3}" stroke-width="2"{4}/>)svg", legend_x, legend_x + 30, legend_y,
            colour, series.dashed ? R"svg( stroke-dasharray="7 4")svg" : "");
    if (series.markers) out.add_raw(marker_svg(style[s], legend_x + 15, legend_y, colour));
    // A long name wraps: its further lines sit closer than the next entry.
    const auto lines = svg::wrap_words(series.name, kLegendCharacters);
    for (std::size_t line = 0; line < lines.size(); ++line) {
      out.add(R"svg(<text class="legend" x="{}" y="{}">{}</text>)svg"
              "\n",
              legend_x + 38, legend_y + 4.2, xml_escape(lines[line]));
      legend_y += line + 1 < lines.size() ? kLegendContinuation : kLegendRow;
    }
  }
  out.add_raw("</svg>\n");
  return out.take();
}

void write_line_plot_svg(const std::string& path, const PlotSpec& spec) {
  hetcoll::write_text_file(path, line_plot_svg(spec));
}

}  // namespace hetcoll
