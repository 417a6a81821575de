// The Gantt chart's frame (gantt_svg_internal.h): the SVG document, header,
// row labels, time axis, makespan and lower-bound markers, summary rows.

#include "hetcoll/viz/gantt_svg_internal.h"

#include "hetcoll/viz/gantt_svg.h"

namespace hetcoll::gantt_internal {

int GanttWriter::marker_label_lines() const {
  if (!has_lower_bound()) return 1;
  const double makespan_label_left = x_of_clamped(plan_.makespan) - 4 - text_width(makespan_label(), 11.5);
  const double lower_bound_right = x_of_clamped(plan_.lower_bound) - 4;
  return lower_bound_right + 10 < makespan_label_left ? 1 : 2;
}

void GanttWriter::open_document() {
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

void GanttWriter::draw_header() {
  for (std::size_t i = 0; i < title_lines_.size(); ++i) {
    emit("<text class=\"title\" x=\"12\" y=\"{}\">{}</text>\n", 26 + 20.0 * static_cast<double>(i),
         xml_escape(title_lines_[i]));
  }
  for (std::size_t i = 0; i < evidence_lines_.size(); ++i) {
    emit("<text class=\"evidence\" x=\"12\" y=\"{}\">{}</text>\n", evidence_baseline_ + 16.0 * static_cast<double>(i),
         xml_escape(evidence_lines_[i]));
  }
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
      emit(R"svg(<rect x="{}" y="{}" width="22" height="12" fill="{}" fill-opacity="0.55" stroke="{}" stroke-width="1"/>)svg", x,
           y + 2, style.colour, style.arrow);
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

void GanttWriter::draw_rows() {
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

void GanttWriter::draw_time_axis() {
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

void GanttWriter::draw_markers() {
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

void GanttWriter::draw_summary() {
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
  // Per row, when each of its participants is done: holds the message
  // (broadcast, multicast, all-reduce's result) or has sent its part
  // (reduce). Drawn as a progress line over the shares.
  std::vector<std::vector<double>> done(rows_.size());
  {
    const bool reduce = plan_.operation == Operation::reduce;
    std::vector<double> done_at(static_cast<std::size_t>(subject_.node_count), -1);
    for (const auto& transfer : plan_.transfers) {
      if (!valid(transfer.from) || !valid(transfer.to)) continue;
      if (!reduce && transfer.payload == Payload::partial_reduction) continue;
      const auto p = static_cast<std::size_t>(reduce ? transfer.from : transfer.to);
      done_at[p] = done_at[p] < 0 ? transfer.end : std::min(done_at[p], transfer.end);
    }
    for (std::size_t p = 0; p < done_at.size(); ++p) {
      const int row = group_of_[p];
      if (row < 0 || done_at[p] < 0 || static_cast<ProcessorIndex>(p) == plan_.root) continue;
      done[static_cast<std::size_t>(row)].push_back(done_at[p]);
    }
    for (auto& times : done) std::sort(times.begin(), times.end());
  }
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    const double top = row_top(static_cast<int>(row)) + 2;
    const double half = (row_height_ - 4) / 2;
    if (!done[row].empty() && rows_[row].processors > 1) {
      const double count = static_cast<double>(rows_[row].processors);
      std::string path = fmt::format("M{:.1f},{:.1f}", plot_left_, top + 2 * half);
      for (std::size_t k = 0; k < done[row].size(); ++k) {
        if (k + 1 < done[row].size() && done[row][k + 1] == done[row][k]) continue;
        const double x = x_of_clamped(done[row][k]);
        const double y = top + 2 * half * (1 - static_cast<double>(k + 1) / count);
        path += fmt::format(" H{:.1f} V{:.1f}", x, y);
      }
      path += fmt::format(" H{:.1f}", plot_right_);
      emit(R"svg(<path d="{}" fill="none" stroke="#222222" stroke-width="1.3" stroke-opacity="0.85"><title>{}</title></path>)svg"
           "\n",
           path,
           xml_escape(fmt::format("{} of {} done by {}", done[row].size(), rows_[row].processors,
                                  format_number(done[row].back()))));
    }
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

}  // namespace hetcoll::gantt_internal
