#include "hetcoll/model/element_names.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"

namespace hetcoll {

std::string format_bandwidth(double bytes_per_second) {
  constexpr const char* kPrefixes[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  std::size_t k = 0;
  while (k + 1 < std::size(kPrefixes) && bytes_per_second >= 1000) {
    bytes_per_second /= 1000;
    ++k;
  }
  return fmt::format("{:.3g} {}", bytes_per_second, kPrefixes[k]);
}

std::string format_latency(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 1e-6) return fmt::format("{:.3g} ns", seconds * 1e9);
  if (seconds < 1e-3) return fmt::format("{:.3g} µs", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} s", seconds);
}

std::string network_elements_text(const Platform& platform) {
  std::size_t routers = 0, links = 0, hosts = 0;
  for (const auto& node : platform.nodes()) {
    if (!node.router) continue;
    if (node.kind == NodeKind::link) {
      ++links;
    } else if (node.kind == NodeKind::router) {
      ++routers;
    } else {
      ++hosts;
    }
  }
  std::vector<std::string> parts;
  if (routers) parts.push_back(fmt::format("{} router{}", routers, routers == 1 ? "" : "s"));
  if (links) parts.push_back(fmt::format("{} link{}", links, links == 1 ? "" : "s"));
  if (hosts) parts.push_back(fmt::format("{} host{} left out", hosts, hosts == 1 ? "" : "s"));
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text;
}

std::string element_kind_name(const Platform& platform, ProcessorIndex v) {
  const PlatformNode& node = platform.node(v);
  if (node.kind == NodeKind::host) return node.router ? "host (not a participant)" : "host";
  return std::string(to_string(node.kind));
}

std::string element_label(const Platform& platform, ProcessorIndex v) {
  const PlatformNode& node = platform.node(v);
  return node.kind == NodeKind::host ? node.id : fmt::format("{} {}", to_string(node.kind), node.id);
}

std::string link_figures(const Platform& platform, ProcessorIndex link) {
  for (auto e : platform.in_edges(link)) {
    const PlatformEdge& edge = platform.edges()[e];
    if (edge.bandwidth) {
      return fmt::format("{}, {}", format_bandwidth(*edge.bandwidth), format_latency(edge.latency.value_or(0)));
    }
  }
  for (auto e : platform.in_edges(link)) {
    const PlatformEdge& edge = platform.edges()[e];
    if (edge.cost && *edge.cost > 0) {
      return platform.time_unit().empty() ? fmt::format("cost {:.4g}", *edge.cost)
                                          : fmt::format("cost {:.4g} {}", *edge.cost, platform.time_unit());
    }
  }
  return "";
}

std::string describe_element(const Platform& platform, ProcessorIndex v) {
  const PlatformNode& node = platform.node(v);
  switch (node.kind) {
    case NodeKind::host:
      return node.router ? fmt::format("host {} (not a participant)", node.id) : node.id;
    case NodeKind::router:
      return "router " + node.id;
    case NodeKind::link: {
      const std::string figures = link_figures(platform, v);
      return figures.empty() ? "link " + node.id : fmt::format("link {} ({})", node.id, figures);
    }
  }
  return node.id;
}

ProcessorIndex resolve_host(const Platform& platform, std::string_view name, std::string_view what) {
  std::size_t hosts = 0;
  bool hosts_first = true;
  for (const auto& node : platform.nodes()) {
    if (node.kind == NodeKind::host) {
      hosts_first = hosts_first && &node == &platform.nodes()[hosts];
      ++hosts;
    }
  }
  const std::string host_indices =
      hosts_first && hosts > 0 ? fmt::format("an index 0..{}", hosts - 1) : std::string("the index of a host");
  const auto by_index = parse_processor_index(name, static_cast<std::size_t>(platform.size()));
  auto index_hint = [&]() -> std::string {
    if (by_index && platform.node(*by_index).kind == NodeKind::host) {
      return fmt::format(" (as an index, {} is host {}: give its id)", name, platform.id(*by_index));
    }
    return "";
  };
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (platform.id(v) != name) continue;
    if (platform.node(v).kind == NodeKind::host) return v;
    throw InputError(fmt::format("{}: \"{}\" is {}, not a host: only hosts send, receive and hold data{}", what, name,
                                 describe_element(platform, v), index_hint()));
  }
  if (by_index) {
    if (platform.node(*by_index).kind == NodeKind::host) return *by_index;
    throw InputError(fmt::format("{}: index {} is {}, not a host (give a host's id or {})", what, name,
                                 describe_element(platform, *by_index), host_indices));
  }
  throw InputError(fmt::format("{}: no host \"{}\" (give a host's id or {})", what, name, host_indices));
}

namespace {

// A long id cut in the middle: "node-12.very-long-c…luster.org".
std::string short_id(const std::string& id, std::size_t most = 24) {
  if (id.size() <= most) return id;
  const std::size_t head = (most - 1) / 2, tail = most - 1 - head;
  return id.substr(0, head) + "\u2026" + id.substr(id.size() - tail);
}

// The bandwidth of a link node (from the edges entering it), if any.
std::optional<double> link_bandwidth(const Platform& platform, ProcessorIndex link) {
  for (auto e : platform.in_edges(link)) {
    if (platform.edges()[e].bandwidth) return platform.edges()[e].bandwidth;
  }
  return std::nullopt;
}

}  // namespace

