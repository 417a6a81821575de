// Draws a makespan plan as an SVG Gantt chart: a row per processor, a solid
// bar per send, a hatched bar per receive, the time axis, the makespan and
// the lower bound, and a legend.
#include "hetcoll/viz/gantt_svg.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include <fmt/format.h>

#include "hetcoll/core/files.h"
#include "hetcoll/viz/plan_caption.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {

namespace {

using svg::format_number;
using svg::text_width;
using svg::xml_escape;

// How a payload looks: the bar colour, a light tint for receives, the colour
// of text drawn on a solid bar, and a darker shade for arrows.
struct PayloadStyle {
  const char* key;  // suffix of the SVG ids and classes
  const char* colour;
  const char* tint;
  const char* text_on_colour;
  const char* arrow;
};

constexpr PayloadStyle kBroadcastStyle{"value", "#0072B2", "#DCEBF6", "#FFFFFF", "#005A8C"};
constexpr PayloadStyle kReduceStyle{"partial", "#E69F00", "#FBECCB", "#1A1A1A", "#A86F00"};

const PayloadStyle& style_of(Payload payload) {
  return payload == Payload::partial_reduction ? kReduceStyle : kBroadcastStyle;
}

constexpr const char* kMakespanColour = "#D55E00";
constexpr const char* kLowerBoundColour = "#555555";
constexpr std::size_t kMaxIdInRowLabel = 24;
constexpr std::size_t kMaxIdInBar = 16;

struct LegendItem {
  std::string label;
  Payload payload;
  bool receive;
};

// The words the legend uses for a payload in this operation.
std::string payload_words(Operation operation, Payload payload) {
  if (operation == Operation::allreduce) {
    return payload == Payload::partial_reduction ? "reduce phase" : "broadcast phase";
  }
  return payload == Payload::partial_reduction ? "partial result" : "message";
}

class GanttWriter {
 public:
  GanttWriter(const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options)
      : plan_(plan), cluster_(cluster), options_(options) {}

  std::string draw() {
    summary_ = options_.summary && cluster_.size() > std::max(options_.max_rows, 1);
    scan_transfers();
    if (summary_) {
      select_groups();
    } else {
      select_rows_and_transfers();
    }
    compute_layout();
    open_document();
    draw_header();
    draw_rows();
    draw_time_axis();
    draw_markers();
    if (summary_) {
      draw_summary();
    } else {
      draw_arrows();
      draw_bars();
    }
    out_.add_raw("</svg>\n");
    return out_.take();
  }

 private:
  template <typename... Args>
  void emit(fmt::format_string<Args...> format, Args&&... args) {
    out_.add(format, std::forward<Args>(args)...);
  }

  double x_of(double time) const {
    return plot_left_ + (time - ticks_.low) / (ticks_.high - ticks_.low) * (plot_right_ - plot_left_);
  }
  double row_top(int row) const { return plot_top_ + row * row_height_; }
  double bar_top(int row) const { return row_top(row) + (row_height_ - bar_height_) / 2; }

  bool valid(ProcessorIndex p) const { return p >= 0 && p < cluster_.size(); }
  int row_of(ProcessorIndex p) const { return valid(p) && p < shown_rows_ ? static_cast<int>(p) : -1; }

