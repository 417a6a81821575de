// The Gantt chart's layout (gantt_svg_internal.h): which rows and messages are
// drawn, summary groups, sizes, time ticks, notes and legend.

#include "hetcoll/viz/gantt_svg_internal.h"

#include "hetcoll/viz/gantt_svg.h"

namespace hetcoll::gantt_internal {

void GanttWriter::select_groups() {
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

void GanttWriter::select_groups_by_name() {
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

void GanttWriter::scan_transfers() {
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

void GanttWriter::select_rows_and_transfers() {
  shown_rows_ = static_cast<int>(std::min<std::size_t>(subject_.rows.size(), static_cast<std::size_t>(std::max(options_.max_rows, 1))));
  for (int row = 0; row < shown_rows_; ++row) {
    const ProcessorIndex p = subject_.rows[static_cast<std::size_t>(row)];
    rows_.push_back({row_id_label(p), row_time_label(p), p == plan_.root, 1});
  }
  for (const auto& transfer : plan_.transfers) {
    if (!valid(transfer.from) || !valid(transfer.to)) continue;
    if (crosses_shown_row(&transfer)) {
      if (!forward_seen_) forward_style_ = &style(&transfer);
      forward_seen_ = true;
    }
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

void GanttWriter::compute_layout() {
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

  // Title, evidence and notes wrapped to the picture's width.
  const double text_room = width_ - 24.0;
  const std::string headline = options_.title.empty()
                                   ? svg::plan_headline(plan_, valid(plan_.root) ? subject_.id(plan_.root) : "?",
                                                        subject_.headline_population)
                                   : options_.title;
  title_lines_ = svg::wrap_to_width(headline, text_room / 1.08, 16);  // bold: about 8% wider
  evidence_lines_ = svg::wrap_to_width(svg::plan_evidence(plan_, subject_.time_unit), text_room, 12.5);
  std::vector<std::string> wrapped_notes;
  for (const auto& note : notes_) {
    for (auto& line : svg::wrap_to_width(note, text_room, 12)) wrapped_notes.push_back(std::move(line));
  }
  notes_ = std::move(wrapped_notes);
  double y = 26 + 20.0 * static_cast<double>(title_lines_.size() - 1);  // last title baseline
  y += 20;                                                                // evidence line baseline
  evidence_baseline_ = y;
  y += 16.0 * static_cast<double>(evidence_lines_.size() - 1);
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

void GanttWriter::choose_ticks() {
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

std::string GanttWriter::row_id_label(ProcessorIndex p) const {
  std::string label = shorten_(subject_.id(p), kMaxIdInRowLabel);
  if (p == plan_.root) {
    // An exchange all-reduce has no root: every rank ends with the result,
    // and the plan's root is the rank the exchanges are numbered from.
    label += is_exchange_allreduce(plan_) ? std::string(" (rank 0)") : fmt::format(" ({})", svg::root_role(plan_.operation));
  } else if (plan_.operation == Operation::multicast && !svg::is_multicast_helper(plan_, p)) {
    label += " (target)";
  }
  return label;
}

std::string GanttWriter::done_words() const {
  switch (plan_.operation) {
    case Operation::reduce: return "send their part";
    case Operation::allreduce: return "receive the result";
    default: return "receive the message";
  }
}

void GanttWriter::build_notes() {
  const auto n = subject_.rows.size();
  if (summary_ && subject_.group_time) {
    notes_.push_back(fmt::format(
        "{} processors: one row per class of equal transmission time; above its middle line the share of the "
        "class sending (solid), below it the share receiving (hatched); half a row = all of them. The black line "
        "rises from the bottom to the top of the row as the class's processors {}.",
        n, done_words()));
  } else if (summary_) {
    ProcessorIndex participants = 0;
    for (const auto& row : rows_) participants += row.processors;
    notes_.push_back(fmt::format(
        "{} participants: one row per site; above its middle line the share of the site's participants sending "
        "(solid), below it the share receiving (hatched); half a row = all of them. The black line rises from the "
        "bottom to the top of the row as the site's participants {}.",
        participants, done_words()));
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
  if (subject_.unlimited_nodes_crossed > 0 && !summary_) {
    notes_.push_back(fmt::format("The {} routers and links of unlimited ports (SimGrid routers, FATPIPE links) the "
                                 "routes cross have no row: they never make a message wait.",
                                 subject_.unlimited_nodes_crossed));
  }
  if (summary_ && subject_.network_nodes_crossed > 0) {
    notes_.push_back(fmt::format("The {} one-port links and routers the messages cross have no row in this summary.",
                                 subject_.network_nodes_crossed));
  } else if (subject_.network_nodes_left_out > 0) {
    const std::size_t most = subject_.most_crossings_left_out;
    notes_.push_back(fmt::format(
        "{} more one-port links and routers on the routes have no row: the {} busiest are drawn, the others carry {} "
        "message{} or fewer (every route is in the bars' tooltips).",
        subject_.network_nodes_left_out, subject_.network_nodes_crossed - subject_.network_nodes_left_out, most,
        most == 1 ? "" : "s"));
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

void GanttWriter::build_legend() {
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
  }
  for (Payload payload : {Payload::partial_reduction, Payload::broadcast_value}) {
    if (legend_by_class || !payload_seen_[payload == Payload::partial_reduction ? 1 : 0]) continue;
    const std::string words = payload_words(plan_, payload);
    legend_.push_back({"send (" + words + ")", &style_of(payload), LegendItem::send});
    legend_.push_back({"receive (" + words + ")", &style_of(payload), LegendItem::receive});
  }
  // Forwarding bars are pale bars in their message's colour (draw_bars).
  if (forward_seen_ && !summary_ && forward_style_) {
    legend_.push_back({legend_by_class && std::count(std::begin(class_seen_), std::end(class_seen_), true) > 1
                           ? "crossing a one-port link or router (pale, in the message's colour)"
                           : "crossing a one-port link or router",
                       forward_style_, LegendItem::forward});
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

}  // namespace hetcoll::gantt_internal