std::string route_links_label(const Platform& platform, std::span<const std::size_t> route, std::size_t max_lines) {
  std::vector<ProcessorIndex> links;
  for (std::size_t k = 0; k + 1 < route.size(); ++k) {
    if (route[k] >= platform.edges().size()) break;
    const ProcessorIndex inner = platform.edges()[route[k]].to;
    if (platform.node(inner).kind == NodeKind::link) links.push_back(inner);
  }
  // "link 145"; an id that already says it is a link ("link_from_0_UP") is not prefixed.
  auto named = [&](ProcessorIndex link) {
    const std::string id = short_id(platform.id(link));
    const bool says_link = id.size() >= 4 && (id.compare(0, 4, "link") == 0 || id.compare(0, 4, "Link") == 0);
    return says_link ? id : "link " + id;
  };
  auto described = [&](ProcessorIndex link) {
    const std::string figures = link_figures(platform, link);
    return figures.empty() ? named(link) : fmt::format("{} ({})", named(link), figures);
  };
  std::string text;
  if (links.size() <= std::max<std::size_t>(max_lines, 1)) {
    for (auto link : links) text += (text.empty() ? "" : "\n") + described(link);
    return text;
  }
  // First line: the count and the ids, without the prefix they all share
  // ("4 links link_from_…: 0_31_0_UP, 31_27_16_UP, ...").
  std::size_t common = platform.id(links.front()).size();
  for (auto link : links) {
    const std::string& id = platform.id(link);
    const std::string& first = platform.id(links.front());
    std::size_t same = 0;
    while (same < common && same < id.size() && id[same] == first[same]) ++same;
    common = same;
  }
  if (common < 4) common = 0;
  constexpr std::size_t kListed = 4;
  text = common ? fmt::format("{} links {}\u2026:\n", links.size(), platform.id(links.front()).substr(0, common))
                : fmt::format("{} links: ", links.size());
  for (std::size_t i = 0; i < links.size() && i < kListed; ++i) {
    text += (i ? ", " : "") + short_id(platform.id(links[i]).substr(common), 16);
  }
  if (links.size() > kListed) text += ", \u2026";
  // Second line: the figures all the links share, or the narrowest link
  // (the first of the slowest; the first link when none has a bandwidth).
  const std::string figures = link_figures(platform, links.front());
  const bool alike = std::all_of(links.begin(), links.end(),
                                 [&](ProcessorIndex link) { return link_figures(platform, link) == figures; });
  if (alike && !figures.empty()) return text + "\neach " + figures;
  ProcessorIndex narrowest = links.front();
  std::optional<double> least = link_bandwidth(platform, narrowest);
  for (auto link : links) {
    const auto bandwidth = link_bandwidth(platform, link);
    if (bandwidth && (!least || *bandwidth < *least)) {
      least = bandwidth;
      narrowest = link;
    }
  }
  return text + "\n" + (least ? "narrowest: " : "first: ") + described(narrowest);
}

std::string route_via_text(const Platform& platform, std::span<const std::size_t> route, bool figures) {
  if (route.size() < 2) return "";
  constexpr std::size_t kShown = 12;
  std::string text = " via";
  std::string last_kind;
  std::size_t shown = 0;
  double narrowest = 0;
  ProcessorIndex narrowest_link = kNoProcessor;
  std::size_t links = 0;
  for (std::size_t k = 0; k + 1 < route.size(); ++k) {
    if (route[k] >= platform.edges().size()) break;
    const ProcessorIndex inner = platform.edges()[route[k]].to;
    const PlatformNode& node = platform.node(inner);
    if (node.kind == NodeKind::link) {
      ++links;
      for (auto e : platform.in_edges(inner)) {
        const auto& bandwidth = platform.edges()[e].bandwidth;
        if (bandwidth && (narrowest_link == kNoProcessor || *bandwidth < narrowest)) {
          narrowest = *bandwidth;
          narrowest_link = inner;
        }
        if (bandwidth) break;
      }
    }
    if (shown == kShown) {
      text += fmt::format(", ... ({} in all)", route.size() - 1);
      ++shown;
    }
    if (shown > kShown) continue;
    std::string kind = node.kind == NodeKind::host ? "host" : std::string(to_string(node.kind));
    if (kind != last_kind) {
      // "links 4, 3" when the next element is of the same kind, else "link 4".
      const bool plural = k + 2 < route.size() && platform.node(platform.edges()[route[k + 1]].to).kind == node.kind;
      text += (shown ? ", " : " ") + kind + (plural ? "s " : " ");
      last_kind = kind;
    } else {
      text += ", ";
    }
    text += node.id;
    ++shown;
  }
  if (figures && narrowest_link != kNoProcessor && links > 1) {
    text += fmt::format(" (narrowest: link {}, {})", platform.id(narrowest_link), format_bandwidth(narrowest));
  } else if (figures && narrowest_link != kNoProcessor) {
    text += fmt::format(" ({})", link_figures(platform, narrowest_link));
  }
  return text;
}

}  // namespace hetcoll
