// Draws the communication tree of a plan as SVG with a layered layout:
// one layer per hop from the root, children in message order, elbow edges.
#include "hetcoll/viz/tree_svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <functional>

#include "hetcoll/core/files.h"
#include "hetcoll/viz/communication_tree.h"
#include "hetcoll/viz/graph_plan_labels.h"
#include "hetcoll/viz/plan_caption.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {

namespace {

using svg::format_number;
using svg::text_width;
using svg::xml_escape;

struct PhaseColours {
  const char* key;   // suffix of marker ids
  const char* line;  // edges and box borders
  const char* tint;  // the root's fill
};

constexpr PhaseColours kBroadcastColours{"value", "#0072B2", "#DCEBF6"};
constexpr PhaseColours kReduceColours{"partial", "#B07800", "#FBECCB"};

const PhaseColours& colours_of(const TreePhase& phase) {
  return phase.points_to_root() ? kReduceColours : kBroadcastColours;
}

// Link classes of a platform graph (as the Gantt chart colours them).
constexpr PhaseColours kLinkClassColours[] = {
    {"class0", "#0072B2", "#DCEBF6"},
    {"class1", "#009E73", "#D5F0E7"},
    {"class2", "#D55E00", "#F8DFCC"},
    {"class3", "#CC79A7", "#F5E4EE"},
};

// What the drawing needs to know about the plan's nodes (a cluster's
// processors or a graph's participants) and, on a graph, each message's
// link class and route.
struct TreeSubject {
  ProcessorIndex node_count = 0;
  std::function<std::string(ProcessorIndex)> id;
  std::function<std::string(ProcessorIndex)> detail;  // "t=1" or "site 2" (may be empty)
  std::string headline_population;
  ProcessorIndex counted = 0;              // the nodes a complete plan reaches (not routers)
  const char* nodes_word = "processor";
  const char* detail_word = "t";            // what `detail` shows
  double time_floor = 0;                   // times at least this large choose the unit
  std::vector<int> transfer_class;         // per transfer; empty: colour by phase
  std::vector<std::string> route_text;     // per transfer: " via sw, wan (WAN)"
  std::vector<std::string> class_names;
  std::string time_unit;                   // the platform's, possibly empty
};

constexpr std::size_t kMaxIdInBox = 20;
constexpr double kIdFont = 12.5;
constexpr double kDetailFont = 11;
constexpr double kEdgeFont = 10.5;
constexpr double kMargin = 16;

// Where one phase's drawn nodes go, in slots (breadth) and layers (depth).
struct PanelLayout {
  const TreePhase* phase = nullptr;
  std::size_t shown = 0;                     // nodes[0, shown) are drawn
  std::vector<double> slot;                  // breadth position, in slot pitches
  std::vector<std::size_t> hidden_children;  // per drawn node
  // A leaf drawn in the k-th column of its run of siblings sits k layers
  // further out; those beyond the first column are fed by a line at
  // feeder_slot, in the gap before the run.
  std::vector<int> column_offset;  // layers a node is moved out by its run's columns
  std::vector<int> depth_offset;   // the sum of the column offsets of the node and its ancestors
  std::vector<double> feeder_slot;
  bool folds_subtrees = false;  // a column holds more than leaves (then no bands)
  std::size_t leaf_count = 0;
  double slot_count = 0;  // slots used, gaps before runs in columns included
  std::size_t rows_per_column = 0;  // 0: no runs in columns
  struct ColumnRun {
    std::size_t first_child;  // a node of the run (gives its layer)
    double feeder_slot, last_row_slot;
    int layers;  // width of all its columns
  };
  std::vector<ColumnRun> column_runs;
  int deepest_layer = 0;
  std::string title;
  double top = 0;   // y of the first layer, filled in when stacking panels
  double left = 0;  // x of the first slot or layer (narrow top-down trees are centred)
  // Deep trees are wrapped: layers [b L, (b + 1) L) form band b, drawn beside
  // the band before it (below it when the tree grows to the right). Every
  // band but the first starts with a column of "continued" copies of the
  // parents in the band before. layers_per_band 0: one band, no wrapping.
  int layers_per_band = 0;
  std::vector<double> band_first_slot = {0};  // the smallest slot drawn in each band
  std::vector<double> band_offset = {0};      // each band's breadth offset, pixels
  double breadth = 0;                         // pixels, all bands
  double depth = 0;                           // pixels, the deepest band

