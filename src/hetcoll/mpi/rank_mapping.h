// Which processor of a plan or platform each rank of a communicator plays.
//
// Three ways, all resolved to one processor per rank (distinct processors):
//  - by order: rank r plays processor r (the default);
//  - explicit: a list, one processor per rank, by id or decimal index
//    ("xeon0,athlon2,..." or "0,4,1,5,..."), e.g. from HETCOLL_RANK_MAP;
//  - by processor name: rank r plays the processor whose id is the name
//    MPI_Get_processor_name gives on that rank (one rank per host; under
//    SimGrid SMPI the names are the platform's host names).
// A communicator may be smaller than the platform (the processors not
// played take no part); it may never be larger, and no processor is played
// twice.
//
// On a platform (resolve_on_platform) only hosts can be played: the nodes
// that are neither routers nor links (Platform::participants(), in the
// file's order; every processor of a sender-speed cluster). "Processor r"
// and "index i" then count hosts only: rank r plays the r-th host of the
// file, never a router or a link, whatever the ids of the network
// elements are (SimGrid's small_platform.xml has links named "0", "1", ...).
// An entry is a host's id first, else a decimal index of a host; an id
// that names a router or a link is refused, naming the id and its kind.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::mpi {

class RankMapping {
 public:
  enum class Kind { by_order, explicit_list, by_processor_name };

  RankMapping() = default;
  static RankMapping by_order() { return RankMapping(); }
  // One entry per rank: a processor id or decimal index.
  static RankMapping explicit_list(std::vector<std::string> processor_of_rank);
  static RankMapping explicit_list(const std::vector<ProcessorIndex>& processor_of_rank);
  // "a,b,c" -> explicit_list({"a","b","c"}); empty text = by order.
  static RankMapping parse(std::string_view list);
  static RankMapping by_processor_name() { RankMapping m; m.kind_ = Kind::by_processor_name; return m; }

  Kind kind() const { return kind_; }
  const std::vector<std::string>& entries() const { return entries_; }

  // The processor of each of `rank_count` ranks. `find` looks a processor up
  // by id or index; `processor_names` (by_processor_name only) is each
  // rank's MPI_Get_processor_name. Throws InputError naming `source_name`
  // and the rank when the mapping does not fit.
  std::vector<ProcessorIndex> resolve(int rank_count, ProcessorIndex processor_count,
                                      const std::function<std::optional<ProcessorIndex>(std::string_view)>& find,
                                      const std::vector<std::string>& processor_names,
                                      std::string_view source_name) const;

  // The platform node (a host: see the header comment) of each of
  // `rank_count` ranks. `processor_names` as for resolve. Throws InputError
  // naming `source_name`, the rank and the entry when the mapping does not
  // fit: more ranks than hosts, an entry that is no host (a router or a
  // link: named with its kind), a host played twice.
  std::vector<ProcessorIndex> resolve_on_platform(const LoadedPlatform& platform, int rank_count,
                                                  const std::vector<std::string>& processor_names,
                                                  std::string_view source_name) const;

 private:
  Kind kind_ = Kind::by_order;
  std::vector<std::string> entries_;
};

}  // namespace hetcoll::mpi
