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
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"

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

 private:
  Kind kind_ = Kind::by_order;
  std::vector<std::string> entries_;
};

}  // namespace hetcoll::mpi
