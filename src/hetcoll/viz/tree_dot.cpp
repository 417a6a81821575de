// Writes the communication tree of a plan as Graphviz DOT.
#include "hetcoll/viz/tree_dot.h"

#include <algorithm>
#include <iterator>

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

// What the drawing says about nodes and messages (a cluster or a graph).
struct DotSubject {
  ProcessorIndex node_count = 0;
  ProcessorIndex counted = 0;  // the nodes a complete plan reaches (not routers)
  std::function<std::string(ProcessorIndex)> id;
  std::function<std::string(ProcessorIndex)> detail;  // "t=1", "site 2", ""
  std::string population;
  std::string time_unit;  // the platform's, possibly empty
  const char* nodes_word = "processor";
  std::vector<int> transfer_class;      // graphs: per transfer
  std::vector<std::string> route_text;  // graphs: per transfer
  std::vector<std::string> link_label;  // graphs: per transfer, the links crossed ('\n' between lines)
  std::vector<std::string> class_names;
};

constexpr const char* kClassColours[] = {"#0072B2", "#009E73", "#D55E00", "#CC79A7"};

std::string phase_title(const MakespanPlan& plan, const DotSubject& subject, const TreePhase& phase,
                        std::size_t phase_count) {
  const std::string root = subject.id(phase.nodes.front().processor);
  std::string title;
  if (phase_count > 1) title = phase.points_to_root() ? "Phase 1: reduce to " : "Phase 2: broadcast from ";
  else title = phase.points_to_root() ? "Reduce to " : (plan.operation == Operation::multicast ? "Multicast from " : "Broadcast from ");
  return title + svg::shorten_id(root, 32);
}