  // Summary view: the root's row, then one row per group of processors of
  // equal (or, beyond kMaxGroups classes, neighbouring) transmission times.
  static constexpr std::size_t kMaxGroups = 24;
  void select_groups() {
    const ProcessorIndex n = cluster_.size();
    const bool has_root = valid(plan_.root);
    std::vector<ProcessorIndex> others;
    others.reserve(static_cast<std::size_t>(n));
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != plan_.root) others.push_back(p);
    }
    std::stable_sort(others.begin(), others.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      return cluster_.transmission_time(a) < cluster_.transmission_time(b);
    });
    // Classes of equal times; merged into kMaxGroups groups of about equal
    // size when there are more.
    std::vector<std::pair<std::size_t, std::size_t>> classes;  // [begin, end) in `others`
    for (std::size_t i = 0; i < others.size();) {
      std::size_t j = i;
      while (j < others.size() && cluster_.transmission_time(others[j]) == cluster_.transmission_time(others[i])) ++j;
      classes.push_back({i, j});
      i = j;
    }
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    if (classes.size() <= kMaxGroups) {
      groups = classes;
    } else {
      const double per_group = static_cast<double>(others.size()) / kMaxGroups;
      for (const auto& [begin, end] : classes) {
        if (!groups.empty() && static_cast<double>(groups.back().second - groups.back().first) < per_group) {
          groups.back().second = end;
        } else {
          groups.push_back({begin, end});
        }
      }
    }
    group_of_.assign(static_cast<std::size_t>(n), -1);
    if (has_root) {
      rows_.push_back({row_id_label(plan_.root), row_time_label(plan_.root), true, 1});
      group_of_[static_cast<std::size_t>(plan_.root)] = 0;
    }
    for (const auto& [begin, end] : groups) {
      const double low = cluster_.transmission_time(others[begin]), high = cluster_.transmission_time(others[end - 1]);
      const auto size = static_cast<ProcessorIndex>(end - begin);
      for (std::size_t i = begin; i < end; ++i) group_of_[static_cast<std::size_t>(others[i])] = static_cast<int>(rows_.size());
      rows_.push_back({fmt::format("{} processor{}", size, size == 1 ? "" : "s"),
                       low == high ? "t=" + format_number(low) : "t=" + format_number(low) + "–" + format_number(high), false,
                       size});
    }
    shown_rows_ = static_cast<ProcessorIndex>(rows_.size());
  }

  // The time span and payloads of the plan; transfers naming unknown
  // processors are counted, never drawn.
  void scan_transfers() {
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to)) {
        ++invalid_transfers_;
        continue;
      }
      time_end_ = std::max(time_end_, transfer.end);
      payload_seen_[transfer.payload == Payload::partial_reduction ? 1 : 0] = true;
    }
    time_end_ = std::max({time_end_, plan_.makespan, plan_.lower_bound});
    if (!(time_end_ > 0) || !std::isfinite(time_end_)) time_end_ = 1;
  }

  void select_rows_and_transfers() {
    shown_rows_ = std::min<ProcessorIndex>(cluster_.size(), std::max(options_.max_rows, 1));
    for (ProcessorIndex p = 0; p < shown_rows_; ++p) rows_.push_back({row_id_label(p), row_time_label(p), p == plan_.root, 1});
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to)) continue;
      if (row_of(transfer.from) < 0 && row_of(transfer.to) < 0) continue;
      drawn_.push_back(&transfer);
    }
    transfers_on_rows_ = drawn_.size();
    // Over the cap, keep the earliest messages (plans need not list them in
    // time order).
    if (drawn_.size() > options_.max_transfers) {
      const auto keep = drawn_.begin() + static_cast<std::ptrdiff_t>(options_.max_transfers);
      std::nth_element(drawn_.begin(), keep, drawn_.end(), [](const Transfer* a, const Transfer* b) {
        return a->start != b->start ? a->start < b->start : a < b;
      });
      drawn_.erase(keep, drawn_.end());
    }
  }

  void compute_layout() {
    width_ = std::max(options_.width, 480);
    row_height_ = summary_ ? 34.0
                           : std::clamp(std::floor(900.0 / std::max(shown_rows_, 1)), shown_rows_ > 100 ? 12.0 : 16.0, 30.0);
    bar_height_ = std::round(row_height_ * 0.76);
    row_font_ = std::min(13.0, std::round(row_height_ * 0.78));
    bar_font_ = std::min(12.0, std::round(bar_height_ * 0.8));

    double id_width = 0, time_width = 0;
    for (const auto& row : rows_) {
      id_width = std::max(id_width, text_width(row.id_label, row_font_) * (row.root ? 1.08 : 1.0));
      time_width = std::max(time_width, text_width(row.time_label, row_font_));
    }
    id_column_right_ = 12 + id_width;
    time_column_left_ = id_column_right_ + 8;
    plot_left_ = std::round(time_column_left_ + time_width + 14);
    plot_right_ = width_ - 24.0;
    if (plot_right_ - plot_left_ < 200) {  // very long ids: widen rather than squash the plot
      plot_right_ = plot_left_ + 200;
      width_ = static_cast<int>(plot_right_ + 24);
    }

    choose_ticks();

    build_notes();
    build_legend();

    double y = 26;                 // title baseline
    y += 20;                       // evidence line baseline
    evidence_baseline_ = y;
    y += 4;
    notes_top_ = y;
    y += 16.0 * static_cast<double>(notes_.size());
    legend_top_ = y + 8;
    y = legend_top_ + legend_height_ + 6;
    marker_strip_top_ = y;
    y += 16 * marker_label_lines();
    top_axis_ = shown_rows_ > 40;
    if (top_axis_) y += 16;
    plot_top_ = std::round(y + 4);
    plot_bottom_ = plot_top_ + row_height_ * shown_rows_;
    height_ = static_cast<int>(plot_bottom_ + 52);
  }

  // Among tick spacings of about the right density, the one whose last tick
  // overshoots the makespan least, so the plot is not padded with idle time.
  void choose_ticks() {
    const int desired = std::clamp(static_cast<int>((plot_right_ - plot_left_) / 90), 3, 12);
    double best_score = 0;
    for (int target = std::max(3, desired - 3); target <= desired + 3; ++target) {
      const auto candidate = svg::nice_linear_ticks(0, time_end_, target);
      const double overshoot = (candidate.high - time_end_) / time_end_;
      const double score = overshoot + 0.02 * std::abs(static_cast<int>(candidate.values.size()) - desired);
      if (ticks_.values.empty() || score < best_score) {
        ticks_ = candidate;
        best_score = score;
      }
    }
  }

  std::string row_id_label(ProcessorIndex p) const {
    std::string label = svg::shorten_id(cluster_.id(p), kMaxIdInRowLabel);
    if (p == plan_.root) {
      label += fmt::format(" ({})", svg::root_role(plan_.operation));
    } else if (plan_.operation == Operation::multicast && !svg::is_multicast_helper(plan_, p)) {
      label += " (target)";
    }
    return label;
  }
  std::string row_time_label(ProcessorIndex p) const { return "t=" + format_number(cluster_.transmission_time(p)); }

  void build_notes() {
    const ProcessorIndex n = cluster_.size();
    if (summary_) {
      notes_.push_back(fmt::format(
          "{} processors: one row per class of equal transmission time; above its middle line the share of the "
          "class sending (solid), below it the share receiving (hatched); half a row = all of them.",
          n));
    } else if (shown_rows_ < n) {
      notes_.push_back(fmt::format(
          "Only the first {} of {} processors have a row; messages to or from the others show on the visible side only.",
          shown_rows_, n));
    }
    if (drawn_.size() < transfers_on_rows_) {
      notes_.push_back(fmt::format("{} of the {} messages of these rows are drawn (limit {}); the later ones are left out.",
                                   drawn_.size(), transfers_on_rows_, options_.max_transfers));
    }
    if (invalid_transfers_ > 0) {
      notes_.push_back(fmt::format("{} message{} naming processors outside the cluster {} not drawn.", invalid_transfers_,
                                   invalid_transfers_ == 1 ? "" : "s", invalid_transfers_ == 1 ? "is" : "are"));
    }
    if (plan_.transfers.empty()) {
      notes_.push_back(n <= 1 ? "No messages: a single processor has nothing to exchange." : "No messages in this plan.");
    }
  }

  void build_legend() {
    const double swatch = 22, gap = 8, item_gap = 22, font = 12;
    for (Payload payload : {Payload::partial_reduction, Payload::broadcast_value}) {
      if (!payload_seen_[payload == Payload::partial_reduction ? 1 : 0]) continue;
      const std::string words = payload_words(plan_.operation, payload);
      legend_.push_back({"send (" + words + ")", payload, false});
      legend_.push_back({"receive (" + words + ")", payload, true});
    }
    // Lay the items out left to right, wrapping at the picture width.
    double x = plot_left_, line = 0;
    for (const auto& item : legend_) {
      const double item_width = swatch + gap + text_width(item.label, font) + item_gap;
      if (x > plot_left_ && x + item_width > width_ - 10) x = plot_left_, ++line;
      legend_positions_.push_back({x, line});
      x += item_width;
    }
    // The makespan and lower-bound line styles join the legend's last line.
    const double marker_item = 30 + text_width("lower bound", font) + item_gap + 30 + text_width("makespan", font);
    if (x > plot_left_ && x + marker_item > width_ - 10) x = plot_left_, ++line;
    marker_legend_x_ = x;
    marker_legend_line_ = line;
    legend_height_ = (line + 1) * 20;
  }

  // The labels of the makespan and lower-bound lines need two lines of the
  // strip above the plot when they would collide on one.
  int marker_label_lines() const {
    if (!has_lower_bound()) return 1;
    const double makespan_label_left = x_of_clamped(plan_.makespan) - 4 - text_width(makespan_label(), 11.5);
    const double lower_bound_right = x_of_clamped(plan_.lower_bound) - 4;
    return lower_bound_right + 10 < makespan_label_left ? 1 : 2;
  }
  bool has_lower_bound() const { return plan_.lower_bound > 0 && std::isfinite(plan_.lower_bound); }
  double x_of_clamped(double time) const { return x_of(std::clamp(time, ticks_.low, ticks_.high)); }
  std::string unit_suffix() const { return cluster_.time_unit().empty() ? "" : " " + cluster_.time_unit(); }
  std::string makespan_label() const { return "makespan " + format_number(plan_.makespan) + unit_suffix(); }
  std::string lower_bound_label() const { return "lower bound " + format_number(plan_.lower_bound) + unit_suffix(); }

  void open_document() {
    emit(R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">
<style>
text {{ font-family: {2}; fill: #222222; }}
.title {{ font-size: 16px; font-weight: bold; }}
.evidence {{ font-size: 12.5px; fill: #333333; }}
.note {{ font-size: 11.5px; fill: #8A3B00; font-style: italic; }}
.legend {{ font-size: 12px; }}
.row {{ font-size: {3}px; }}
.root {{ font-weight: bold; }}
.time {{ fill: #666666; }}
.tick {{ font-size: 11px; fill: #444444; }}
.axis-title {{ font-size: 12px; fill: #444444; }}
.bar-label {{ font-size: {4}px; }}
.marker {{ font-size: 11.5px; }}
.grid {{ stroke: #DDDDDD; stroke-width: 1; }}
</style>
<defs>
)",
         width_, height_, svg::kFontFamily, format_number(row_font_), format_number(bar_font_));
    for (const PayloadStyle* style : {&kBroadcastStyle, &kReduceStyle}) {
      emit(R"svg(<pattern id="hatch-{0}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">)svg"
           R"svg(<rect width="6" height="6" fill="{1}"/><line x1="0" y1="0" x2="0" y2="6" stroke="{2}" stroke-width="1.5" stroke-opacity="0.45"/></pattern>)svg"
           "\n",
           style->key, style->tint, style->colour);
      emit(R"svg(<marker id="arrow-{0}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">)svg"
           R"svg(<path d="M0,1 L10,5 L0,9 z" fill="{1}"/></marker>)svg"
           "\n",
           style->key, style->arrow);
    }
    emit("</defs>\n<rect width=\"{}\" height=\"{}\" fill=\"#FFFFFF\"/>\n", width_, height_);
  }

  void draw_header() {
    const std::string headline = options_.title.empty() ? svg::plan_headline(plan_, cluster_) : options_.title;
    emit("<text class=\"title\" x=\"12\" y=\"26\">{}</text>\n", xml_escape(headline));
    emit("<text class=\"evidence\" x=\"12\" y=\"{}\">{}</text>\n", evidence_baseline_, xml_escape(svg::plan_evidence(plan_, cluster_.time_unit())));
    for (std::size_t i = 0; i < notes_.size(); ++i) {
      emit("<text class=\"note\" x=\"12\" y=\"{}\">{}</text>\n", notes_top_ + 12 + 16.0 * static_cast<double>(i),
           xml_escape(notes_[i]));
    }
    for (std::size_t i = 0; i < legend_.size(); ++i) {
      const auto& item = legend_[i];
      const auto& style = style_of(item.payload);
      const double x = legend_positions_[i].first, y = legend_top_ + 20 * legend_positions_[i].second;
      if (item.receive) {
        emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="url(#hatch-{})" stroke="{}" stroke-width="1"/>)svg", x, y + 2,
             style.key, style.colour);
      } else {
        emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="{}"/>)svg", x, y + 2, style.colour);
      }
      emit("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>\n", x + 30, y + 12.5, xml_escape(item.label));
    }
    const double y = legend_top_ + 20 * marker_legend_line_ + 8;
    double x = marker_legend_x_;
    if (has_lower_bound()) {
      emit(R"svg(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" stroke-dasharray="2 3"/>)svg", x, y, x + 22, y,
           kLowerBoundColour);
      emit("<text class=\"legend\" x=\"{}\" y=\"{}\">lower bound</text>\n", x + 30, y + 4.5);
      x += 30 + text_width("lower bound", 12) + 22;
    }
    emit(R"svg(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>)svg", x, y, x + 22, y,
         kMakespanColour);
    emit("<text class=\"legend\" x=\"{}\" y=\"{}\">makespan</text>\n", x + 30, y + 4.5);
  }

  void draw_rows() {
    for (int row = 0; row < shown_rows_; ++row) {
      if (row % 2 == 1) {
        emit(R"svg(<rect x="4" y="{}" width="{}" height="{}" fill="#F3F4F6"/>)svg"
             "\n",
             row_top(row), plot_right_ - 4, row_height_);
      }
    }
    for (double tick : ticks_.values) {
      const double x = x_of(tick);
      emit(R"svg(<line class="grid" x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)svg", x, plot_top_, plot_bottom_);
    }
    emit("\n");
    for (int row = 0; row < shown_rows_; ++row) {
      const auto& labels = rows_[static_cast<std::size_t>(row)];
      const double baseline = row_top(row) + row_height_ / 2 + row_font_ * 0.36;
      emit(R"svg(<text class="row{}" x="{}" y="{}" text-anchor="end">{}</text>)svg", labels.root ? " root" : "", id_column_right_,
           baseline, xml_escape(labels.id_label));
      emit(R"svg(<text class="row time" x="{}" y="{}">{}</text>)svg"
           "\n",
           time_column_left_, baseline, xml_escape(labels.time_label));
    }
    emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999999" stroke-width="1"/>)svg"
         "\n",
         plot_left_, plot_top_, plot_right_ - plot_left_, plot_bottom_ - plot_top_);
  }

  void draw_time_axis() {
    // Tiny or huge times (microseconds, say) get scaled tick labels.
    const int scale_exponent = svg::axis_scale_exponent(ticks_.values);
    const double scale = std::pow(10.0, scale_exponent);
    for (double tick : ticks_.values) {
      const double x = x_of(tick);
      const std::string label = format_number(tick / scale);
      emit(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#666666"/>)svg", x, plot_bottom_, plot_bottom_ + 5);
      emit(R"svg(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)svg", x, plot_bottom_ + 18, label);
      if (top_axis_) {
        emit(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#666666"/>)svg", x, plot_top_ - 4, plot_top_);
        emit(R"svg(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)svg", x, plot_top_ - 7, label);
      }
    }
    // "time (ms)", "time (×10⁻³ s)": the platform's unit, when it declares one.
    const std::string& unit = cluster_.time_unit();
    std::string scale_text = scale_exponent == 0 ? "" : "×" + svg::power_of_ten(scale_exponent);
    if (!unit.empty()) scale_text += (scale_text.empty() ? "" : " ") + unit;
    const std::string title = scale_text.empty() ? "time" : "time (" + xml_escape(scale_text) + ")";
    emit("\n<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (plot_left_ + plot_right_) / 2,
         plot_bottom_ + 38, title);
  }

  // Dashed vertical lines at the makespan and the lower bound, labelled in
  // the strip above the plot.
  void draw_markers() {
    const double line_top = marker_strip_top_ + 3;
    const int lines = marker_label_lines();
    auto marker = [&](double time, const std::string& label, const char* colour, const char* dash, int label_line) {
      const double x = x_of_clamped(time);
      const double baseline = marker_strip_top_ + 12 + 16 * label_line;
      const bool fits_left = x - 4 - text_width(label, 11.5) >= plot_left_ - 8;
      emit(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.5" stroke-dasharray="{4}"/>)svg", x,
           line_top + 16 * label_line, plot_bottom_, colour, dash);
      emit(R"svg(<text class="marker" x="{}" y="{}" text-anchor="{}" style="fill: {}">{}</text>)svg"
           "\n",
           fits_left ? x - 4 : x + 4, baseline, fits_left ? "end" : "start", colour, xml_escape(label));
    };
    if (has_lower_bound()) marker(plan_.lower_bound, lower_bound_label(), kLowerBoundColour, "2 3", 0);
    marker(plan_.makespan, makespan_label(), kMakespanColour, "6 3", lines - 1);
  }

  // Summary rows: per group, the share of its processors busy sending (upper
  // half, solid) and receiving (lower half, hatched) in each of about 2-pixel
  // time bins, per payload, drawn as step areas.
  void draw_summary() {
    const auto bins = static_cast<std::size_t>(std::max(50.0, std::round((plot_right_ - plot_left_) / 2)));
    const double span = ticks_.high - ticks_.low;
    const double bin_time = span / static_cast<double>(bins);
    // busy[payload][role][row * bins + bin]: processor-time inside the bin.
    std::vector<double> busy[2][2];
    for (auto& payload : busy) {
      for (auto& role : payload) role.assign(rows_.size() * bins, 0.0);
    }
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to) || !(transfer.end > transfer.start)) continue;
      const int payload = transfer.payload == Payload::partial_reduction ? 1 : 0;
      const double start = std::clamp(transfer.start, ticks_.low, ticks_.high);
      const double end = std::clamp(transfer.end, ticks_.low, ticks_.high);
      const auto first = std::min(bins - 1, static_cast<std::size_t>((start - ticks_.low) / bin_time));
      const auto last = std::min(bins - 1, static_cast<std::size_t>((end - ticks_.low) / bin_time));
      for (int role = 0; role < 2; ++role) {
        const int row = group_of_[static_cast<std::size_t>(role == 0 ? transfer.from : transfer.to)];
        if (row < 0) continue;
        double* cells = busy[payload][role].data() + static_cast<std::size_t>(row) * bins;
        for (std::size_t bin = first; bin <= last; ++bin) {
          const double bin_start = ticks_.low + bin_time * static_cast<double>(bin);
          cells[bin] += std::max(0.0, std::min(end, bin_start + bin_time) - std::max(start, bin_start));
        }
      }
    }
    for (std::size_t row = 0; row < rows_.size(); ++row) {
      const double top = row_top(static_cast<int>(row)) + 2;
      const double half = (row_height_ - 4) / 2;
      emit(R"svg(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#BBBBBB" stroke-width="0.6"/>)svg"
           "\n",
           plot_left_, top + half, plot_right_);
      for (int payload = 0; payload < 2; ++payload) {
        const auto& style = payload == 1 ? kReduceStyle : kBroadcastStyle;
        for (int role = 0; role < 2; ++role) {
          const double* cells = busy[payload][role].data() + row * bins;
          const double capacity = bin_time * static_cast<double>(rows_[row].processors);
          // The area grows up from the middle line (sending) or down from
          // it (receiving).
          const double base = top + half;
          const double direction = role == 0 ? -1 : 1;
          std::string path;
          double previous = -1;
          bool any = false;
          for (std::size_t bin = 0; bin <= bins; ++bin) {
            const double share = bin < bins ? std::min(1.0, cells[bin] / capacity) : 0.0;
            if (share > 0) any = true;
            if (share == previous) continue;
            const double x = plot_left_ + (plot_right_ - plot_left_) * static_cast<double>(bin) / static_cast<double>(bins);
            const double y = base + direction * share * half;
            path += path.empty() ? fmt::format("M{:.1f},{:.1f} L{:.1f},{:.1f}", x, base, x, y)
                                 : fmt::format(" L{:.1f},{:.1f} L{:.1f},{:.1f}", x, base + direction * previous * half, x, y);
            previous = share;
          }
          if (!any) continue;
          if (role == 0) {
            emit(R"svg(<path d="{} z" fill="{}"/>)svg"
                 "\n",
                 path, style.colour);
          } else {
            emit(R"svg(<path d="{} z" fill="url(#hatch-{})" stroke="{}" stroke-width="0.8"/>)svg"
                 "\n",
                 path, style.key, style.colour);
          }
        }
      }
    }
  }

  // Thin arrows from each send to its receive, behind the bars; messages
  // starting together are spread across their bars so that arrows between
  // the same rows do not coincide.
  void draw_arrows() {
    if (drawn_.size() > options_.max_arrows) return;
    std::vector<const Transfer*> both_visible;
    for (const Transfer* transfer : drawn_) {
      if (row_of(transfer->from) >= 0 && row_of(transfer->to) >= 0) both_visible.push_back(transfer);
    }
    std::map<double, std::vector<const Transfer*>> by_start;
    for (const Transfer* transfer : both_visible) by_start[transfer->start].push_back(transfer);
    for (auto& [start, group] : by_start) {
      std::sort(group.begin(), group.end(), [](const Transfer* a, const Transfer* b) { return a->from < b->from; });
      for (std::size_t k = 0; k < group.size(); ++k) {
        const Transfer& transfer = *group[k];
        const double left = x_of(transfer.start), right = x_of(transfer.end);
        const double x = left + (right - left) * static_cast<double>(k + 1) / static_cast<double>(group.size() + 1);
        const int from_row = row_of(transfer.from), to_row = row_of(transfer.to);
        const bool downwards = to_row > from_row;
        const double y1 = downwards ? bar_top(from_row) + bar_height_ : bar_top(from_row);
        const double y2 = downwards ? bar_top(to_row) - 1 : bar_top(to_row) + bar_height_ + 1;
        const auto& style = style_of(transfer.payload);
        emit(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.2" stroke-opacity="0.8" marker-end="url(#arrow-{4})"/>)svg"
             "\n",
             x, y1, y2, style.arrow, style.key);
      }
    }
  }

  void draw_bars() {
    for (const Transfer* transfer : drawn_) {
      const auto& style = style_of(transfer->payload);
      // Bars wide enough lose a pixel at each end, so that back-to-back
      // messages stay apart.
      const double full_width = x_of(transfer->end) - x_of(transfer->start);
      const double inset = full_width > 6 ? 1.0 : 0.0;
      const double left = x_of(transfer->start) + inset;
      const double bar_width = std::max(full_width - 2 * inset, 0.8);
      const std::string tooltip =
          xml_escape(fmt::format("{} → {}: {} to {}", cluster_.id(transfer->from), cluster_.id(transfer->to),
                                 format_number(transfer->start), format_number(transfer->end)));
      if (const int row = row_of(transfer->from); row >= 0) {
        emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)svg", left, bar_top(row), bar_width,
             bar_height_, style.colour, tooltip);
        draw_bar_label(left, bar_width, row, "→", transfer->to, style.text_on_colour);
      }
      if (const int row = row_of(transfer->to); row >= 0) {
        emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="url(#hatch-{})" stroke="{}" stroke-width="1"><title>{}</title></rect>)svg",
             left + 0.5, bar_top(row) + 0.5, std::max(bar_width - 1, 0.5), bar_height_ - 1, style.key, style.colour, tooltip);
        draw_bar_label(left, bar_width, row, "←", transfer->from, "#1A1A1A");
      }
      emit("\n");
    }
  }

  // The other end's id inside a bar: with an arrow when there is room,
  // shortened in the middle when needed, left out when even 5 characters
  // do not fit.
  void draw_bar_label(double left, double bar_width, int row, const char* arrow, ProcessorIndex other, const char* colour) {
    if (bar_font_ < 7) return;
    std::string label;
    for (std::size_t length : {kMaxIdInBar, std::size_t{12}, std::size_t{8}, std::size_t{5}}) {
      const std::string id = svg::shorten_id(cluster_.id(other), length);
      if (const std::string with_arrow = std::string(arrow) + " " + id; text_width(with_arrow, bar_font_) + 6 <= bar_width) {
        label = with_arrow;
        break;
      }
      if (text_width(id, bar_font_) + 4 <= bar_width) {
        label = id;
        break;
      }
    }
    if (label.empty()) return;
    emit(R"svg(<text class="bar-label" x="{}" y="{}" text-anchor="middle" style="fill: {}">{}</text>)svg", left + bar_width / 2,
         bar_top(row) + bar_height_ / 2 + bar_font_ * 0.36, colour, xml_escape(label));
  }

  const MakespanPlan& plan_;
  const Cluster& cluster_;
  const GanttOptions& options_;
  svg::SvgText out_;

  struct RowLabels {
    std::string id_label, time_label;
    bool root = false;
    ProcessorIndex processors = 1;  // how many processors the row stands for
  };
  bool summary_ = false;
  std::vector<RowLabels> rows_;
  std::vector<int> group_of_;  // summary: the row of each processor
  ProcessorIndex shown_rows_ = 0;
  std::vector<const Transfer*> drawn_;
  std::size_t transfers_on_rows_ = 0;
  std::size_t invalid_transfers_ = 0;
  bool payload_seen_[2] = {false, false};
  double time_end_ = 0;

  int width_ = 0, height_ = 0;
  double row_height_ = 0, bar_height_ = 0, row_font_ = 0, bar_font_ = 0;
  double id_column_right_ = 0, time_column_left_ = 0;
  double plot_left_ = 0, plot_right_ = 0, plot_top_ = 0, plot_bottom_ = 0;
  double evidence_baseline_ = 0, notes_top_ = 0, legend_top_ = 0, legend_height_ = 0, marker_strip_top_ = 0;
  bool top_axis_ = false;
  svg::LinearTicks ticks_;
  std::vector<std::string> notes_;
  std::vector<LegendItem> legend_;
  std::vector<std::pair<double, int>> legend_positions_;
  double marker_legend_x_ = 0;
  int marker_legend_line_ = 0;
};

}  // namespace

std::string gantt_svg(const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  return GanttWriter(plan, cluster, options).draw();
}

void write_gantt_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  hetcoll::write_text_file(path, gantt_svg(plan, cluster, options));
}

}  // namespace hetcoll
