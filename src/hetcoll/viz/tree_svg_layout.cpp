// The tree picture's layout (tree_svg_internal.h): each phase's panel (layers,
// columns of children), the direction, wrapping, bands, notes and size.

#include "hetcoll/viz/tree_svg_internal.h"

#include "hetcoll/viz/tree_svg.h"

namespace hetcoll::tree_internal {

PanelLayout lay_out(const TreePhase& phase, std::size_t max_nodes, std::size_t rows_per_column) {
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

void TreeWriter::choose_time_scale() {
  double latest = subject_.time_floor;
  for (const auto& phase : phases_) latest = std::max(latest, phase.end_time);
  time_exponent_ = svg::axis_scale_exponent({latest});
  time_scale_ = std::pow(10.0, time_exponent_);
}

void TreeWriter::name_panels() {
  for (auto& panel : panels_) {
    const std::string root = shorten_(subject_.id(panel.phase->nodes.front().processor), 32);
    if (panels_.size() > 1) {
      panel.title = panel.phase->points_to_root() ? "Phase 1 — reduce to " + root + " (arrows point to the root)"
                                                  : "Phase 2 — broadcast of the result from " + root;
    }
  }
}

void TreeWriter::measure_boxes() {
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

void TreeWriter::choose_direction() {
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

void TreeWriter::choose_wrapping(PanelLayout& panel) const {
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

void TreeWriter::choose_columns_and_bands(PanelLayout& panel) const {
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

double TreeWriter::shrink_to_fit(const PanelLayout& panel) const {
  const double x = top_down_ ? panel.breadth : panel.depth, y = top_down_ ? panel.depth : panel.breadth;
  return std::max(x / kScreenWidth, y / kScreenHeight);
}

void TreeWriter::set_bands(PanelLayout& panel, int layers) const {
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

void TreeWriter::build_notes() {
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

void TreeWriter::compute_size() {
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

}  // namespace hetcoll::tree_internal
