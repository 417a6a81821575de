// The Gantt chart's bars (gantt_svg_internal.h): sends, receives, eager
// occupancy and flight, forwarding bars, arrows and bar labels.

#include "hetcoll/viz/gantt_svg_internal.h"

#include "hetcoll/viz/gantt_svg.h"

namespace hetcoll::gantt_internal {

std::pair<double, double> GanttWriter::bar_span(const Transfer& transfer) const {
  const double full_width = x_of(transfer.end) - x_of(transfer.start);
  const double inset = full_width > 6 ? 1.0 : 0.0;
  const double left = x_of(transfer.start) + inset;
  return {left, left + std::max(full_width - 2 * inset, 0.8)};
}

void GanttWriter::draw_arrows() {
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

std::optional<double> GanttWriter::free_position(double low, double high, double preferred,
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

void GanttWriter::draw_bars() {
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

void GanttWriter::draw_eager_bars(const Transfer& transfer, const PayloadStyle& style, double left, double bar_width,
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

bool GanttWriter::eager_label_fits(int row, double left, double bar_width) {
  if (eager_row_end_.size() <= static_cast<std::size_t>(row)) eager_row_end_.resize(static_cast<std::size_t>(row) + 1, -1e300);
  double& end = eager_row_end_[static_cast<std::size_t>(row)];
  const bool fits = left >= end - 0.5;
  end = std::max(end, left + bar_width);
  return fits;
}

void GanttWriter::draw_bar_label(double left, double bar_width, int row, const char* arrow, ProcessorIndex other, const char* colour,
                                 ProcessorIndex from) {
  if (bar_font_ < 7) return;
  std::string label;
  for (std::size_t length : {kMaxIdInBar, std::size_t{12}, std::size_t{8}, std::size_t{5}}) {
    std::string id = shorten_(subject_.id(other), length);
    if (from != kNoProcessor) id = shorten_(subject_.id(from), length) + "→" + id;
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

}  // namespace hetcoll::gantt_internal
