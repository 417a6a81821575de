#include "hetcoll/mpi/rank_mapping.h"

#include <map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll::mpi {

RankMapping RankMapping::explicit_list(std::vector<std::string> processor_of_rank) {
  RankMapping mapping;
  mapping.kind_ = Kind::explicit_list;
  mapping.entries_ = std::move(processor_of_rank);
  return mapping;
}

RankMapping RankMapping::explicit_list(const std::vector<ProcessorIndex>& processor_of_rank) {
  std::vector<std::string> entries;
  entries.reserve(processor_of_rank.size());
  for (auto p : processor_of_rank) entries.push_back(std::to_string(p));
  return explicit_list(std::move(entries));
}

RankMapping RankMapping::parse(std::string_view list) {
  auto trim = [](std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
  };
  list = trim(list);
  if (list.empty()) return by_order();
  std::vector<std::string> entries;
  while (true) {
    auto comma = list.find(',');
    entries.emplace_back(trim(list.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return explicit_list(std::move(entries));
}

namespace {

// What resolving needs to know of the processors that may be played.
struct Candidates {
  ProcessorIndex count = 0;      // how many may be played
  std::string_view noun;         // "processors", "hosts"
  // The r-th candidate (by order, and decimal indices).
  std::function<ProcessorIndex(ProcessorIndex)> nth;
  // An entry or processor name -> the processor; throws InputError
  // (`what` says where the text comes from) when it is none.
  std::function<ProcessorIndex(std::string_view text, const std::string& what)> lookup;
  std::function<std::string(ProcessorIndex)> name;
};

std::vector<ProcessorIndex> resolve_among(RankMapping::Kind kind, const std::vector<std::string>& entries,
                                          int rank_count, const Candidates& candidates,
                                          const std::vector<std::string>& processor_names,
                                          std::string_view source_name) {
  if (rank_count > candidates.count) {
    throw InputError(fmt::format("{}: the communicator has {} ranks but the platform only {} {}; every rank "
                                 "must play a distinct one",
                                 source_name, rank_count, candidates.count, candidates.noun));
  }
  std::vector<ProcessorIndex> processor_of_rank(static_cast<size_t>(rank_count), kNoProcessor);
  switch (kind) {
    case RankMapping::Kind::by_order:
      for (int rank = 0; rank < rank_count; ++rank) processor_of_rank[static_cast<size_t>(rank)] = candidates.nth(rank);
      break;
    case RankMapping::Kind::explicit_list:
      if (entries.size() != static_cast<size_t>(rank_count)) {
        throw InputError(fmt::format("{}: the rank mapping lists {} {} for a communicator of {} ranks", source_name,
                                     entries.size(), candidates.noun, rank_count));
      }
      for (int rank = 0; rank < rank_count; ++rank) {
        const auto& entry = entries[static_cast<size_t>(rank)];
        processor_of_rank[static_cast<size_t>(rank)] =
            candidates.lookup(entry, fmt::format("{}: rank mapping entry {} (\"{}\")", source_name, rank, entry));
      }
      break;
    case RankMapping::Kind::by_processor_name:
      for (int rank = 0; rank < rank_count; ++rank) {
        const auto& name = processor_names.at(static_cast<size_t>(rank));
        processor_of_rank[static_cast<size_t>(rank)] =
            candidates.lookup(name, fmt::format("{}: rank {} runs on \"{}\"", source_name, rank, name));
      }
      break;
  }
  std::map<ProcessorIndex, int> rank_of;
  for (int rank = 0; rank < rank_count; ++rank) {
    auto p = processor_of_rank[static_cast<size_t>(rank)];
    auto [holder, inserted] = rank_of.emplace(p, rank);
    if (!inserted) {
      throw InputError(fmt::format("{}: ranks {} and {} both play {}{}", source_name, holder->second, rank,
                                   candidates.name(p),
                                   kind == RankMapping::Kind::by_processor_name
                                       ? " (one rank per host is needed to map by processor name; give an explicit "
                                         "mapping)"
                                       : ""));
    }
  }
  return processor_of_rank;
}

// What a platform node that is not a host is, for messages.
std::string kind_of_non_host(const PlatformNode& node) {
  switch (node.kind) {
    case NodeKind::link: return "a network link";
    case NodeKind::router: return "a router";
    case NodeKind::host: break;
  }
  return "a host left out of the participants (it only forwards)";
}

}  // namespace

std::vector<ProcessorIndex> RankMapping::resolve(
    int rank_count, ProcessorIndex processor_count,
    const std::function<std::optional<ProcessorIndex>(std::string_view)>& find,
    const std::vector<std::string>& processor_names, std::string_view source_name) const {
  Candidates candidates;
  candidates.count = processor_count;
  candidates.noun = "processors";
  candidates.nth = [](ProcessorIndex r) { return r; };
  candidates.lookup = [&](std::string_view text, const std::string& what) {
    auto found = find(text);
    if (!found) throw InputError(fmt::format("{}: no such processor", what));
    return *found;
  };
  candidates.name = [](ProcessorIndex p) { return fmt::format("processor {}", p); };
  return resolve_among(kind_, entries_, rank_count, candidates, processor_names, source_name);
}

std::vector<ProcessorIndex> RankMapping::resolve_on_platform(const LoadedPlatform& platform, int rank_count,
                                                             const std::vector<std::string>& processor_names,
                                                             std::string_view source_name) const {
  Candidates candidates;
  if (platform.is_cluster()) {
    const auto& cluster = platform.cluster();
    candidates.count = cluster.size();
    candidates.noun = "processors";
    candidates.nth = [](ProcessorIndex r) { return r; };
    candidates.lookup = [&](std::string_view text, const std::string& what) {
      auto found = cluster.find(text);
      if (!found) throw InputError(fmt::format("{}: no such processor", what));
      return *found;
    };
    candidates.name = [&](ProcessorIndex p) { return fmt::format("processor {}", cluster.id(p)); };
    return resolve_among(kind_, entries_, rank_count, candidates, processor_names, source_name);
  }
  const auto& graph = platform.graph();
  const std::vector<ProcessorIndex> hosts = graph.participants();
  candidates.count = static_cast<ProcessorIndex>(hosts.size());
  candidates.noun = "hosts";
  candidates.nth = [&](ProcessorIndex r) { return hosts[static_cast<size_t>(r)]; };
  candidates.lookup = [&](std::string_view text, const std::string& what) {
    // A host's id, else the index of a host, else refused: a router's or a
    // link's id is never a rank's place, even when it reads as a number.
    auto by_id = graph.find(text);
    bool names_node = by_id && graph.id(*by_id) == text;
    if (names_node && !graph.node(*by_id).router) return *by_id;
    if (auto index = parse_processor_index(text, hosts.size())) return hosts[static_cast<size_t>(*index)];
    if (names_node) {
      throw InputError(fmt::format("{}: \"{}\" is {}, not a host; ranks play hosts only (give host names, or "
                                   "indices of hosts in the file's order 0..{})",
                                   what, text, kind_of_non_host(graph.node(*by_id)), hosts.size() - 1));
    }
    throw InputError(fmt::format("{}: no such host (give host names, or indices of hosts in the file's order 0..{})",
                                 what, hosts.size() - 1));
  };
  candidates.name = [&](ProcessorIndex p) { return fmt::format("host {}", graph.id(p)); };
  return resolve_among(kind_, entries_, rank_count, candidates, processor_names, source_name);
}

}  // namespace hetcoll::mpi
