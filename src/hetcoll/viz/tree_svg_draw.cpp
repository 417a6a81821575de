// The tree picture's drawing (tree_svg_internal.h): the SVG document, header,
// panels, boxes, edges and continuation marks.

#include "hetcoll/viz/tree_svg_internal.h"

#include "hetcoll/viz/tree_svg.h"

namespace hetcoll::tree_internal {

std::string TreeWriter::help_text() const {
  std::string text = help_by_operation();
  if (time_exponent_ != 0) text += " Times in units of " + svg::power_of_ten(time_exponent_) + ".";
  return text;
}

std::string TreeWriter::help_by_operation() const {
  // The detail is named only when some box shows one (a platform of one
  // site shows none).
  const std::string boxes = *subject_.detail_word
                                ? fmt::format("Boxes: {}, {}, ", subject_.nodes_word, subject_.detail_word)
                                : fmt::format("Boxes: {} ", subject_.nodes_word);
  switch (plan_.operation) {
    case Operation::reduce:
      return boxes + "and when it holds all its inputs. Edges: when its partial result goes to its parent (start–end).";
    case Operation::allreduce:
      return boxes + "and when it holds its partial result (phase 1) or the result (phase 2). Edges: when the "
                     "message is sent (start–end).";
    default: return boxes + "and when it has the message. Edges: when the message is sent (start–end).";
  }
}

std::string TreeWriter::headline() const {
  const bool has_root = plan_.root >= 0 && plan_.root < subject_.node_count;
  return svg::plan_headline(plan_, has_root ? subject_.id(plan_.root) : "?", subject_.headline_population);
}

void TreeWriter::open_document() {
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

void TreeWriter::draw_header() {
  out_.add("<text class=\"title\" x=\"12\" y=\"26\">{}</text>\n", xml_escape(headline()));
  out_.add("<text class=\"evidence\" x=\"12\" y=\"46\">{}</text>\n", xml_escape(svg::plan_evidence(plan_, subject_.time_unit)));
  out_.add("<text class=\"help\" x=\"12\" y=\"64\">{}</text>\n", xml_escape(help_text()));
  for (std::size_t i = 0; i < notes_.size(); ++i) {
    out_.add("<text class=\"note\" x=\"12\" y=\"{}\">{}</text>\n", 80 + 16.0 * static_cast<double>(i), xml_escape(notes_[i]));
  }
}

TreeWriter::Point TreeWriter::centre_of(const PanelLayout& panel, std::size_t node) const {
  const int layer = panel.phase->nodes[node].depth;
  return place(panel, panel.slot[node], panel.band_of(layer), panel.column_of(layer) + panel.depth_offset[node]);
}

TreeWriter::Point TreeWriter::continued_centre_of(const PanelLayout& panel, std::size_t parent, int band) const {
  return place(panel, panel.slot[parent], band, 0);
}

TreeWriter::Point TreeWriter::place(const PanelLayout& panel, double slot, int band, int column) const {
  const auto b = static_cast<std::size_t>(band);
  const double breadth = panel.band_offset[b] + (slot - panel.band_first_slot[b]) * breadth_pitch_ + breadth_pitch_ / 2;
  const double depth = column * layer_pitch_;
  if (top_down_) return {panel.left + breadth, panel.top + depth + box_height_ / 2};
  return {panel.left + depth + box_width_ / 2, panel.top + breadth};
}

void TreeWriter::draw_panel(const PanelLayout& panel) {
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

void TreeWriter::draw_column_run_frames(const PanelLayout& panel) {
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

void TreeWriter::draw_band_separators(const PanelLayout& panel) {
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

void TreeWriter::draw_continuation_stub(const Point& centre, const PhaseColours& colours) {
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

void TreeWriter::draw_continued_box(const Point& centre, ProcessorIndex processor, const PhaseColours& colours) {
  const double left = centre.x - box_width_ / 2, top = centre.y - box_height_ / 2;
  out_.add(R"svg(<g class="continued"><title>{0} (continued from the band before)</title><rect x="{1}" y="{2}" width="{3}" height="{4}" rx="5" fill="#FFFFFF" stroke="{5}" stroke-width="1.2" stroke-dasharray="4 3"/>)svg",
           xml_escape(subject_.id(processor)), left, top, box_width_, box_height_, colours.line);
  out_.add(R"svg(<text class="continued-id" x="{}" y="{}" text-anchor="{}">{}</text></g>)svg" "\n",
           top_down_ ? centre.x : left + 8, centre.y + 4.5, top_down_ ? "middle" : "start", xml_escape(box_id_text(processor)));
}

void TreeWriter::draw_box(const PanelLayout& panel, std::size_t index, const PhaseColours& colours) {
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

}  // namespace hetcoll::tree_internal
