// Internals of the tree picture writer (tree_svg.h), not installed: what the
// picture knows about the plan's nodes (TreeSubject), the panel layout of one
// tree phase, and the writer shared by tree_svg.cpp (entry points, drawing
// order), tree_svg_layout.cpp (panel layout, direction, columns, bands, notes,
// size) and tree_svg_draw.cpp (document, header, panels, boxes, edges).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/plan/plan.h"
#include "hetcoll/viz/communication_tree.h"
#include "hetcoll/viz/graph_plan_labels.h"
#include "hetcoll/viz/plan_caption.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {
struct TreeSvgOptions;  // tree_svg.h
}  // namespace hetcoll

namespace hetcoll::tree_internal {


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

inline const PhaseColours& colours_of(const TreePhase& phase) {
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
PanelLayout lay_out(const TreePhase& phase, std::size_t max_nodes, std::size_t rows_per_column = 0);

class TreeWriter {
 public:
  TreeWriter(const MakespanPlan& plan, const TreeSubject& subject, const TreeSvgOptions& options)
      : plan_(plan), subject_(subject), options_(options), shorten_(participant_ids(plan, subject)) {}

  std::string draw();

 private:
  std::string box_id_text(ProcessorIndex p) const { return shorten_(subject_.id(p), kMaxIdInBox); }
  // The ids of the plan's nodes (every transfer's ends), for shorten_.
  static std::vector<std::string> participant_ids(const MakespanPlan& plan, const TreeSubject& subject) {
    std::vector<char> seen(static_cast<std::size_t>(subject.node_count), 0);
    std::vector<std::string> ids;
    for (const auto& t : plan.transfers) {
      for (auto p : {t.from, t.to}) {
        if (p < 0 || p >= subject.node_count || seen[static_cast<std::size_t>(p)]) continue;
        seen[static_cast<std::size_t>(p)] = 1;
        ids.push_back(subject.id(p));
      }
    }
    return ids;
  }
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

  void choose_time_scale();

  void name_panels();

  // One box size for the whole picture, from the widest label.
  void measure_boxes();

  void choose_direction();

  // A deep tree drawn in one band is a thin diagonal or a long chain that no
  // screen shows readably. Wrapping its layers into bands of L (the next
  // band beside the previous one) trades that for a picture of about screen
  // proportions: among L = 4 .. depth, the one needing the least shrinking
  // to fit kScreenWidth x kScreenHeight, kept only when it beats the single
  // band clearly (a wrapped tree is read band by band).
  static constexpr double kScreenWidth = 1600, kScreenHeight = 1100, kBandGap = 28;
  static constexpr int kMinLayersToWrap = 8;
  static constexpr double kContinuationStub = 18;
  void choose_wrapping(PanelLayout& panel) const;

  // A node with many children (a star, the root of a wide tree) drawn one
  // leaf per row is a column hundreds of rows tall. Drawn left to right, the
  // children of nodes with many are split into columns of about R rows:
  // among R = 4 .. the rows of one column, the one needing the least
  // shrinking to fit kScreenWidth x kScreenHeight, kept only when it beats
  // one column clearly. Each candidate is wrapped into bands as it best fits
  // (a deep chain may end in a star). Top-down trees are at most
  // max_top_down_width wide and keep one row of children per parent.
  void choose_columns_and_bands(PanelLayout& panel) const;

  double shrink_to_fit(const PanelLayout& panel) const;

  // Bands of `layers` layers (0: one band): each band's slot range, offset
  // and the panel's extents.
  void set_bands(PanelLayout& panel, int layers) const;

  void build_notes();

  double panel_breadth(const PanelLayout& panel) const { return panel.breadth; }
  double panel_depth(const PanelLayout& panel) const { return panel.depth; }

  void compute_size();

  std::string help_text() const;

  std::string help_by_operation() const;

  std::string headline() const;

  void open_document();

  void draw_header();

  // Centre of a node's box.
  struct Point {
    double x, y;
  };
  Point centre_of(const PanelLayout& panel, std::size_t node) const;
  // The continued copy, at the start of `band`, of a parent in the band before.
  Point continued_centre_of(const PanelLayout& panel, std::size_t parent, int band) const;
  Point place(const PanelLayout& panel, double slot, int band, int column) const;

  void draw_panel(const PanelLayout& panel);

  // A tinted frame around each run of leaves drawn in columns, so that its
  // later columns read as siblings of the first, not as a deeper level.
  void draw_column_run_frames(const PanelLayout& panel);

  // A faint line in the gap between two bands.
  void draw_band_separators(const PanelLayout& panel);

  // A dashed stub leaving the box of a node whose children are in the next band.
  void draw_continuation_stub(const Point& centre, const PhaseColours& colours);

  // The copy of a node at the start of a band: dashed, its id only.
  void draw_continued_box(const Point& centre, ProcessorIndex processor, const PhaseColours& colours);

  void draw_box(const PanelLayout& panel, std::size_t index, const PhaseColours& colours);

  static double badge_width(std::size_t hidden) { return text_width(fmt::format("+{}", hidden), 9.5) + 8; }

  static constexpr double kBusOffsetLeftToRight = 14;

  const MakespanPlan& plan_;
  const TreeSubject& subject_;
  const TreeSvgOptions& options_;
  svg::IdShortener shorten_;  // names drawn in the tree, distinguishing part kept
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

}  // namespace hetcoll::tree_internal