void write_phase(svg::SvgText& out, const MakespanPlan& plan, const DotSubject& subject, const TreePhase& phase,
                 const TreeDotOptions& options, const std::string& indent) {
  const PhaseStyle style = style_of(phase);
  const std::size_t shown = std::min(phase.nodes.size(), std::max<std::size_t>(options.max_nodes, 1));

  out.add("{}node [color=\"{}\", fillcolor=\"#FFFFFF\"];\n", indent, style.line);
  out.add("{}edge [color=\"{}\", fontcolor=\"#333333\"{}];\n", indent, style.line, phase.points_to_root() ? ", dir=back" : "");
  const char* role = svg::root_role(plan.operation);
  for (std::size_t i = 0; i < shown; ++i) {
    const TreeNode& node = phase.nodes[i];
    const std::string id = dot_escape(subject.id(node.processor));
    const std::string detail = subject.detail(node.processor);
    const std::string time = detail.empty() ? std::string() : "  " + dot_escape(detail);
    if (i == 0) {
      out.add("{}{}{} [label=\"{}{}\\n{}, ready {}\", penwidth=2.5, fillcolor=\"{}\"];\n", indent, style.prefix,
              node.processor, id, time, role, format_number(node.ready_time), style.fill);
    } else {
      out.add("{}{}{} [label=\"{}{}\\n{}ready {}\"];\n", indent, style.prefix, node.processor, id, time,
              svg::is_multicast_helper(plan, node.processor) ? "helper, " : "", format_number(node.ready_time));
    }
  }
  // Edges are written parent -> child so that the root is on top; reduce
  // edges get dir=back (set above) to point towards the root.
  for (std::size_t i = 1; i < shown; ++i) {
    const TreeNode& node = phase.nodes[i];
    std::string extra;
    if (node.transfer < subject.transfer_class.size() && subject.class_names.size() > 1) {  // colour by link class
      const int link_class = std::clamp(subject.transfer_class[node.transfer], 0, 3);
      extra = fmt::format(", color=\"{}\", penwidth={}, tooltip=\"{}\"", kClassColours[link_class],
                          link_class > 0 ? 2.5 : 1.2, dot_escape(subject.route_text[node.transfer]));
    }
    // On a platform graph the label also names the links the message
    // crosses (the tree itself shows hosts only).
    std::string links;
    if (node.transfer < subject.link_label.size() && !subject.link_label[node.transfer].empty()) {
      std::string_view rest = subject.link_label[node.transfer];
      while (!rest.empty()) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        links += "\\n" + dot_escape(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
      }
    }
    out.add("{}{}{} -> {}{} [label=\" {}–{}{}{}\"{}];\n", indent, style.prefix, phase.nodes[node.parent].processor,
            style.prefix, node.processor, format_number(node.link_start), format_number(node.link_end),
            subject.time_unit.empty() ? "" : " " + dot_escape(subject.time_unit), links, extra);
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

std::string draw(const MakespanPlan& plan, const DotSubject& subject, const TreeDotOptions& options) {
  svg::require_tree(plan);
  const std::vector<TreePhase> phases = communication_tree(plan, subject.node_count);
  const bool has_root = plan.root >= 0 && plan.root < subject.node_count;
  std::vector<std::string> label_lines = {svg::plan_headline(plan, has_root ? subject.id(plan.root) : "?", subject.population),
                                          svg::plan_evidence(plan, subject.time_unit)};
  const std::size_t node_limit = std::max<std::size_t>(options.max_nodes, 1);
  std::size_t processors_left_out = 0;
  std::size_t detached = 0;
  for (const auto& phase : phases) {
    processors_left_out = std::max(processors_left_out, phase.nodes.size() - std::min(phase.nodes.size(), node_limit));
    detached += phase.detached.size();
  }
  if (processors_left_out > 0) {
    label_lines.push_back(fmt::format("showing the first {} {}s of each tree (breadth-first); {} left out",
                         node_limit, subject.nodes_word, processors_left_out));
  }
  if (!phases.empty() && plan.operation == Operation::multicast) {
    const auto absent = static_cast<std::size_t>(subject.counted) - phases.front().nodes.size();
    if (absent > 0) {
      label_lines.push_back(fmt::format("{} {}{} no part", absent, subject.nodes_word, absent == 1 ? " takes" : "s take"));
    }
  }
  if (subject.class_names.size() > 1) {
    const char* colour_names[] = {"blue", "green", "vermilion", "purple"};
    std::string key;
    for (std::size_t c = 0; c < subject.class_names.size() && c < 4; ++c) {
      if (subject.class_names[c].empty()) continue;
      key += fmt::format("{}{} {}", key.empty() ? "" : ", ", colour_names[c], subject.class_names[c]);
    }
    label_lines.push_back("edges by the slowest link of their route: " + key);
  }
  if (detached > 0) {
    label_lines.push_back(fmt::format("{} {}(s) not connected to the root (invalid plan)", detached, subject.nodes_word));
  }
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
          dot_escape(phase_title(plan, subject, phase, phases.size())));
      write_phase(out, plan, subject, phase, options, "    ");
      out.add("  }}\n");
    } else {
      write_phase(out, plan, subject, phase, options, "  ");
    }
  }
  out.add("}}\n");
  return out.take();
}

}  // namespace

std::string tree_dot(const MakespanPlan& plan, const Cluster& cluster, const TreeDotOptions& options) {
  DotSubject subject;
  subject.node_count = subject.counted = cluster.size();
  subject.id = [&cluster](ProcessorIndex p) { return std::string(cluster.id(p)); };
  subject.detail = [&cluster](ProcessorIndex p) { return "t=" + format_number(cluster.transmission_time(p)); };
  subject.population = fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s");
  subject.time_unit = cluster.time_unit();
  return draw(plan, subject, options);
}

std::string tree_dot(const MakespanPlan& plan, const GraphNetwork& network, const TreeDotOptions& options) {
  GraphPlanLabels labels = graph_plan_labels(plan, network);
  DotSubject subject;
  subject.node_count = network.node_count();
  subject.counted = static_cast<ProcessorIndex>(network.participants().size());
  subject.id = [&network](ProcessorIndex p) { return network.platform().id(p); };
  subject.detail = labels.node_detail;
  subject.population = labels.population;
  subject.time_unit = network.platform().time_unit();
  subject.nodes_word = "participant";
  subject.transfer_class = std::move(labels.transfer_class);
  subject.route_text = std::move(labels.route_text);
  subject.link_label = std::move(labels.link_label);
  subject.class_names = std::move(labels.class_names);
  return draw(plan, subject, options);
}

void write_tree_dot(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const TreeDotOptions& options) {
  hetcoll::write_text_file(path, tree_dot(plan, cluster, options));
}

}  // namespace hetcoll
