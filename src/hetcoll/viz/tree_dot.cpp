// Writes the communication tree of a plan as Graphviz DOT.
#include "hetcoll/viz/tree_dot.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "hetcoll/core/files.h"
#include "hetcoll/viz/communication_tree.h"
#include "hetcoll/viz/plan_caption.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll {

namespace {

using svg::format_number;

// Inside a DOT double-quoted string: backslashes and quotes are escaped
// (a lone backslash would start a Graphviz escape such as \N), line breaks
// become spaces.
std::string dot_escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    if (c == '\\' || c == '"') {
      escaped += '\\';
      escaped += c;
    } else if (c == '\n' || c == '\r') {
      escaped += ' ';
    } else {
      escaped += c;
    }
  }
  return escaped;
}

struct PhaseStyle {
  const char* prefix;  // node-name prefix, unique per phase
  const char* line;
  const char* fill;
};

PhaseStyle style_of(const TreePhase& phase) {
  return phase.points_to_root() ? PhaseStyle{"r", "#B07800", "#FBECCB"} : PhaseStyle{"b", "#0072B2", "#DCEBF6"};
}

std::string phase_title(const MakespanPlan& plan, const Cluster& cluster, const TreePhase& phase, std::size_t phase_count) {
  const std::string root = cluster.id(phase.nodes.front().processor);
  std::string title;
  if (phase_count > 1) title = phase.points_to_root() ? "Phase 1: reduce to " : "Phase 2: broadcast from ";
  else title = phase.points_to_root() ? "Reduce to " : (plan.operation == Operation::multicast ? "Multicast from " : "Broadcast from ");
  return title + svg::shorten_id(root, 32);
}

void write_phase(svg::SvgText& out, const MakespanPlan& plan, const Cluster& cluster, const TreePhase& phase,
                 const TreeDotOptions& options, const std::string& indent) {
  const PhaseStyle style = style_of(phase);
  const std::size_t shown = std::min(phase.nodes.size(), std::max<std::size_t>(options.max_nodes, 1));

  out.add("{}node [color=\"{}\", fillcolor=\"#FFFFFF\"];\n", indent, style.line);
  out.add("{}edge [color=\"{}\", fontcolor=\"#333333\"{}];\n", indent, style.line, phase.points_to_root() ? ", dir=back" : "");
  const char* role = svg::root_role(plan.operation);
  for (std::size_t i = 0; i < shown; ++i) {
    const TreeNode& node = phase.nodes[i];
    const std::string id = dot_escape(cluster.id(node.processor));
    const std::string time = format_number(cluster.transmission_time(node.processor));
    if (i == 0) {
      out.add("{}{}{} [label=\"{}  t={}\\n{}, ready {}\", penwidth=2.5, fillcolor=\"{}\"];\n", indent, style.prefix,
              node.processor, id, time, role, format_number(node.ready_time), style.fill);
    } else {
      out.add("{}{}{} [label=\"{}  t={}\\n{}ready {}\"];\n", indent, style.prefix, node.processor, id, time,
              svg::is_multicast_helper(plan, node.processor) ? "helper, " : "", format_number(node.ready_time));
    }
  }
  // Edges are written parent -> child so that the root is on top; reduce
  // edges get dir=back (set above) to point towards the root.
  for (std::size_t i = 1; i < shown; ++i) {
    const TreeNode& node = phase.nodes[i];
    out.add("{}{}{} -> {}{} [label=\" {}–{}\"];\n", indent, style.prefix, phase.nodes[node.parent].processor, style.prefix,
        node.processor, format_number(node.link_start), format_number(node.link_end));
  }
  // One "+k more" node under each drawn node whose children were cut.
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& children = phase.nodes[i].children;
    const auto hidden = static_cast<std::size_t>(
        std::count_if(children.begin(), children.end(), [&](std::size_t child) { return child >= shown; }));
    if (hidden == 0) continue;
    out.add("{0}{1}more{2} [label=\"+{3} more\", shape=plaintext, style=\"\"];\n{0}{1}{2} -> {1}more{2} [style=dashed, label=\"\"];\n",
        indent, style.prefix, phase.nodes[i].processor, hidden);
  }
}

}  // namespace

std::string tree_dot(const MakespanPlan& plan, const Cluster& cluster, const TreeDotOptions& options) {
  const std::vector<TreePhase> phases = communication_tree(plan, cluster);
  std::vector<std::string> label_lines = {svg::plan_headline(plan, cluster), svg::plan_evidence(plan, cluster.time_unit())};
  const std::size_t node_limit = std::max<std::size_t>(options.max_nodes, 1);
  std::size_t processors_left_out = 0;
  std::size_t detached = 0;
  for (const auto& phase : phases) {
    processors_left_out = std::max(processors_left_out, phase.nodes.size() - std::min(phase.nodes.size(), node_limit));
    detached += phase.detached.size();
  }
  if (processors_left_out > 0) {
    label_lines.push_back(fmt::format("showing the first {} processors of each tree (breadth-first); {} left out",
                         node_limit, processors_left_out));
  }
  if (!phases.empty() && plan.operation == Operation::multicast) {
    const auto absent = static_cast<std::size_t>(cluster.size()) - phases.front().nodes.size();
    if (absent > 0) label_lines.push_back(fmt::format("{} processor{} no part", absent, absent == 1 ? " takes" : "s take"));
  }
  if (detached > 0) label_lines.push_back(fmt::format("{} processor(s) not connected to the root (invalid plan)", detached));
  std::string label;
  for (const auto& line : label_lines) label += dot_escape(line) + "\\l";  // \l: left-justified lines

  svg::SvgText out;
  out.add("// Communication tree of a hetcoll plan. Render: dot -Tsvg tree.dot -o tree.svg\n");
  out.add("digraph hetcoll_tree {{\n");
  out.add("  graph [label=\"{}\", labelloc=t, labeljust=l, fontname=\"Helvetica\", fontsize=13, rankdir=TB, ordering=out, "
      "nodesep=0.25, ranksep=0.45];\n",
      label);
  out.add("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n");
  out.add("  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];\n");
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const TreePhase& phase = phases[i];
    if (phases.size() > 1) {
      out.add("  subgraph cluster_{} {{\n", phase.points_to_root() ? "reduce" : "broadcast");
      out.add("    label=\"{}\"; style=rounded; color=\"#999999\"; fontsize=12;\n",
          dot_escape(phase_title(plan, cluster, phase, phases.size())));
      write_phase(out, plan, cluster, phase, options, "    ");
      out.add("  }}\n");
    } else {
      write_phase(out, plan, cluster, phase, options, "  ");
    }
  }
  out.add("}}\n");
  return out.take();
}

void write_tree_dot(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const TreeDotOptions& options) {
  hetcoll::write_text_file(path, tree_dot(plan, cluster, options));
}

}  // namespace hetcoll
