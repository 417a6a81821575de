// Internals of the Gantt chart writer (gantt_svg.h), not installed: what the
// chart knows about the plan's nodes (GanttSubject), the payload styles, and
// the writer shared by gantt_svg.cpp (entry points, the drawing order),
// gantt_svg_layout.cpp (rows, summary groups, ticks, notes, legend),
// gantt_svg_frame.cpp (document, header, rows, axis, markers, summary) and
// gantt_svg_bars.cpp (bars, arrows, bar labels).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/plan/plan.h"
#include "hetcoll/viz/graph_plan_labels.h"
#include "hetcoll/viz/plan_caption.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {
struct GanttOptions;  // gantt_svg.h
}  // namespace hetcoll

namespace hetcoll::gantt_internal {

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

inline const PayloadStyle& style_of(Payload payload) {
  return payload == Payload::partial_reduction ? kReduceStyle : kBroadcastStyle;
}

// Link classes of a platform graph, cheapest first (colour-blind-friendly:
// blue, green, vermilion, purple).
constexpr PayloadStyle kLinkClassStyles[] = {
    {"class0", "#0072B2", "#DCEBF6", "#FFFFFF", "#005A8C"},
    {"class1", "#009E73", "#D5F0E7", "#FFFFFF", "#007556"},
    {"class2", "#D55E00", "#F8DFCC", "#FFFFFF", "#A04700"},
    {"class3", "#CC79A7", "#F5E4EE", "#1A1A1A", "#99597D"},
};

constexpr const char* kMakespanColour = "#D55E00";
constexpr const char* kLowerBoundColour = "#555555";
constexpr std::size_t kMaxIdInRowLabel = 24;
constexpr std::size_t kMaxIdInBar = 16;

struct LegendItem {
  std::string label;
  const PayloadStyle* style;
  enum Kind { send, receive, forward, in_flight } kind;
};

// The words the legend uses for a payload in this operation.
inline std::string payload_words(const MakespanPlan& plan, Payload payload) {
  if (is_exchange_allreduce(plan)) {
    return payload == Payload::partial_reduction ? "partial result" : "combined value";
  }
  if (plan.operation == Operation::allreduce) {
    return payload == Payload::partial_reduction ? "reduce phase" : "broadcast phase";
  }
  return payload == Payload::partial_reduction ? "partial result" : "message";
}

// What the chart needs to know about the plan's nodes: a cluster's
// processors, or a platform graph's participants (and the one-port network
// nodes its routes cross, which get rows of their own).
struct GanttSubject {
  ProcessorIndex node_count = 0;
  std::vector<ProcessorIndex> rows;  // the node drawn on each row
  std::vector<int> row_of;           // per node: its row, or -1
  std::function<std::string(ProcessorIndex)> id;
  std::function<std::string(ProcessorIndex)> detail;  // second column: "t=1", "site 2", "link"
  std::vector<char> network_row;                      // per row: a router or link (forwarding bars)
  std::string headline_population;                    // "8 processors"
  std::string nodes_word = "processors";
  std::string container_word = "cluster";  // "naming processors outside the cluster"
  // Per transfer (plan order), graphs only: the link class colouring it,
  // the network nodes with a row that it crosses, and its route in words.
  std::vector<int> transfer_class;
  std::vector<std::vector<ProcessorIndex>> crossed;
  std::vector<std::string> route_text;
  std::vector<std::string> class_names;  // per link class, e.g. "LAN", "WAN"
  // Eager plans only, per transfer: the time it holds a link (its
  // occupancy); a broadcast's at its start on the sender's link, a reduce's
  // (occupancy_at_end) at its end on the receiver's. The rest of the
  // transfer is latency in flight, drawn pale: it overlaps other messages.
  std::function<double(const Transfer&)> occupancy;
  bool occupancy_at_end = false;
  std::string time_unit;                 // the platform's, possibly empty
  // What groups nodes into summary rows (see GanttOptions::summary):
  // clusters, the transmission time (classes of equal times); graphs, the
  // site name (participants of one site share a row).
  std::function<double(ProcessorIndex)> group_time;
  std::function<std::string(ProcessorIndex)> group_name;
  // Graphs: the one-port links and routers the messages cross, and how many
  // of them get no row (the least busy; the most messages one of them carries).
  std::size_t network_nodes_crossed = 0;
  std::size_t network_nodes_left_out = 0;
  std::size_t most_crossings_left_out = 0;
  std::size_t unlimited_nodes_crossed = 0;  // routers and FATPIPE links: no row, they never make messages wait
};

class GanttWriter {
 public:
  GanttWriter(const MakespanPlan& plan, const GanttSubject& subject, const GanttOptions& options)
      : plan_(plan), subject_(subject), options_(options), shorten_(row_ids(subject)) {}

