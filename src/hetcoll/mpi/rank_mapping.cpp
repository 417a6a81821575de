#include "hetcoll/mpi/rank_mapping.h"

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

std::vector<ProcessorIndex> RankMapping::resolve(
    int rank_count, ProcessorIndex processor_count,
    const std::function<std::optional<ProcessorIndex>(std::string_view)>& find,
    const std::vector<std::string>& processor_names, std::string_view source_name) const {
  if (rank_count > processor_count) {
    throw InputError(fmt::format("{}: the communicator has {} ranks but the platform only {} processors; every rank "
                                 "must play a distinct processor",
                                 source_name, rank_count, processor_count));
  }
  std::vector<ProcessorIndex> processor_of_rank(static_cast<size_t>(rank_count), kNoProcessor);
  switch (kind_) {
    case Kind::by_order:
      for (int rank = 0; rank < rank_count; ++rank) processor_of_rank[static_cast<size_t>(rank)] = rank;
      break;
    case Kind::explicit_list:
      if (entries_.size() != static_cast<size_t>(rank_count)) {
        throw InputError(fmt::format("{}: the rank mapping lists {} processors for a communicator of {} ranks",
                                     source_name, entries_.size(), rank_count));
      }
      for (int rank = 0; rank < rank_count; ++rank) {
        const auto& entry = entries_[static_cast<size_t>(rank)];
        auto found = find(entry);
        if (!found) {
          throw InputError(fmt::format("{}: rank mapping entry {} (\"{}\"): no such processor", source_name, rank, entry));
        }
        processor_of_rank[static_cast<size_t>(rank)] = *found;
      }
      break;
    case Kind::by_processor_name:
      for (int rank = 0; rank < rank_count; ++rank) {
        const auto& name = processor_names.at(static_cast<size_t>(rank));
        auto found = find(name);
        if (!found) {
          throw InputError(fmt::format("{}: rank {} runs on \"{}\", which is not a processor of the platform",
                                       source_name, rank, name));
        }
        processor_of_rank[static_cast<size_t>(rank)] = *found;
      }
      break;
  }
  std::vector<int> rank_of(static_cast<size_t>(processor_count), -1);
  for (int rank = 0; rank < rank_count; ++rank) {
    auto p = processor_of_rank[static_cast<size_t>(rank)];
    auto& holder = rank_of[static_cast<size_t>(p)];
    if (holder >= 0) {
      throw InputError(fmt::format("{}: ranks {} and {} both play processor {}{}", source_name, holder, rank, p,
                                   kind_ == Kind::by_processor_name
                                       ? " (one rank per host is needed to map by processor name; give an explicit "
                                         "mapping)"
                                       : ""));
    }
    holder = rank;
  }
  return processor_of_rank;
}

}  // namespace hetcoll::mpi
