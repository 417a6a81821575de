// The sender-speed cluster model (Liu, Kuo, Wang 2009, Khuller, Kim, Woeginger 2003 and Liu 2002).
//
// n processors, every pair can talk; processor p has a transmission time t(p):
// one message from p to anyone occupies both ends for t(p). One-port: a
// processor takes part in one communication at a time (it is never sending
// and receiving at once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"

namespace hetcoll {

// The smallest transmission time accepted: below it the tolerance of
// core/ids.h (1e-9 of a time) would be a subnormal number, and times
// themselves lose precision (subnormals have fewer significant bits).
inline constexpr double kSmallestTransmissionTime = std::numeric_limits<double>::min() / kRelativeTimeTolerance;

// Processor ids stored end to end in one string (id p is
// text[end(p - 1), end(p))): about 12 bytes per short id where a
// std::string takes 32, so that ten million processors fit in memory.
class PackedIds {
 public:
  PackedIds() = default;
  explicit PackedIds(const std::vector<std::string>& ids);

  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](std::size_t p) const {
    const std::uint32_t begin = p == 0 ? 0 : ends_[p - 1];
    return std::string_view(text_.data() + begin, ends_[p] - begin);
  }
  // Appends an id; throws InputError ("ids") past 4 GiB of id text.
  void push_back(std::string_view id);
  void reserve(std::size_t ids, std::size_t bytes) {
    ends_.reserve(ids);
    text_.reserve(bytes);
  }
  std::vector<std::string> to_strings() const;

 private:
  std::string text_;
  std::vector<std::uint32_t> ends_;
};

class Cluster {
 public:
  Cluster() = default;
  // Throws InputError when ids are empty or duplicated, or a time is not a
  // positive finite number of at least kSmallestTransmissionTime, or the
  // times' sum overflows. `source_name` prefixes the messages.
  Cluster(const std::vector<std::string>& ids, std::vector<double> transmission_times,
          std::string_view source_name = "cluster")
      : Cluster(Packed{}, PackedIds(ids), std::move(transmission_times), source_name) {}
  // The same from ids already packed (the readers of large files).
  static Cluster with_packed_ids(PackedIds ids, std::vector<double> transmission_times,
                                 std::string_view source_name = "cluster") {
    return Cluster(Packed{}, std::move(ids), std::move(transmission_times), source_name);
  }

  // A cluster whose processors are named p0, p1, ...
  static Cluster from_times(std::vector<double> transmission_times,
                            std::string_view source_name = "transmission_times");

  ProcessorIndex size() const { return static_cast<ProcessorIndex>(times_.size()); }
  double transmission_time(ProcessorIndex p) const { return times_[static_cast<size_t>(p)]; }
  const std::vector<double>& transmission_times() const { return times_; }
  std::string_view id(ProcessorIndex p) const { return ids_[static_cast<size_t>(p)]; }
  // Every id, copied (for tests and small clusters; id(p) does not copy).
  std::vector<std::string> ids() const { return ids_.to_strings(); }

  // Looks up a processor by id, or by its decimal index when no id matches.
  std::optional<ProcessorIndex> find(std::string_view id_or_index) const;
  // find for each of `ids_or_indices` into `found` (kNoProcessor where none
  // matches; the spans have the same size). Looks a few ids ahead so that a
  // million lookups do not each wait for a cache miss.
  void find_all(std::span<const std::string_view> ids_or_indices, std::span<ProcessorIndex> found) const;

  double fastest_time() const { return fastest_time_; }
  double slowest_time() const { return slowest_time_; }
  // The unit of every time of this cluster ("ms", "s", ...) as its platform
  // file declares it (docs/FORMATS.md, "units"); empty when not declared.
  // Printed after every time in the output; it changes no computation.
  const std::string& time_unit() const { return time_unit_; }
  Cluster& set_time_unit(std::string unit) {
    time_unit_ = std::move(unit);
    return *this;
  }

  // A fastest processor; the lowest index among ties (times within the
  // tolerance of the fastest, core/ids.h).
  ProcessorIndex fastest_processor() const { return fastest_processor_; }
  // The tolerance rule of core/ids.h for this cluster: its time scale and
  // the tolerance tau below which two times are equal.
  double time_scale() const { return hetcoll::time_scale(fastest_time_, slowest_time_); }
  double tolerance() const { return time_tolerance(fastest_time_, slowest_time_); }

  // Processor indices fastest first; times equal under the tolerance rule
  // by index (sort_by_time_class).
  std::vector<ProcessorIndex> fastest_first_order() const;
  // The distinct transmission times, ascending, merging values equal up to
  // the tolerance (a "class" of processors in the papers' words).
  std::vector<double> distinct_times() const;

 private:
  struct Packed {};
  Cluster(Packed, PackedIds ids, std::vector<double> transmission_times, std::string_view source_name);

  // Open-addressing table of processor indices keyed by their id (linear
  // probing, kNoProcessor = empty slot, a power of two at least twice n): a
  // million ids cost 8 MB here instead of a node and a copy of the id each.
  std::optional<ProcessorIndex> find_id(std::string_view id) const;
  size_t id_slot(std::string_view id) const;

  PackedIds ids_;
  std::vector<double> times_;
  std::vector<ProcessorIndex> id_slots_;
  std::string time_unit_;
  double fastest_time_ = 0;
  double slowest_time_ = 0;
  ProcessorIndex fastest_processor_ = kNoProcessor;
};

// The tie rule for ordering processors by speed (core/ids.h): times within
// the tolerance are one class, and a class's members go by index — so a
// time of 1 + 1e-10 orders like 1, and rounding noise never reorders.
// time_class_ids: the class of each processor, 0 = fastest (classes are
// runs of sorted times within the tolerance of their smallest member).
std::vector<int> time_class_ids(const Cluster& cluster);
// Sorts by class (fastest first, or slowest first), then by index.
void sort_by_time_class(const Cluster& cluster, std::vector<ProcessorIndex>& processors, bool slowest_first = false);

}  // namespace hetcoll
