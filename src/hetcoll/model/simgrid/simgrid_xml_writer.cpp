#include "hetcoll/model/simgrid/simgrid_xml_writer.h"

#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

std::string escape_xml(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

// "--" may not appear inside an XML comment.
std::string comment_text(std::string_view text) {
  std::string safe(text);
  for (size_t at = safe.find("--"); at != std::string::npos; at = safe.find("--", at)) safe.replace(at, 2, "- ");
  return safe;
}

constexpr double kUnlimitedBandwidth = 1e15;  // bytes/s, for edges given by a fixed cost

}  // namespace

void write_simgrid_xml(std::ostream& out, const Platform& platform, std::string_view comment,
                       std::string_view source_name) {
  for (const auto& node : platform.nodes()) {
    if (node.kind != NodeKind::host) {
      throw InputError(fmt::format("{}: node {}: only hosts can be written as a SimGrid platform (this one is a {})",
                                   source_name, node.id, to_string(node.kind)));
    }
  }
  out << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<platform version=\"4.1\">\n";
  if (!comment.empty()) out << "  <!-- " << comment_text(comment) << " -->\n";
  out << "  <zone id=\"" << escape_xml(source_name.empty() ? "platform" : std::string(source_name))
      << "\" routing=\"Full\">\n";
  for (const auto& node : platform.nodes()) {
    out << "    <host id=\"" << escape_xml(node.id) << "\" speed=\""
        << (node.speed ? fmt::format("{:.17g}f", *node.speed) : std::string("1Gf")) << "\"/>\n";
  }
  for (const auto& edge : platform.edges()) {
    double latency = 0, bandwidth = kUnlimitedBandwidth;
    if (edge.latency && edge.bandwidth) {
      latency = *edge.latency;
      bandwidth = *edge.bandwidth;
    } else if (edge.cost) {
      latency = *edge.cost;
    } else {
      throw InputError(fmt::format("{}: edge {} -> {}: needs latency and bandwidth, or a cost", source_name,
                                   platform.id(edge.from), platform.id(edge.to)));
    }
    std::string name = escape_xml(platform.id(edge.from) + "-" + platform.id(edge.to));
    out << fmt::format("    <link id=\"{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\"/>\n", name, bandwidth, latency);
  }
  for (const auto& edge : platform.edges()) {
    std::string name = escape_xml(platform.id(edge.from) + "-" + platform.id(edge.to));
    out << "    <route src=\"" << escape_xml(platform.id(edge.from)) << "\" dst=\"" << escape_xml(platform.id(edge.to))
        << "\" symmetrical=\"NO\"><link_ctn id=\"" << name << "\"/></route>\n";
  }
  out << "  </zone>\n</platform>\n";
}

}  // namespace hetcoll
