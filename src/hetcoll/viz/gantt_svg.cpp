// Draws a makespan plan as an SVG Gantt chart: a row per processor, a solid
// bar per send, a hatched bar per receive, the time axis, the makespan and
// the lower bound, and a legend.
#include "hetcoll/viz/gantt_svg.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>

#include <fmt/format.h>

#include <functional>

#include "hetcoll/model/eager_model.h"
#include "hetcoll/viz/graph_plan_labels.h"
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
std::string payload_words(const MakespanPlan& plan, Payload payload) {
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
};

class GanttWriter {
 public:
  GanttWriter(const MakespanPlan& plan, const GanttSubject& subject, const GanttOptions& options)
      : plan_(plan), subject_(subject), options_(options) {}

  std::string draw() {
    summary_ = options_.summary && (subject_.group_time || subject_.group_name) &&
               subject_.rows.size() > static_cast<std::size_t>(std::max(options_.max_rows, 1));
    scan_transfers();
    if (summary_ && subject_.group_time) {
      select_groups();
    } else if (summary_) {
      select_groups_by_name();
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
  void select_groups() {
    const ProcessorIndex n = subject_.node_count;
    const bool has_root = valid(plan_.root);
    const auto& time = subject_.group_time;
    std::vector<ProcessorIndex> others;
    others.reserve(static_cast<std::size_t>(n));
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != plan_.root) others.push_back(p);
    }
    std::stable_sort(others.begin(), others.end(), [&](ProcessorIndex a, ProcessorIndex b) { return time(a) < time(b); });
    // Classes of equal times; merged into kMaxGroups groups of about equal
    // size when there are more.
    std::vector<std::pair<std::size_t, std::size_t>> classes;  // [begin, end) in `others`
    for (std::size_t i = 0; i < others.size();) {
      std::size_t j = i;
      while (j < others.size() && time(others[j]) == time(others[i])) ++j;
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
      const double low = time(others[begin]), high = time(others[end - 1]);
      const auto size = static_cast<ProcessorIndex>(end - begin);
      for (std::size_t i = begin; i < end; ++i) group_of_[static_cast<std::size_t>(others[i])] = static_cast<int>(rows_.size());
      rows_.push_back({fmt::format("{} processor{}", size, size == 1 ? "" : "s"),
                       low == high ? "t=" + format_number(low) : "t=" + format_number(low) + "–" + format_number(high), false,
                       size});
    }
    shown_rows_ = static_cast<int>(rows_.size());
  }