  std::string draw();

 private:
  static std::vector<std::string> row_ids(const GanttSubject& subject) {
    std::vector<std::string> ids;
    for (auto p : subject.rows) ids.push_back(subject.id(p));
    return ids;
  }

  template <typename... Args>
  void emit(fmt::format_string<Args...> format, Args&&... args) {
    out_.add(format, std::forward<Args>(args)...);
  }

  double x_of(double time) const {
    return plot_left_ + (time - ticks_.low) / (ticks_.high - ticks_.low) * (plot_right_ - plot_left_);
  }
  double row_top(int row) const { return plot_top_ + row * row_height_; }
  double bar_top(int row) const { return row_top(row) + (row_height_ - bar_height_) / 2; }

  bool valid(ProcessorIndex p) const { return p >= 0 && p < subject_.node_count; }
  int row_of(ProcessorIndex p) const {
    if (!valid(p)) return -1;
    const int row = subject_.row_of[static_cast<std::size_t>(p)];
    return row >= 0 && row < shown_rows_ ? row : -1;
  }
  std::size_t index_of(const Transfer* transfer) const { return static_cast<std::size_t>(transfer - plan_.transfers.data()); }
  bool by_class() const { return !subject_.transfer_class.empty(); }
  const PayloadStyle& style(const Transfer* transfer) const {
    if (!by_class()) return style_of(transfer->payload);
    const int link_class = std::clamp(subject_.transfer_class[index_of(transfer)], 0, 3);
    return kLinkClassStyles[link_class];
  }
  bool crosses_shown_row(const Transfer* transfer) const {
    if (subject_.crossed.empty()) return false;
    for (auto node : subject_.crossed[index_of(transfer)]) {
      if (row_of(node) >= 0) return true;
    }
    return false;
  }

  // Summary view (clusters): the root's row, then one row per group of
  // processors of equal (or, beyond kMaxGroups classes, neighbouring)
  // transmission times.
  static constexpr std::size_t kMaxGroups = 24;
  void select_groups();

  // Summary view (graphs): the root's row, then one row per site, in the
  // order of the participants; beyond kMaxGroups sites, neighbouring sites
  // share a row. Network nodes get no row (their load shows in the sites').
  void select_groups_by_name();

  // The time span, payloads and link classes of the plan; transfers naming
  // unknown nodes are counted, never drawn.
  void scan_transfers();

  void select_rows_and_transfers();

  void compute_layout();

  // Among tick spacings of about the right density, the one whose last tick
  // overshoots the makespan least, so the plot is not padded with idle time.
  void choose_ticks();

  std::string row_id_label(ProcessorIndex p) const;
  std::string row_time_label(ProcessorIndex p) const { return subject_.detail(p); }

  void build_notes();

  void build_legend();

  // The labels of the makespan and lower-bound lines need two lines of the
  // strip above the plot when they would collide on one.
  int marker_label_lines() const;
  bool has_lower_bound() const { return plan_.lower_bound > 0 && std::isfinite(plan_.lower_bound); }
  double x_of_clamped(double time) const { return x_of(std::clamp(time, ticks_.low, ticks_.high)); }
  std::string unit_suffix() const { return subject_.time_unit.empty() ? "" : " " + subject_.time_unit; }
  std::string makespan_label() const { return "makespan " + format_number(plan_.makespan) + unit_suffix(); }
  std::string lower_bound_label() const { return "lower bound " + format_number(plan_.lower_bound) + unit_suffix(); }

  void open_document();

  void draw_header();

  void draw_rows();

  void draw_time_axis();