  int band_of(int layer) const { return layers_per_band > 0 ? layer / layers_per_band : 0; }
  // The column of a layer inside its band (after the band's continued column).
  int column_of(int layer) const {
    if (layers_per_band == 0) return layer;
    return layer % layers_per_band + (layer >= layers_per_band ? 1 : 0);
  }
};

// A node with at least this many drawn children may have them drawn in
// columns (a tree's picture otherwise grows one row per leaf).
constexpr std::size_t kMinChildrenInColumns = 6;

// rows_per_column 0: every leaf on a row of its own. Otherwise the children
// of a node with kMinChildrenInColumns or more, whose subtrees take more
// than rows_per_column rows, are split in message order into columns of
// about equal height (each child's whole subtree in one column), after a
// gap holding the line that feeds the columns beyond the first. A column
// is as many layers wide as the deepest subtree of the run.
PanelLayout lay_out(const TreePhase& phase, std::size_t max_nodes, std::size_t rows_per_column = 0) {
  PanelLayout layout;
  layout.phase = &phase;
  layout.rows_per_column = rows_per_column;
  layout.shown = std::min(phase.nodes.size(), std::max<std::size_t>(max_nodes, 1));
  const std::size_t shown = layout.shown;
  layout.slot.assign(shown, 0);
  layout.column_offset.assign(shown, 0);
  layout.depth_offset.assign(shown, 0);
  layout.feeder_slot.assign(shown, 0);
  layout.hidden_children.assign(shown, 0);
  for (std::size_t node = 0; node < shown; ++node) {
    for (std::size_t child : phase.nodes[node].children) layout.hidden_children[node] += child >= shown;
    layout.deepest_layer = std::max(layout.deepest_layer, phase.nodes[node].depth);
  }
  // Leaves get consecutive slots in depth-first order (children in message
  // order), so every subtree occupies a contiguous range and nothing
  // overlaps. Breadth-first order puts children after their parent: walking
  // it backwards gives each subtree's rows and layers (its own and its runs'
  // columns) and each child's first row relative to its parent's; walking it
  // forwards turns those into slots. No recursion: drawn trees may be
  // chains of any length.
  std::vector<double> rows(shown, 1), first_row(shown, 0);
  std::vector<int> layers(shown, 1);
  std::vector<char> in_columns(shown, 0);
  std::vector<std::size_t> drawn;
  for (std::size_t node = shown; node-- > 0;) {
    drawn.clear();
    for (std::size_t child : phase.nodes[node].children) {
      if (child < shown) drawn.push_back(child);
    }
    if (drawn.empty()) {
      ++layout.leaf_count;
      continue;
    }
    double total = 0, largest = 0;
    int widest = 0;
    for (std::size_t child : drawn) {
      total += rows[child];
      largest = std::max(largest, rows[child]);
      widest = std::max(widest, layers[child]);
    }
    if (rows_per_column > 0 && drawn.size() >= kMinChildrenInColumns && total > static_cast<double>(rows_per_column)) {
      const double columns = std::ceil(total / static_cast<double>(rows_per_column));
      const double target = std::max(std::ceil(total / columns), largest);
      double row = 1, rows_end = 1;  // row 0 holds the feeder line
      int column = 0, width = 0;
      for (std::size_t child : drawn) {
        if (row > 1 && row - 1 + rows[child] > target) ++column, row = 1;
        first_row[child] = row;
        layout.column_offset[child] = column * widest;
        width = std::max(width, column * widest + layers[child]);
        row += rows[child];
        rows_end = std::max(rows_end, row);
      }
      if (column > 0) {
        in_columns[node] = 1;
        rows[node] = rows_end;
        layers[node] = width + 1;
        continue;
      }
    }
    double row = 0;
    for (std::size_t child : drawn) {
      first_row[child] = row;
      layout.column_offset[child] = 0;
      row += rows[child];
    }
    rows[node] = row;
    layers[node] = widest + 1;
  }
  std::vector<double> start(shown, 0);
  for (std::size_t node = 0; node < shown; ++node) {
    if (node > 0) {
      const std::size_t parent = phase.nodes[node].parent;
      start[node] = start[parent] + first_row[node];
      if (in_columns[parent]) layout.feeder_slot[node] = start[parent] + 0.2;
    }
    layout.slot[node] = start[node];
    if (in_columns[node]) {
      const auto& children = phase.nodes[node].children;
      const std::size_t first_drawn = *std::find_if(children.begin(), children.end(), [shown](std::size_t c) { return c < shown; });
      layout.column_runs.push_back({first_drawn, start[node] + 0.2, start[node] + rows[node] - 1, layers[node] - 1});
    }
  }
  layout.slot_count = shown > 0 ? rows[0] : 0;
  // Breadth-first order puts children after their parent: walking it
  // backwards centres each parent over its drawn children, walking it
  // forwards passes the column offsets down to the descendants.
  for (std::size_t node = shown; node-- > 0;) {
    double first = 1e300, last = -1e300;
    for (std::size_t child : phase.nodes[node].children) {
      if (child >= shown) continue;
      first = std::min(first, layout.slot[child]);
      last = std::max(last, layout.slot[child]);
    }
    if (first <= last) layout.slot[node] = (first + last) / 2;
  }
  for (std::size_t node = 1; node < shown; ++node) {
    layout.depth_offset[node] = layout.depth_offset[phase.nodes[node].parent] + layout.column_offset[node];
    layout.folds_subtrees |= layout.column_offset[node] > 0 && !phase.nodes[node].children.empty() &&
                             phase.nodes[node].children.front() < shown;
  }
  return layout;
}

class TreeWriter {
 public:
  TreeWriter(const MakespanPlan& plan, const TreeSubject& subject, const TreeSvgOptions& options)
      : plan_(plan), subject_(subject), options_(options) {}

  std::string draw() {
    svg::require_tree(plan_);
    phases_ = communication_tree(plan_, subject_.node_count);
    for (const auto& phase : phases_) panels_.push_back(lay_out(phase, options_.max_nodes));
    choose_time_scale();
    name_panels();
    measure_boxes();
    choose_direction();
    for (auto& panel : panels_) choose_columns_and_bands(panel);
    build_notes();
    compute_size();
    open_document();
    draw_header();
    for (const auto& panel : panels_) draw_panel(panel);
    out_.add_raw("</svg>\n");
    return out_.take();
  }