  // Summary view (graphs): the root's row, then one row per site, in the
  // order of the participants; beyond kMaxGroups sites, neighbouring sites
  // share a row. Network nodes get no row (their load shows in the sites').
  void select_groups_by_name() {
    const bool has_root = valid(plan_.root);
    std::vector<std::string> names;                       // in order of first appearance
    std::vector<std::vector<ProcessorIndex>> members;     // per name
    std::map<std::string, std::size_t> index_of_name;
    for (std::size_t row = 0; row < subject_.rows.size(); ++row) {
      const ProcessorIndex p = subject_.rows[row];
      if (p == plan_.root || (!subject_.network_row.empty() && subject_.network_row[row])) continue;
      const std::string name = subject_.group_name(p);
      const auto [at, added] = index_of_name.emplace(name, names.size());
      if (added) {
        names.push_back(name);
        members.emplace_back();
      }
      members[at->second].push_back(p);
    }
    std::size_t participants = 0;
    for (const auto& group : members) participants += group.size();
    const double per_row = static_cast<double>(participants) / kMaxGroups;
    struct Group {
      std::string first, last;
      std::vector<ProcessorIndex> members;
    };
    std::vector<Group> groups;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names.size() > kMaxGroups && !groups.empty() && static_cast<double>(groups.back().members.size()) < per_row) {
        groups.back().last = names[i];
        groups.back().members.insert(groups.back().members.end(), members[i].begin(), members[i].end());
      } else {
        groups.push_back({names[i], names[i], members[i]});
      }
    }
    group_of_.assign(static_cast<std::size_t>(subject_.node_count), -1);
    if (has_root) {
      rows_.push_back({row_id_label(plan_.root), row_time_label(plan_.root), true, 1});
      group_of_[static_cast<std::size_t>(plan_.root)] = 0;
    }
    for (const auto& group : groups) {
      const auto size = static_cast<ProcessorIndex>(group.members.size());
      for (ProcessorIndex p : group.members) group_of_[static_cast<std::size_t>(p)] = static_cast<int>(rows_.size());
      rows_.push_back({fmt::format("{} participant{}", size, size == 1 ? "" : "s"),
                       group.first == group.last ? group.first : group.first + " – " + group.last, false, size});
    }
    shown_rows_ = static_cast<int>(rows_.size());
  }

  // The time span, payloads and link classes of the plan; transfers naming
  // unknown nodes are counted, never drawn.
  void scan_transfers() {
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to)) {
        ++invalid_transfers_;
        continue;
      }
      time_end_ = std::max(time_end_, transfer.end);
      payload_seen_[transfer.payload == Payload::partial_reduction ? 1 : 0] = true;
      if (by_class()) class_seen_[std::clamp(subject_.transfer_class[index_of(&transfer)], 0, 3)] = true;
    }
    time_end_ = std::max({time_end_, plan_.makespan, plan_.lower_bound});
    if (!(time_end_ > 0) || !std::isfinite(time_end_)) time_end_ = 1;
  }

  void select_rows_and_transfers() {
    shown_rows_ = static_cast<int>(std::min<std::size_t>(subject_.rows.size(), static_cast<std::size_t>(std::max(options_.max_rows, 1))));
    for (int row = 0; row < shown_rows_; ++row) {
      const ProcessorIndex p = subject_.rows[static_cast<std::size_t>(row)];
      rows_.push_back({row_id_label(p), row_time_label(p), p == plan_.root, 1});
    }
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to)) continue;
      if (crosses_shown_row(&transfer)) forward_seen_ = true;
      if (row_of(transfer.from) < 0 && row_of(transfer.to) < 0 && !crosses_shown_row(&transfer)) continue;
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
    std::string label = svg::shorten_id(subject_.id(p), kMaxIdInRowLabel);
    if (p == plan_.root) {
      // An exchange all-reduce has no root: every rank ends with the result,
      // and the plan's root is the rank the exchanges are numbered from.
      label += is_exchange_allreduce(plan_) ? std::string(" (rank 0)") : fmt::format(" ({})", svg::root_role(plan_.operation));
    } else if (plan_.operation == Operation::multicast && !svg::is_multicast_helper(plan_, p)) {
      label += " (target)";
    }
    return label;
  }
  std::string row_time_label(ProcessorIndex p) const { return subject_.detail(p); }

  void build_notes() {
    const auto n = subject_.rows.size();
    if (summary_ && subject_.group_time) {
      notes_.push_back(fmt::format(
          "{} processors: one row per class of equal transmission time; above its middle line the share of the "
          "class sending (solid), below it the share receiving (hatched); half a row = all of them.",
          n));
    } else if (summary_) {
      ProcessorIndex participants = 0;
      for (const auto& row : rows_) participants += row.processors;
      notes_.push_back(fmt::format(
          "{} participants: one row per site; above its middle line the share of the site's participants sending "
          "(solid), below it the share receiving (hatched); half a row = all of them.",
          participants));
    } else if (static_cast<std::size_t>(shown_rows_) < n) {
      notes_.push_back(fmt::format(
          "Only the first {} of {} {} have a row; messages to or from the others show on the visible side only.",
          shown_rows_, n, subject_.nodes_word));
    }
    if (subject_.occupancy && !summary_) {  // summary rows draw shares, not bars
      notes_.push_back(subject_.occupancy_at_end
                           ? "Eager model: a message holds its receiver's link only for its occupancy at its end (full "
                             "strength); before that its latency is in flight (pale), overlapping other messages."
                           : "Eager model: a message holds its sender's link only for its occupancy at its start (full "
                             "strength); after that its latency is in flight (pale), overlapping the next sends.");
    }
    if (drawn_.size() < transfers_on_rows_) {
      notes_.push_back(fmt::format("{} of the {} messages of these rows are drawn (limit {}); the later ones are left out.",
                                   drawn_.size(), transfers_on_rows_, options_.max_transfers));
    }
    if (invalid_transfers_ > 0) {
      notes_.push_back(fmt::format("{} message{} naming {} outside the {} {} not drawn.", invalid_transfers_,
                                   invalid_transfers_ == 1 ? "" : "s", subject_.nodes_word, subject_.container_word,
                                   invalid_transfers_ == 1 ? "is" : "are"));
    }
    if (plan_.transfers.empty()) {
      notes_.push_back(subject_.node_count <= 1 ? "No messages: a single processor has nothing to exchange."
                                                : "No messages in this plan.");
    }
  }

  void build_legend() {
    const double swatch = 22, gap = 8, item_gap = 22, font = 12;
    // Summary rows show payloads, not link classes.
    const bool legend_by_class = by_class() && !summary_;
    if (legend_by_class) {
      const bool reduce = payload_seen_[1];
      const std::string words = reduce && payload_seen_[0] ? "message" : payload_words(plan_, reduce ? Payload::partial_reduction : Payload::broadcast_value);
      for (int c = 0; c < 4; ++c) {
        if (!class_seen_[c]) continue;
        const std::string name = static_cast<std::size_t>(c) < subject_.class_names.size() && !subject_.class_names[static_cast<std::size_t>(c)].empty()
                                     ? subject_.class_names[static_cast<std::size_t>(c)]
                                     : fmt::format("class {}", c);
        legend_.push_back({fmt::format("{} over {} (send)", words, name), &kLinkClassStyles[c], LegendItem::send});
      }
      legend_.push_back({"receive", &kLinkClassStyles[0], LegendItem::receive});
      if (forward_seen_) legend_.push_back({"crossing a one-port link or router", &kLinkClassStyles[0], LegendItem::forward});
    }
    for (Payload payload : {Payload::partial_reduction, Payload::broadcast_value}) {
      if (legend_by_class || !payload_seen_[payload == Payload::partial_reduction ? 1 : 0]) continue;
      const std::string words = payload_words(plan_, payload);
      legend_.push_back({"send (" + words + ")", &style_of(payload), LegendItem::send});
      legend_.push_back({"receive (" + words + ")", &style_of(payload), LegendItem::receive});
    }
    if (subject_.occupancy && !summary_ && !legend_.empty()) {
      legend_.push_back({"latency in flight (overlaps other messages)", legend_.front().style, LegendItem::in_flight});
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
  std::string unit_suffix() const { return subject_.time_unit.empty() ? "" : " " + subject_.time_unit; }
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
    // Link-class styles only where transfers are coloured by class (graphs).
    std::vector<const PayloadStyle*> styles = {&kBroadcastStyle, &kReduceStyle};
    if (by_class()) {
      for (const auto& style : kLinkClassStyles) styles.push_back(&style);
    }
    for (const PayloadStyle* style : styles) {
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
    const std::string headline = options_.title.empty()
                                     ? svg::plan_headline(plan_, valid(plan_.root) ? subject_.id(plan_.root) : "?",
                                                          subject_.headline_population)
                                     : options_.title;
    emit("<text class=\"title\" x=\"12\" y=\"26\">{}</text>\n", xml_escape(headline));
    emit("<text class=\"evidence\" x=\"12\" y=\"{}\">{}</text>\n", evidence_baseline_, xml_escape(svg::plan_evidence(plan_, subject_.time_unit)));
    for (std::size_t i = 0; i < notes_.size(); ++i) {
      emit("<text class=\"note\" x=\"12\" y=\"{}\">{}</text>\n", notes_top_ + 12 + 16.0 * static_cast<double>(i),
           xml_escape(notes_[i]));
    }
    for (std::size_t i = 0; i < legend_.size(); ++i) {
      const auto& item = legend_[i];
      const auto& style = *item.style;
      const double x = legend_positions_[i].first, y = legend_top_ + 20 * legend_positions_[i].second;
      if (item.kind == LegendItem::receive) {
        emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="url(#hatch-{})" stroke="{}" stroke-width="1"/>)svg", x, y + 2,
             style.key, style.colour);
      } else if (item.kind == LegendItem::in_flight) {
        emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="{}" fill-opacity="0.3"/>)svg", x, y + 2, style.colour);
      } else if (item.kind == LegendItem::forward) {
        emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="#BBBBBB" stroke="#777777" stroke-width="1"/>)svg", x, y + 2);
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
      const bool network = !subject_.network_row.empty() && subject_.network_row[static_cast<std::size_t>(row)];
      if (row % 2 == 1 || network) {
        emit(R"svg(<rect x="4" y="{}" width="{}" height="{}" fill="{}"/>)svg"
             "\n",
             row_top(row), plot_right_ - 4, row_height_, network ? "#ECECEC" : "#F3F4F6");
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
    const std::string& unit = subject_.time_unit;
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

  // Pixel span [left, right] of a message's bars (draw_bars draws them so):
  // bars wide enough lose a pixel at each end, so that back-to-back messages
  // stay apart.
  std::pair<double, double> bar_span(const Transfer& transfer) const {
    const double full_width = x_of(transfer.end) - x_of(transfer.start);
    const double inset = full_width > 6 ? 1.0 : 0.0;
    const double left = x_of(transfer.start) + inset;
    return {left, left + std::max(full_width - 2 * inset, 0.8)};
  }

  // Arrows from each send to its receive. A vertical arrow must stay inside
  // the message's interval, so it is put where no bar of the rows between
  // sender and receiver lies (and not on another arrow): it then crosses
  // only empty row space. When the rows between are busy over the whole
  // interval, a full arrow would run across their bars and read as theirs;
  // the message gets two short ticks instead, one leaving the sender's bar
  // and one entering the receiver's, pointing at each other (the bar labels
  // name the other end).
  void draw_arrows() {
    if (drawn_.size() > options_.max_arrows) return;
    std::vector<const Transfer*> both_visible;
    for (const Transfer* transfer : drawn_) {
      if (row_of(transfer->from) >= 0 && row_of(transfer->to) >= 0) both_visible.push_back(transfer);
    }
    // Per row, the pixel spans its bars cover (sends, receives, forwarding).
    std::vector<std::vector<std::pair<double, double>>> covered(static_cast<std::size_t>(shown_rows_));
    auto cover = [&](int row, std::pair<double, double> span) {
      if (row >= 0) covered[static_cast<std::size_t>(row)].push_back(span);
    };
    for (const Transfer* transfer : drawn_) {
      const auto span = bar_span(*transfer);
      cover(row_of(transfer->from), span);
      cover(row_of(transfer->to), span);
      if (!subject_.crossed.empty()) {
        for (auto node : subject_.crossed[index_of(transfer)]) cover(row_of(node), span);
      }
    }
    // Earliest first, and among messages starting together the sender's row
    // first, so that arrows of one instant are spread in a stable order.
    std::stable_sort(both_visible.begin(), both_visible.end(), [](const Transfer* a, const Transfer* b) {
      return a->start != b->start ? a->start < b->start : a->from < b->from;
    });
    struct PlacedArrow {
      double x;
      int top_row, bottom_row;
    };
    std::vector<PlacedArrow> placed;
    constexpr double kClearance = 3;  // pixels between an arrow and a bar or another arrow
    for (std::size_t k = 0; k < both_visible.size(); ++k) {
      const Transfer& transfer = *both_visible[k];
      const int from_row = row_of(transfer.from), to_row = row_of(transfer.to);
      const int top_row = std::min(from_row, to_row), bottom_row = std::max(from_row, to_row);
      const auto [left, right] = bar_span(transfer);
      std::vector<std::pair<double, double>> blocked;
      for (int row = top_row + 1; row < bottom_row; ++row) {
        for (const auto& [bar_left, bar_right] : covered[static_cast<std::size_t>(row)]) {
          blocked.push_back({bar_left - kClearance, bar_right + kClearance});
        }
      }
      for (const PlacedArrow& other : placed) {
        if (other.bottom_row >= top_row && other.top_row <= bottom_row) {
          blocked.push_back({other.x - kClearance, other.x + kClearance});
        }
      }
      const double preferred = (left + right) / 2;
      const std::optional<double> x = free_position(left + kClearance, right - kClearance, preferred, std::move(blocked));
      const bool downwards = to_row > from_row;
      const auto& style = this->style(&transfer);
      const double from_edge = downwards ? bar_top(from_row) + bar_height_ : bar_top(from_row);
      const double to_edge = downwards ? bar_top(to_row) - 1 : bar_top(to_row) + bar_height_ + 1;
      if (x) {
        placed.push_back({*x, top_row, bottom_row});
        emit(R"svg(<line class="arrow" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.2" stroke-opacity="0.8" marker-end="url(#arrow-{4})"/>)svg"
             "\n",
             *x, from_edge, to_edge, style.arrow, style.key);
        continue;
      }
      // Ticks as long as the gap between two rows' bars (at least 5 px), off
      // the bar's centred label: the sender's at 30% of the bar, the
      // receiver's at 70%, so that a send tick and a receive tick in the
      // same gap between rows never coincide.
      const double gap = std::max(row_height_ - bar_height_, 5.0);
      const double direction = downwards ? 1 : -1;
      const double send_x = left + (right - left) * 0.3, receive_x = left + (right - left) * 0.7;
      // The sender's tick ends in a dot (a message leaving), the receiver's
      // in an arrowhead.
      emit(R"svg(<line class="arrow-tick" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.5"/>)svg"
           R"svg(<circle class="arrow-tick" cx="{0}" cy="{2}" r="2.2" fill="{3}"/>)svg"
           R"svg(<line class="arrow-tick" x1="{4}" y1="{5}" x2="{4}" y2="{6}" stroke="{3}" stroke-width="1.2" marker-end="url(#arrow-{7})"/>)svg"
           "\n",
           send_x, from_edge, from_edge + direction * gap * 0.6, style.arrow, receive_x, to_edge - direction * gap,
           to_edge, style.key);
    }
  }

  // The point of [low, high] nearest `preferred` outside every blocked
  // interval, or nullopt when they cover it all.
  static std::optional<double> free_position(double low, double high, double preferred,
                                             std::vector<std::pair<double, double>> blocked) {
    if (low > high) return std::nullopt;
    std::sort(blocked.begin(), blocked.end());
    std::optional<double> best;
    auto consider = [&](double free_low, double free_high) {
      free_low = std::max(free_low, low);
      free_high = std::min(free_high, high);
      if (free_low > free_high) return;
      const double candidate = std::clamp(preferred, free_low, free_high);
      if (!best || std::abs(candidate - preferred) < std::abs(*best - preferred)) best = candidate;
    };
    double cursor = low;
    for (const auto& [blocked_low, blocked_high] : blocked) {
      if (blocked_low > cursor) consider(cursor, blocked_low);
      cursor = std::max(cursor, blocked_high);
    }
    consider(cursor, high);
    return best;
  }

  void draw_bars() {
    for (const Transfer* transfer : drawn_) {
      const auto& style = this->style(transfer);
      const auto [left, right] = bar_span(*transfer);
      const double bar_width = right - left;
      const std::size_t index = index_of(transfer);
      const std::string route = subject_.route_text.empty() ? std::string() : subject_.route_text[index];
      const std::string tooltip =
          xml_escape(fmt::format("{} → {}: {} to {}{}", subject_.id(transfer->from), subject_.id(transfer->to),
                                 format_number(transfer->start), format_number(transfer->end), route));
      if (!subject_.crossed.empty()) {
        for (auto node : subject_.crossed[index]) {
          const int row = row_of(node);
          if (row < 0) continue;
          emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="0.55" stroke="{}" stroke-width="1"><title>{}</title></rect>)svg",
               left, bar_top(row), bar_width, bar_height_, style.colour, style.arrow, tooltip);
          draw_bar_label(left, bar_width, row, "", transfer->to, "#1A1A1A", transfer->from);
        }
      }
      if (subject_.occupancy) {
        draw_eager_bars(*transfer, style, left, bar_width, tooltip);
        emit("\n");
        continue;
      }
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

  // An eager transfer: on the row of the node whose link it holds (the
  // sender in a broadcast, the receiver in a reduce) the occupancy at full
  // strength and the rest pale; on the other row the whole transfer pale.
  void draw_eager_bars(const Transfer& transfer, const PayloadStyle& style, double left, double bar_width,
                       const std::string& tooltip) {
    const double occupancy = subject_.occupancy(transfer);
    const double held_from = subject_.occupancy_at_end ? transfer.end - occupancy : transfer.start;
    const double held_to = subject_.occupancy_at_end ? transfer.end : transfer.start + occupancy;
    const double held_left = std::clamp(x_of_clamped(held_from), left, left + bar_width);
    const double held_width = std::max(std::clamp(x_of_clamped(held_to), left, left + bar_width) - held_left, 0.75);
    const bool sender_holds = !subject_.occupancy_at_end;
    if (const int row = row_of(transfer.from); row >= 0) {
      emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="0.3"><title>{}</title></rect>)svg", left,
           bar_top(row), bar_width, bar_height_, style.colour, tooltip);
      if (sender_holds) {
        emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)svg", held_left, bar_top(row),
             held_width, bar_height_, style.colour, tooltip);
      }
      if (eager_label_fits(row, left, bar_width)) draw_bar_label(left, bar_width, row, "→", transfer.to, "#1A1A1A");
    }
    if (const int row = row_of(transfer.to); row >= 0) {
      emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="url(#hatch-{})" fill-opacity="0.3" stroke="{}" stroke-opacity="0.3" stroke-width="1"><title>{}</title></rect>)svg",
           left + 0.5, bar_top(row) + 0.5, std::max(bar_width - 1, 0.5), bar_height_ - 1, style.key, style.colour, tooltip);
      if (!sender_holds) {
        emit(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="url(#hatch-{})" stroke="{}" stroke-width="1"><title>{}</title></rect>)svg",
             held_left, bar_top(row) + 0.5, held_width, bar_height_ - 1, style.key, style.colour, tooltip);
      }
      if (eager_label_fits(row, left, bar_width)) draw_bar_label(left, bar_width, row, "←", transfer.from, "#1A1A1A");
    }
  }

  // Eager bars of one row overlap (latencies in flight): only a bar that
  // starts after the row's previous bars end gets a label (the arrows and
  // tooltips still name every message).
  bool eager_label_fits(int row, double left, double bar_width) {
    if (eager_row_end_.size() <= static_cast<std::size_t>(row)) eager_row_end_.resize(static_cast<std::size_t>(row) + 1, -1e300);
    double& end = eager_row_end_[static_cast<std::size_t>(row)];
    const bool fits = left >= end - 0.5;
    end = std::max(end, left + bar_width);
    return fits;
  }

  // The other end's id inside a bar: with an arrow when there is room,
  // shortened in the middle when needed, left out when even 5 characters
  // do not fit.
  // `from` (forwarding bars): the label reads "from→other".
  void draw_bar_label(double left, double bar_width, int row, const char* arrow, ProcessorIndex other, const char* colour,
                      ProcessorIndex from = kNoProcessor) {
    if (bar_font_ < 7) return;
    std::string label;
    for (std::size_t length : {kMaxIdInBar, std::size_t{12}, std::size_t{8}, std::size_t{5}}) {
      std::string id = svg::shorten_id(subject_.id(other), length);
      if (from != kNoProcessor) id = svg::shorten_id(subject_.id(from), length) + "→" + id;
      if (const std::string with_arrow = std::string(arrow) + " " + id;
          *arrow && text_width(with_arrow, bar_font_) + 6 <= bar_width) {
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
  const GanttSubject& subject_;
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
  int shown_rows_ = 0;
  bool class_seen_[4] = {false, false, false, false};
  bool forward_seen_ = false;
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
  std::vector<double> eager_row_end_;  // per row: where its eager bars end so far
  std::vector<std::pair<double, int>> legend_positions_;
  double marker_legend_x_ = 0;
  int marker_legend_line_ = 0;
};

}  // namespace

std::string gantt_svg(const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  GanttSubject subject;
  subject.node_count = cluster.size();
  subject.rows.resize(static_cast<std::size_t>(cluster.size()));
  subject.row_of.resize(static_cast<std::size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    subject.rows[static_cast<std::size_t>(p)] = p;
    subject.row_of[static_cast<std::size_t>(p)] = static_cast<int>(p);
  }
  subject.id = [&cluster](ProcessorIndex p) { return cluster.id(p); };
  subject.detail = [&cluster](ProcessorIndex p) { return "t=" + format_number(cluster.transmission_time(p)); };
  subject.headline_population = fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s");
  subject.time_unit = cluster.time_unit();
  subject.group_time = [&cluster](ProcessorIndex p) { return cluster.transmission_time(p); };
  return GanttWriter(plan, subject, options).draw();
}

std::string gantt_svg(const MakespanPlan& plan, const GraphNetwork& network, const GanttOptions& options) {
  const Platform& platform = network.platform();
  GraphPlanLabels labels = graph_plan_labels(plan, network);
  GanttSubject subject;
  subject.node_count = platform.size();
  subject.row_of.assign(static_cast<std::size_t>(platform.size()), -1);
  auto add_row = [&](ProcessorIndex v, bool network_row) {
    subject.row_of[static_cast<std::size_t>(v)] = static_cast<int>(subject.rows.size());
    subject.rows.push_back(v);
    subject.network_row.push_back(network_row ? 1 : 0);
  };
  for (auto v : network.participants()) add_row(v, false);
  // Rows for the shared network nodes several messages cross, busiest first
  // (at most 12): where the plan's messages wait for each other. Not for an
  // eager plan: its messages hold a link only for their occupancy (a
  // broadcast at the start of each transfer, a reduce at its end) and never
  // wait for each other in the network, so bars over whole transfers there
  // would show conflicts that the model does not have.
  std::vector<ProcessorIndex> shared;
  for (ProcessorIndex v = 0; v < platform.size() && plan.model != PlanModel::eager; ++v) {
    if (labels.crossings[static_cast<std::size_t>(v)] > 1) shared.push_back(v);
  }
  std::stable_sort(shared.begin(), shared.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    return labels.crossings[static_cast<std::size_t>(a)] > labels.crossings[static_cast<std::size_t>(b)];
  });
  if (shared.size() > 12) shared.resize(12);
  std::sort(shared.begin(), shared.end());
  for (auto v : shared) add_row(v, true);
  subject.id = [&platform](ProcessorIndex p) { return platform.id(p); };
  subject.detail = labels.node_detail;
  subject.headline_population = labels.population;
  subject.nodes_word = "nodes";
  subject.container_word = "platform";
  subject.time_unit = network.platform().time_unit();
  subject.transfer_class = std::move(labels.transfer_class);
  subject.crossed = std::move(labels.crossed);
  subject.route_text = std::move(labels.route_text);
  subject.class_names = std::move(labels.class_names);
  subject.group_name = subject.detail;
  if (plan.model == PlanModel::eager) {
    // Only the drawn transfers ask (one route search each).
    subject.occupancy_at_end = plan.operation == Operation::reduce;
    subject.occupancy = [&network](const Transfer& transfer) {
      if (!transfer.route.empty()) return eager_cost(network, transfer.route).occupancy;
      const auto route = network.route(transfer.from, transfer.to);
      return route && !route->empty() ? eager_cost(network, *route).occupancy : 0.0;
    };
  }
  return GanttWriter(plan, subject, options).draw();
}

void write_gantt_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  hetcoll::write_text_file(path, gantt_svg(plan, cluster, options));
}

}  // namespace hetcoll