  // Dashed vertical lines at the makespan and the lower bound, labelled in
  // the strip above the plot.
  void draw_markers();

  // Summary rows: per group, the share of its processors busy sending (upper
  // half, solid) and receiving (lower half, hatched) in each of about 2-pixel
  // time bins, per payload, drawn as step areas.
  void draw_summary();
  std::string done_words() const;  // "receive the message", "send their part"

  // Pixel span [left, right] of a message's bars (draw_bars draws them so):
  // bars wide enough lose a pixel at each end, so that back-to-back messages
  // stay apart.
  std::pair<double, double> bar_span(const Transfer& transfer) const;

  // Arrows from each send to its receive. A vertical arrow must stay inside
  // the message's interval, so it is put where no bar of the rows between
  // sender and receiver lies (and not on another arrow): it then crosses
  // only empty row space. When the rows between are busy over the whole
  // interval, a full arrow would run across their bars and read as theirs;
  // the message gets two short ticks instead, one leaving the sender's bar
  // and one entering the receiver's, pointing at each other (the bar labels
  // name the other end).
  void draw_arrows();

  // The point of [low, high] nearest `preferred` outside every blocked
  // interval, or nullopt when they cover it all.
  static std::optional<double> free_position(double low, double high, double preferred,
                                             std::vector<std::pair<double, double>> blocked);

  void draw_bars();

  // An eager transfer: on the row of the node whose link it holds (the
  // sender in a broadcast, the receiver in a reduce) the occupancy at full
  // strength and the rest pale; on the other row the whole transfer pale.
  void draw_eager_bars(const Transfer& transfer, const PayloadStyle& style, double left, double bar_width,
                       const std::string& tooltip);

  // Eager bars of one row overlap (latencies in flight): only a bar that
  // starts after the row's previous bars end gets a label (the arrows and
  // tooltips still name every message).
  bool eager_label_fits(int row, double left, double bar_width);

  // The other end's id inside a bar: with an arrow when there is room,
  // shortened in the middle when needed, left out when even 5 characters
  // do not fit.
  // `from` (forwarding bars): the label reads "from→other".
  void draw_bar_label(double left, double bar_width, int row, const char* arrow, ProcessorIndex other, const char* colour,
                      ProcessorIndex from = kNoProcessor);

  const MakespanPlan& plan_;
  const GanttSubject& subject_;
  const GanttOptions& options_;
  svg::IdShortener shorten_;  // names drawn in the chart, distinguishing part kept
  svg::SvgText out_;

  struct RowLabels {
    std::string id_label, time_label;
    bool root = false;
    ProcessorIndex processors = 1;  // how many processors the row stands for
  };
  bool summary_ = false;
  std::vector<RowLabels> rows_;
  std::vector<int> group_of_;  // summary: the row of each processor
  int shown_rows_ = 0;
  bool class_seen_[4] = {false, false, false, false};
  bool forward_seen_ = false;
  const PayloadStyle* forward_style_ = nullptr;  // the first forwarding bar's colours
  std::vector<const Transfer*> drawn_;
  std::size_t transfers_on_rows_ = 0;
  std::size_t invalid_transfers_ = 0;
  bool payload_seen_[2] = {false, false};
  double time_end_ = 0;

  int width_ = 0, height_ = 0;
  double row_height_ = 0, bar_height_ = 0, row_font_ = 0, bar_font_ = 0;
  double id_column_right_ = 0, time_column_left_ = 0;
  double plot_left_ = 0, plot_right_ = 0, plot_top_ = 0, plot_bottom_ = 0;
  std::vector<std::string> title_lines_, evidence_lines_;
  double evidence_baseline_ = 0, notes_top_ = 0, legend_top_ = 0, legend_height_ = 0, marker_strip_top_ = 0;
  bool top_axis_ = false;
  svg::LinearTicks ticks_;
  std::vector<std::string> notes_;
  std::vector<LegendItem> legend_;
  std::vector<double> eager_row_end_;  // per row: where its eager bars end so far
  std::vector<std::pair<double, int>> legend_positions_;
  double marker_legend_x_ = 0;
  int marker_legend_line_ = 0;
};

}  // namespace hetcoll::gantt_internal