 private:
  std::string box_id_text(ProcessorIndex p) const { return svg::shorten_id(subject_.id(p), kMaxIdInBox); }
  // Times in the boxes and on the edges, in units of 10^time_exponent_ when
  // they would otherwise print as 1.05e-5.
  std::string time_text(double time) const { return format_number(time / time_scale_); }
  std::string box_time_text(ProcessorIndex p) const { return subject_.detail(p); }
  std::string box_ready_text(const TreeNode& node, bool is_root) const {
    std::string text = "ready " + time_text(node.ready_time);
    if (is_root) return std::string(svg::root_role(plan_.operation)) + " · " + text;
    if (svg::is_multicast_helper(plan_, node.processor)) return "helper · " + text;
    return text;
  }
  std::string edge_text(const TreeNode& node) const {
    return time_text(node.link_start) + "–" + time_text(node.link_end);
  }

  void choose_time_scale() {
    double latest = subject_.time_floor;
    for (const auto& phase : phases_) latest = std::max(latest, phase.end_time);
    time_exponent_ = svg::axis_scale_exponent({latest});
    time_scale_ = std::pow(10.0, time_exponent_);
  }

  void name_panels() {
    for (auto& panel : panels_) {
      const std::string root = svg::shorten_id(subject_.id(panel.phase->nodes.front().processor), 32);
      if (panels_.size() > 1) {
        panel.title = panel.phase->points_to_root() ? "Phase 1 — reduce to " + root + " (arrows point to the root)"
                                                    : "Phase 2 — broadcast of the result from " + root;
      }
    }
  }

  // One box size for the whole picture, from the widest label.
  void measure_boxes() {
    double widest_id_line = 0, widest_ready = 0, widest_one_line = 0;
    for (const auto& panel : panels_) {
      for (std::size_t i = 0; i < panel.shown; ++i) {
        const TreeNode& node = panel.phase->nodes[i];
        const double id_line = text_width(box_id_text(node.processor), kIdFont) * 1.08 + 6 +
                               text_width(box_time_text(node.processor), kDetailFont);
        const double ready = text_width(box_ready_text(node, i == 0), kDetailFont);
        widest_id_line = std::max(widest_id_line, id_line);
        widest_ready = std::max(widest_ready, ready);
        widest_one_line = std::max(widest_one_line, id_line + 10 + ready);
        if (i > 0) widest_edge_label_ = std::max(widest_edge_label_, text_width(edge_text(node), kEdgeFont));
      }
    }
    // One-line boxes hold their "+k" badge at their right end, so badges
    // never reach a neighbour; two-line boxes carry it below their corner.
    std::size_t most_hidden = 0;
    for (const auto& panel : panels_) {
      for (std::size_t hidden : panel.hidden_children) most_hidden = std::max(most_hidden, hidden);
    }
    const double badge_room = most_hidden > 0 ? badge_width(most_hidden) + 6 : 0;
    two_line_box_width_ = std::ceil(std::max({widest_id_line, widest_ready, 48.0}) + 16);
    one_line_box_width_ = std::ceil(widest_one_line + 16 + badge_room);
  }

  void choose_direction() {
    std::size_t most_leaves = 0;
    for (const auto& panel : panels_) most_leaves = std::max(most_leaves, panel.leaf_count);
    const double top_down_pitch = std::max(two_line_box_width_ + 14, widest_edge_label_ + 18);
    const double top_down_width = static_cast<double>(most_leaves) * top_down_pitch + 2 * kMargin;
    switch (options_.direction) {
      case TreeSvgOptions::Direction::top_down: top_down_ = true; break;
      case TreeSvgOptions::Direction::left_to_right: top_down_ = false; break;
      case TreeSvgOptions::Direction::automatic: top_down_ = top_down_width <= options_.max_top_down_width; break;
    }
    if (top_down_) {
      box_width_ = two_line_box_width_;
      box_height_ = 38;
      breadth_pitch_ = top_down_pitch;
      layer_pitch_ = box_height_ + 48;
    } else {
      box_width_ = one_line_box_width_;
      box_height_ = 22;
      // Tall trees pack their rows closer (the boxes stay 22 px high).
      breadth_pitch_ = most_leaves > 60 ? 26 : 30;
      layer_pitch_ = box_width_ + kBusOffsetLeftToRight + widest_edge_label_ + 18;
    }
  }

  // A deep tree drawn in one band is a thin diagonal or a long chain that no
  // screen shows readably. Wrapping its layers into bands of L (the next
  // band beside the previous one) trades that for a picture of about screen
  // proportions: among L = 4 .. depth, the one needing the least shrinking
  // to fit kScreenWidth x kScreenHeight, kept only when it beats the single
  // band clearly (a wrapped tree is read band by band).
  static constexpr double kScreenWidth = 1600, kScreenHeight = 1100, kBandGap = 28;
  static constexpr int kMinLayersToWrap = 8;
  static constexpr double kContinuationStub = 18;
  void choose_wrapping(PanelLayout& panel) const {
    set_bands(panel, 0);
    const double unwrapped = shrink_to_fit(panel);
    // Columns of subtrees share rows: the continued copies at a band's start
    // could meet, so such layouts are not wrapped.
    if (panel.deepest_layer < kMinLayersToWrap || unwrapped <= 1 || panel.folds_subtrees) return;
    int best_layers = 0;
    double best = unwrapped / 1.25;
    for (int layers = 4; layers < panel.deepest_layer; ++layers) {
      set_bands(panel, layers);
      if (const double shrink = shrink_to_fit(panel); shrink < best) {
        best = shrink;
        best_layers = layers;
      }
    }
    if (best_layers == 0) return set_bands(panel, 0);
    // The same number of bands, as even as they go: no short last band.
    const int levels = panel.deepest_layer + 1;
    const int bands = (levels + best_layers - 1) / best_layers;
    set_bands(panel, (levels + bands - 1) / bands);
  }

  // A node with many children (a star, the root of a wide tree) drawn one
  // leaf per row is a column hundreds of rows tall. Drawn left to right, the
  // children of nodes with many are split into columns of about R rows:
  // among R = 4 .. the rows of one column, the one needing the least
  // shrinking to fit kScreenWidth x kScreenHeight, kept only when it beats
  // one column clearly. Each candidate is wrapped into bands as it best fits
  // (a deep chain may end in a star). Top-down trees are at most
  // max_top_down_width wide and keep one row of children per parent.
  void choose_columns_and_bands(PanelLayout& panel) const {
    choose_wrapping(panel);
    if (top_down_) return;
    const double one_column = shrink_to_fit(panel);
    if (one_column <= 1) return;
    std::size_t best_rows = 0;
    double best = one_column / 1.25;
    for (std::size_t rows = 4; static_cast<double>(rows) < panel.slot_count; ++rows) {
      PanelLayout candidate = lay_out(*panel.phase, options_.max_nodes, rows);
      choose_wrapping(candidate);
      if (const double shrink = shrink_to_fit(candidate); shrink < best) {
        best = shrink;
        best_rows = rows;
      }
    }
    if (best_rows > 0) {
      std::string title = std::move(panel.title);
      panel = lay_out(*panel.phase, options_.max_nodes, best_rows);
      panel.title = std::move(title);
      choose_wrapping(panel);
    }
  }

  double shrink_to_fit(const PanelLayout& panel) const {
    const double x = top_down_ ? panel.breadth : panel.depth, y = top_down_ ? panel.depth : panel.breadth;
    return std::max(x / kScreenWidth, y / kScreenHeight);
  }

  // Bands of `layers` layers (0: one band): each band's slot range, offset
  // and the panel's extents.
  void set_bands(PanelLayout& panel, int layers) const {
    panel.layers_per_band = layers;
    const int bands = panel.band_of(panel.deepest_layer) + 1;
    std::vector<double> first(static_cast<std::size_t>(bands), 1e300), last(static_cast<std::size_t>(bands), -1e300);
    for (std::size_t i = 0; i < panel.shown; ++i) {
      const auto band = static_cast<std::size_t>(panel.band_of(panel.phase->nodes[i].depth));
      first[band] = std::min(first[band], panel.slot[i]);
      last[band] = std::max(last[band], panel.slot[i]);
    }
    // A run in columns starts with its feeder line.
    for (const auto& run : panel.column_runs) {
      const auto band = static_cast<std::size_t>(panel.band_of(panel.phase->nodes[run.first_child].depth));
      first[band] = std::min(first[band], run.feeder_slot - 0.2);
    }
    if (layers == 0) first[0] = 0, last[0] = std::max(1.0, panel.slot_count) - 1;
    panel.band_first_slot = first;
    panel.band_offset.assign(static_cast<std::size_t>(bands), 0);
    double offset = 0;
    for (std::size_t band = 0; band < first.size(); ++band) {
      panel.band_offset[band] = offset;
      offset += (last[band] - first[band] + 1) * breadth_pitch_ + (band + 1 < first.size() ? kBandGap : 0);
    }
    panel.breadth = offset;
    int deepest_column = bands > 1 ? layers : panel.deepest_layer;
    for (std::size_t i = 0; i < panel.shown; ++i) {
      deepest_column = std::max(deepest_column, panel.column_of(panel.phase->nodes[i].depth) + panel.depth_offset[i]);
    }
    panel.depth = deepest_column * layer_pitch_ + (top_down_ ? box_height_ : box_width_) +
                  (bands > 1 ? kContinuationStub : 0);
  }

  void build_notes() {
    std::size_t left_out = 0, detached = 0;
    for (const auto& panel : panels_) {
      left_out = std::max(left_out, panel.phase->nodes.size() - panel.shown);
      detached += panel.phase->detached.size();
    }
    if (left_out > 0) {
      notes_.push_back(fmt::format("Showing the first {} {}s of each tree, breadth-first; {} left out "
                                   "(a grey \"+k\" badge marks a node with k children not drawn).",
                                   std::min<std::size_t>(std::max<std::size_t>(options_.max_nodes, 1), panels_.front().phase->nodes.size()),
                                   subject_.nodes_word, left_out));
    }
    if (!panels_.empty()) {
      const auto absent = static_cast<std::size_t>(subject_.counted) - panels_.back().phase->nodes.size();
      const char* word = subject_.nodes_word;
      if (absent > 0 && plan_.operation == Operation::multicast) {
        notes_.push_back(fmt::format("{} {}{} no part.", absent, word, absent == 1 ? " takes" : "s take"));
      } else if (absent > 0 && subject_.counted > 0) {
        notes_.push_back(fmt::format("{} {}{} not reached by this plan.", absent, word, absent == 1 ? " is" : "s are"));
      }
    }
    if (!subject_.transfer_class.empty() && subject_.class_names.size() > 1) {
      const char* colour_names[] = {"blue", "green", "vermilion", "purple"};
      std::string key;
      for (std::size_t c = 0; c < subject_.class_names.size() && c < 4; ++c) {
        if (subject_.class_names[c].empty()) continue;
        key += fmt::format("{}{} {}", key.empty() ? "" : ", ", colour_names[c], subject_.class_names[c]);
      }
      notes_.push_back("Edges are coloured by the slowest link on the message's route: " + key +
                       " (slow links drawn thicker; hover for the route).");
    }
    for (const auto& panel : panels_) {
      if (panel.rows_per_column == 0) continue;
      notes_.push_back(fmt::format("The many children of a node are drawn in framed columns of about {} rows (each with its whole subtree), "
                                   "in the order they are {}: down the first column, then the next.",
                                   panel.rows_per_column, panel.phase->points_to_root() ? "heard from" : "served"));
      break;
    }
    for (const auto& panel : panels_) {
      if (panel.layers_per_band == 0) continue;
      notes_.push_back(fmt::format("A deep tree ({} levels), drawn in bands of {} levels {}; a dashed box at the start of a band "
                                   "repeats a node of the band before, whose dashed stub marks where it continues.",
                                   panel.deepest_layer + 1, panel.layers_per_band, top_down_ ? "side by side" : "one below the other"));
      break;
    }
    if (detached > 0) {
      notes_.push_back(fmt::format("{} {}(s) are not connected to the root (invalid plan).", detached, subject_.nodes_word));
    }
  }

  double panel_breadth(const PanelLayout& panel) const { return panel.breadth; }
  double panel_depth(const PanelLayout& panel) const { return panel.depth; }

  void compute_size() {
    double y = 26 + 20 + 18;  // title, evidence and help lines
    y += 16.0 * static_cast<double>(notes_.size());
    double content_width = 0;
    for (auto& panel : panels_) {
      y += 10;
      if (!panel.title.empty()) y += 20;
      panel.top = y;
      const double extent_x = top_down_ ? panel_breadth(panel) : panel_depth(panel);
      const double extent_y = top_down_ ? panel_depth(panel) : panel_breadth(panel);
      content_width = std::max(content_width, extent_x);
      y += extent_y + 14;
    }
    double text_extent = std::max({text_width(headline(), 16) * 1.08, text_width(svg::plan_evidence(plan_, subject_.time_unit), 12.5),
                                   text_width(help_text(), 11.5)});
    for (const auto& note : notes_) text_extent = std::max(text_extent, text_width(note, 11.5));
    width_ = static_cast<int>(std::ceil(std::max({content_width + 2 * kMargin, text_extent + 2 * 12, 480.0})));
    for (auto& panel : panels_) {
      panel.left = kMargin;
      if (top_down_) panel.left += std::max(0.0, (width_ - 2 * kMargin - panel_breadth(panel)) / 2);
    }
    height_ = static_cast<int>(std::ceil(y + 8));
  }

  std::string help_text() const {
    std::string text = help_by_operation();
    if (time_exponent_ != 0) text += " Times in units of " + svg::power_of_ten(time_exponent_) + ".";
    return text;
  }

  std::string help_by_operation() const {
    const std::string boxes = fmt::format("Boxes: {}, {}, ", subject_.nodes_word, subject_.detail_word);
    switch (plan_.operation) {
      case Operation::reduce:
        return boxes + "and when it holds all its inputs. Edges: when its partial result goes to its parent (start–end).";
      case Operation::allreduce:
        return boxes + "and when it holds its partial result (phase 1) or the result (phase 2). Edges: when the "
                       "message is sent (start–end).";
      default: return boxes + "and when it has the message. Edges: when the message is sent (start–end).";
    }
  }

  std::string headline() const {
    const bool has_root = plan_.root >= 0 && plan_.root < subject_.node_count;
    return svg::plan_headline(plan_, has_root ? subject_.id(plan_.root) : "?", subject_.headline_population);
  }

  void open_document() {
    out_.add(R"svg(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">
<style>
text {{ font-family: {2}; fill: #222222; }}
.title {{ font-size: 16px; font-weight: bold; }}
.evidence {{ font-size: 12.5px; fill: #333333; }}
.help {{ font-size: 11.5px; fill: #555555; }}
.note {{ font-size: 11.5px; fill: #8A3B00; font-style: italic; }}
.panel {{ font-size: 13px; font-weight: bold; fill: #333333; }}
.id {{ font-size: {3}px; font-weight: bold; }}
.detail {{ font-size: {4}px; fill: #555555; }}
.edge-label {{ font-size: {5}px; fill: #333333; }}
.badge {{ font-size: 9.5px; fill: #FFFFFF; font-weight: bold; }}
.continued-id {{ font-size: {3}px; font-weight: bold; fill: #666666; }}
</style>
<title>{6}</title>
<defs>
)svg",
             width_, height_, svg::kFontFamily, kIdFont, kDetailFont, kEdgeFont,
             xml_escape("Communication tree: " + headline()));
    for (const PhaseColours* colours : {&kBroadcastColours, &kReduceColours, &kLinkClassColours[0], &kLinkClassColours[1],
                                        &kLinkClassColours[2], &kLinkClassColours[3]}) {
      out_.add(R"svg(<marker id="arrow-{0}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,1 L10,5 L0,9 z" fill="{1}"/></marker>)svg"
               "\n",
               colours->key, colours->line);
    }
    out_.add("</defs>\n<rect width=\"{}\" height=\"{}\" fill=\"#FFFFFF\"/>\n", width_, height_);
  }

  void draw_header() {
    out_.add("<text class=\"title\" x=\"12\" y=\"26\">{}</text>\n", xml_escape(headline()));
    out_.add("<text class=\"evidence\" x=\"12\" y=\"46\">{}</text>\n", xml_escape(svg::plan_evidence(plan_, subject_.time_unit)));
    out_.add("<text class=\"help\" x=\"12\" y=\"64\">{}</text>\n", xml_escape(help_text()));
    for (std::size_t i = 0; i < notes_.size(); ++i) {
      out_.add("<text class=\"note\" x=\"12\" y=\"{}\">{}</text>\n", 80 + 16.0 * static_cast<double>(i), xml_escape(notes_[i]));
    }
  }

  // Centre of a node's box.
  struct Point {
    double x, y;
  };
  Point centre_of(const PanelLayout& panel, std::size_t node) const {
    const int layer = panel.phase->nodes[node].depth;
    return place(panel, panel.slot[node], panel.band_of(layer), panel.column_of(layer) + panel.depth_offset[node]);
  }
  // The continued copy, at the start of `band`, of a parent in the band before.
  Point continued_centre_of(const PanelLayout& panel, std::size_t parent, int band) const {
    return place(panel, panel.slot[parent], band, 0);
  }
  Point place(const PanelLayout& panel, double slot, int band, int column) const {
    const auto b = static_cast<std::size_t>(band);
    const double breadth = panel.band_offset[b] + (slot - panel.band_first_slot[b]) * breadth_pitch_ + breadth_pitch_ / 2;
    const double depth = column * layer_pitch_;
    if (top_down_) return {panel.left + breadth, panel.top + depth + box_height_ / 2};
    return {panel.left + depth + box_width_ / 2, panel.top + breadth};
  }

  void draw_panel(const PanelLayout& panel) {
    const TreePhase& phase = *panel.phase;
    const PhaseColours& colours = colours_of(phase);
    if (!panel.title.empty()) {
      out_.add("<text class=\"panel\" x=\"12\" y=\"{}\">{}</text>\n", panel.top - 8, xml_escape(panel.title));
    }
    draw_band_separators(panel);
    draw_column_run_frames(panel);
    // Parents whose children start the next band: a continued copy there, a
    // stub here.
    std::vector<char> continued(panel.shown, 0);
    // Edges first, so that boxes cover their ends.
    for (std::size_t i = 1; i < panel.shown; ++i) {
      const TreeNode& node = phase.nodes[i];
      const int child_band = panel.band_of(node.depth);
      const bool crosses_band = child_band != panel.band_of(phase.nodes[node.parent].depth);
      if (crosses_band) continued[node.parent] = 1;
      const Point parent = crosses_band ? continued_centre_of(panel, node.parent, child_band) : centre_of(panel, node.parent);
      const Point child = centre_of(panel, i);
      std::string path;
      double label_x, label_y;
      const char* label_anchor;
      if (top_down_) {
        const double parent_bottom = parent.y + box_height_ / 2, child_top = child.y - box_height_ / 2;
        const double bus = parent_bottom + 16;
        path = phase.points_to_root()
                   ? fmt::format("M{:.2f},{:.2f} V{:.2f} H{:.2f} V{:.2f}", child.x, child_top, bus, parent.x, parent_bottom)
                   : fmt::format("M{:.2f},{:.2f} V{:.2f} H{:.2f} V{:.2f}", parent.x, parent_bottom, bus, child.x, child_top);
        label_x = child.x + 4;
        label_y = child_top - 8;
        label_anchor = "start";
      } else {
        const double parent_right = parent.x + box_width_ / 2, child_left = child.x - box_width_ / 2;
        const double bus = parent_right + kBusOffsetLeftToRight;
        if (panel.column_offset[i] > 0) {
          // Along the feeder line above the run, then down the bus of this
          // column (just right of the column before).
          const double feeder = place(panel, panel.feeder_slot[i], child_band, 0).y;
          const double column_bus = child_left - layer_pitch_ + box_width_ + kBusOffsetLeftToRight;
          path = phase.points_to_root()
                     ? fmt::format("M{:.2f},{:.2f} H{:.2f} V{:.2f} H{:.2f} V{:.2f} H{:.2f}", child_left, child.y, column_bus,
                                   feeder, bus, parent.y, parent_right)
                     : fmt::format("M{:.2f},{:.2f} H{:.2f} V{:.2f} H{:.2f} V{:.2f} H{:.2f}", parent_right, parent.y, bus, feeder,
                                   column_bus, child.y, child_left);
        } else {
          path = phase.points_to_root()
                     ? fmt::format("M{:.2f},{:.2f} H{:.2f} V{:.2f} H{:.2f}", child_left, child.y, bus, parent.y, parent_right)
                     : fmt::format("M{:.2f},{:.2f} H{:.2f} V{:.2f} H{:.2f}", parent_right, parent.y, bus, child.y, child_left);
        }
        label_x = child_left - 8;
        label_y = child.y - 4;
        label_anchor = "end";
      }
      const PhaseColours& edge_colours =
          subject_.transfer_class.empty() || node.transfer >= subject_.transfer_class.size()
              ? colours
              : kLinkClassColours[std::clamp(subject_.transfer_class[node.transfer], 0, 3)];
      const bool slow = &edge_colours != &colours && &edge_colours != &kLinkClassColours[0];
      out_.add(R"svg(<path d="{}" fill="none" stroke="{}" stroke-width="{}" marker-end="url(#arrow-{})"/>)svg", path,
               edge_colours.line, slow ? 2.6 : 1.4, edge_colours.key);
      out_.add(R"svg(<text class="edge-label" x="{}" y="{}" text-anchor="{}">{}</text>)svg"
               "\n",
               label_x, label_y, label_anchor, xml_escape(edge_text(node)));
    }
    for (std::size_t i = 0; i < panel.shown; ++i) {
      if (!continued[i]) continue;
      draw_continuation_stub(centre_of(panel, i), colours);
      const Point copy = continued_centre_of(panel, i, panel.band_of(phase.nodes[i].depth) + 1);
      draw_continued_box(copy, phase.nodes[i].processor, colours);
    }
    for (std::size_t i = 0; i < panel.shown; ++i) draw_box(panel, i, colours);
  }

  // A tinted frame around each run of leaves drawn in columns, so that its
  // later columns read as siblings of the first, not as a deeper level.
  void draw_column_run_frames(const PanelLayout& panel) {
    for (const auto& run : panel.column_runs) {
      const Point first = centre_of(panel, run.first_child);
      const int band = panel.band_of(panel.phase->nodes[run.first_child].depth);
      const double feeder = place(panel, run.feeder_slot, band, 0).y;
      const double last_row = place(panel, run.last_row_slot, band, 0).y;
      const double left = first.x - box_width_ / 2 - layer_pitch_ + box_width_ + kBusOffsetLeftToRight - 5;
      const double right = first.x + box_width_ / 2 + (run.layers - 1) * layer_pitch_ + 5;
      out_.add(R"svg(<rect class="sibling-columns" x="{}" y="{}" width="{}" height="{}" rx="6" fill="#F3F6F9" stroke="#D5DDE5" stroke-width="1"/>)svg" "\n",
               left, feeder - 6, right - left, last_row + box_height_ / 2 + 2 - (feeder - 6));
    }
  }

  // A faint line in the gap between two bands.
  void draw_band_separators(const PanelLayout& panel) {
    for (std::size_t band = 1; band < panel.band_offset.size(); ++band) {
      const double at = panel.band_offset[band] - kBandGap / 2;
      if (top_down_) {
        out_.add(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#CCCCCC" stroke-width="1"/>)svg" "\n", panel.left + at,
                 panel.top, panel.top + panel.depth);
      } else {
        out_.add(R"svg(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#CCCCCC" stroke-width="1"/>)svg" "\n", panel.left,
                 panel.top + at, panel.left + panel.depth);
      }
    }
  }

  // A dashed stub leaving the box of a node whose children are in the next band.
  void draw_continuation_stub(const Point& centre, const PhaseColours& colours) {
    const double length = kContinuationStub;
    if (top_down_) {
      const double bottom = centre.y + box_height_ / 2;
      out_.add(R"svg(<line class="continues" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.4" stroke-dasharray="3 2"/>)svg" "\n",
               centre.x, bottom, bottom + length, colours.line);
    } else {
      const double right = centre.x + box_width_ / 2;
      out_.add(R"svg(<line class="continues" x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="1.4" stroke-dasharray="3 2"/>)svg" "\n",
               right, centre.y, right + length, colours.line);
    }
  }

  // The copy of a node at the start of a band: dashed, its id only.
  void draw_continued_box(const Point& centre, ProcessorIndex processor, const PhaseColours& colours) {
    const double left = centre.x - box_width_ / 2, top = centre.y - box_height_ / 2;
    out_.add(R"svg(<g class="continued"><title>{0} (continued from the band before)</title><rect x="{1}" y="{2}" width="{3}" height="{4}" rx="5" fill="#FFFFFF" stroke="{5}" stroke-width="1.2" stroke-dasharray="4 3"/>)svg",
             xml_escape(subject_.id(processor)), left, top, box_width_, box_height_, colours.line);
    out_.add(R"svg(<text class="continued-id" x="{}" y="{}" text-anchor="{}">{}</text></g>)svg" "\n",
             top_down_ ? centre.x : left + 8, centre.y + 4.5, top_down_ ? "middle" : "start", xml_escape(box_id_text(processor)));
  }

  void draw_box(const PanelLayout& panel, std::size_t index, const PhaseColours& colours) {
    const TreeNode& node = panel.phase->nodes[index];
    const bool is_root = index == 0;
    const Point centre = centre_of(panel, index);
    const double left = centre.x - box_width_ / 2, top = centre.y - box_height_ / 2;
    const std::string id = xml_escape(box_id_text(node.processor));
    const std::string time = xml_escape(box_time_text(node.processor));
    const std::string ready = xml_escape(box_ready_text(node, is_root));
    const std::string detail = subject_.detail(node.processor);
    std::string tooltip = fmt::format("{}{}: ready {}", subject_.id(node.processor), detail.empty() ? "" : " (" + detail + ")",
                                      format_number(node.ready_time));
    if (!is_root) {
      const auto& other = subject_.id(panel.phase->nodes[node.parent].processor);
      tooltip += panel.phase->points_to_root() ? fmt::format("; sends to {} during {}", other, edge_text(node))
                                               : fmt::format("; receives from {} during {}", other, edge_text(node));
      if (node.transfer < subject_.route_text.size()) tooltip += subject_.route_text[node.transfer];
    }
    out_.add(R"svg(<g><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="5" fill="{}" stroke="{}" stroke-width="{}"/>)svg",
             xml_escape(tooltip), left, top, box_width_, box_height_, is_root ? colours.tint : "#FFFFFF", colours.line,
             is_root ? 2.5 : 1.2);
    if (top_down_) {
      out_.add(R"svg(<text x="{}" y="{}" text-anchor="middle"><tspan class="id">{}</tspan><tspan class="detail" dx="5">{}</tspan></text>)svg",
               centre.x + 2.5, top + 16, id, time);
      out_.add(R"svg(<text class="detail" x="{}" y="{}" text-anchor="middle">{}</text>)svg", centre.x, top + 31, ready);
    } else {
      out_.add(R"svg(<text x="{}" y="{}"><tspan class="id">{}</tspan><tspan class="detail" dx="5">{}{}</tspan></text>)svg", left + 8,
               centre.y + 4.5, id, time.empty() ? "" : time + " · ", ready);
    }
    if (const std::size_t hidden = panel.hidden_children[index]; hidden > 0) {
      const double width = badge_width(hidden);
      const double badge_right = top_down_ ? left + box_width_ : left + box_width_ - 4;
      const double badge_top = top_down_ ? top + box_height_ + 3 : centre.y - 6;
      out_.add(R"svg(<rect x="{}" y="{}" width="{}" height="12" rx="6" fill="#666666"/>)svg", badge_right - width, badge_top,
               width);
      out_.add(R"svg(<text class="badge" x="{}" y="{}" text-anchor="middle">+{}</text>)svg", badge_right - width / 2,
               badge_top + 9.5, hidden);
    }
    out_.add("</g>\n");
  }

  static double badge_width(std::size_t hidden) { return text_width(fmt::format("+{}", hidden), 9.5) + 8; }

  static constexpr double kBusOffsetLeftToRight = 14;

  const MakespanPlan& plan_;
  const TreeSubject& subject_;
  const TreeSvgOptions& options_;
  svg::SvgText out_;
  std::vector<TreePhase> phases_;
  std::vector<PanelLayout> panels_;
  std::vector<std::string> notes_;
  bool top_down_ = true;
  int time_exponent_ = 0;
  double time_scale_ = 1;
  double two_line_box_width_ = 0, one_line_box_width_ = 0, widest_edge_label_ = 0;
  double box_width_ = 0, box_height_ = 0, breadth_pitch_ = 0, layer_pitch_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace

std::string tree_svg(const MakespanPlan& plan, const Cluster& cluster, const TreeSvgOptions& options) {
  TreeSubject subject;
  subject.node_count = cluster.size();
  subject.id = [&cluster](ProcessorIndex p) { return cluster.id(p); };
  subject.detail = [&cluster](ProcessorIndex p) { return "t=" + format_number(cluster.transmission_time(p)); };
  subject.headline_population = fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s");
  subject.time_floor = cluster.size() > 0 ? cluster.slowest_time() : 0;
  subject.counted = cluster.size();
  subject.time_unit = cluster.time_unit();
  return TreeWriter(plan, subject, options).draw();
}

std::string tree_svg(const MakespanPlan& plan, const GraphNetwork& network, const TreeSvgOptions& options) {
  const GraphPlanLabels labels = graph_plan_labels(plan, network);
  TreeSubject subject;
  subject.node_count = network.node_count();
  subject.id = [&network](ProcessorIndex p) { return network.platform().id(p); };
  subject.detail = labels.node_detail;
  subject.headline_population = labels.population;
  subject.transfer_class = labels.transfer_class;
  subject.route_text = labels.route_text;
  subject.class_names = labels.class_names;
  subject.counted = static_cast<ProcessorIndex>(network.participants().size());
  subject.nodes_word = "participant";
  subject.detail_word = "its site";
  subject.time_unit = network.platform().time_unit();
  return TreeWriter(plan, subject, options).draw();
}

void write_tree_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const TreeSvgOptions& options) {
  hetcoll::write_text_file(path, tree_svg(plan, cluster, options));
}

}  // namespace hetcoll
