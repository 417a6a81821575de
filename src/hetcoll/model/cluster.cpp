#include "hetcoll/model/cluster.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/core/error.h"

namespace hetcoll {

PackedIds::PackedIds(const std::vector<std::string>& ids) {
  std::size_t bytes = 0;
  for (const auto& id : ids) bytes += id.size();
  reserve(ids.size(), bytes);
  for (const auto& id : ids) push_back(id);
}

void PackedIds::push_back(std::string_view id) {
  if (text_.size() + id.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw InputError("ids", "the processor ids take more than 4 GiB");
  }
  text_.append(id);
  ends_.push_back(static_cast<std::uint32_t>(text_.size()));
}

std::vector<std::string> PackedIds::to_strings() const {
  std::vector<std::string> ids;
  ids.reserve(size());
  for (std::size_t p = 0; p < size(); ++p) ids.emplace_back((*this)[p]);
  return ids;
}

Cluster::Cluster(Packed, PackedIds ids, std::vector<double> transmission_times, std::string_view source_name)
    : ids_(std::move(ids)), times_(std::move(transmission_times)) {
  if (ids_.size() != times_.size()) {
    throw InputError(fmt::format("{}: {} ids but {} transmission times", source_name,
                                 ids_.size(), times_.size()));
  }
  if (times_.empty()) {
    throw InputError(fmt::format("{}: the cluster has no processors", source_name));
  }
  if (times_.size() > static_cast<size_t>(std::numeric_limits<ProcessorIndex>::max())) {
    throw InputError(fmt::format("{}: too many processors", source_name));
  }
  size_t slots = 2;
  while (slots < 2 * ids_.size()) slots *= 2;
  id_slots_.assign(slots, kNoProcessor);
  // Ids are hashed kAhead processors ahead and their first slot prefetched:
  // a million ids in an 8 MB table cost a cache miss each otherwise. The
  // table is the one id_slot probes (same hash, same insertion order).
  constexpr size_t kAhead = 16;
  const size_t mask = slots - 1;
  size_t ahead[kAhead];
  const auto hash_ahead = [&](size_t q) {
    const size_t hash = std::hash<std::string_view>{}(ids_[q]);
    __builtin_prefetch(&id_slots_[hash & mask], 1);
    ahead[q % kAhead] = hash;
  };
  for (size_t q = 0; q < std::min(kAhead, ids_.size()); ++q) hash_ahead(q);
  for (size_t p = 0; p < times_.size(); ++p) {
    if (ids_[p].empty()) {
      throw InputError(fmt::format("{}: processors[{}].id: must not be empty", source_name, p));
    }
    if (!std::isfinite(times_[p]) || times_[p] <= 0) {
      throw InputError(fmt::format("{}: processors[{}].t: must be a positive finite number, got {}",
                                   source_name, p, times_[p]));
    }
    if (times_[p] < kSmallestTransmissionTime) {
      throw InputError(fmt::format("{}: processors[{}].t: {} is too small: times below {:.2g} (subnormal, or with a "
                                   "subnormal tolerance) lose precision; rescale them, e.g. to nanoseconds",
                                   source_name, p, times_[p], kSmallestTransmissionTime));
    }
    size_t slot = ahead[p % kAhead] & mask;
    if (p + kAhead < ids_.size()) hash_ahead(p + kAhead);
    while (id_slots_[slot] != kNoProcessor && ids_[static_cast<size_t>(id_slots_[slot])] != ids_[p]) {
      slot = (slot + 1) & mask;
    }
    if (id_slots_[slot] != kNoProcessor) {
      throw InputError(fmt::format("{}: processors[{}].id: duplicate id \"{}\" (also processors[{}])",
                                   source_name, p, ids_[p], id_slots_[slot]));
    }
    id_slots_[slot] = static_cast<ProcessorIndex>(p);
  }
  // Every sum a planner forms stays finite (core/ids.h, largest_accepted_time).
  const double largest = largest_accepted_time(static_cast<double>(times_.size()));
  for (size_t p = 0; p < times_.size(); ++p) {
    if (times_[p] > largest) {
      throw InputError(fmt::format("{}: processors[{}].t: {} is too large for {} processors: a plan's sum of up to 4 x "
                                   "{}^2 such times overflows a double (1.8e308); give times at most {:.3g} (rescale "
                                   "them, e.g. to another unit)",
                                   source_name, p, times_[p], times_.size(), times_.size(), largest));
    }
  }
  auto fastest = std::min_element(times_.begin(), times_.end());
  fastest_time_ = *fastest;
  slowest_time_ = *std::max_element(times_.begin(), times_.end());
  // The lowest index among the times equal to the fastest under the
  // tolerance rule (1 + 1e-10 ties with 1).
  fastest_processor_ = static_cast<ProcessorIndex>(fastest - times_.begin());
  for (size_t p = 0; p < times_.size(); ++p) {
    if (time_equal(times_[p], fastest_time_, tolerance())) {
      fastest_processor_ = static_cast<ProcessorIndex>(p);
      break;
    }
  }
}

Cluster Cluster::from_times(std::vector<double> transmission_times, std::string_view source_name) {
  std::vector<std::string> ids(transmission_times.size());
  for (size_t p = 0; p < ids.size(); ++p) ids[p] = fmt::format("p{}", p);
  return Cluster(std::move(ids), std::move(transmission_times), source_name);
}

size_t Cluster::id_slot(std::string_view id) const {
  const size_t mask = id_slots_.size() - 1;
  size_t slot = std::hash<std::string_view>{}(id) & mask;
  while (id_slots_[slot] != kNoProcessor && ids_[static_cast<size_t>(id_slots_[slot])] != id) slot = (slot + 1) & mask;
  return slot;
}

std::optional<ProcessorIndex> Cluster::find_id(std::string_view id) const {
  if (id_slots_.empty()) return std::nullopt;
  ProcessorIndex found = id_slots_[id_slot(id)];
  if (found == kNoProcessor) return std::nullopt;
  return found;
}

std::optional<ProcessorIndex> Cluster::find(std::string_view id_or_index) const {
  if (auto found = find_id(id_or_index)) return found;
  return parse_processor_index(id_or_index, times_.size());
}

void Cluster::find_all(std::span<const std::string_view> ids_or_indices, std::span<ProcessorIndex> found) const {
  // Two stages ahead of the lookup: the id's slot is prefetched kAhead ids
  // ahead, the id that slot names kAhead / 2 ahead (id_slot's probe order).
  constexpr size_t kAhead = 16;
  const size_t count = ids_or_indices.size();
  if (id_slots_.empty()) {  // a default-constructed cluster: no processors
    std::fill(found.begin(), found.end(), kNoProcessor);
    return;
  }
  const size_t mask = id_slots_.size() - 1;
  size_t hashes[kAhead];
  const auto hash_ahead = [&](size_t q) {
    hashes[q % kAhead] = std::hash<std::string_view>{}(ids_or_indices[q]);
    __builtin_prefetch(&id_slots_[hashes[q % kAhead] & mask]);
  };
  const auto fetch_ahead = [&](size_t q) {
    const ProcessorIndex first = id_slots_[hashes[q % kAhead] & mask];
    if (first != kNoProcessor) __builtin_prefetch(ids_[static_cast<size_t>(first)].data());
  };
  for (size_t q = 0; q < std::min(kAhead, count); ++q) hash_ahead(q);
  for (size_t q = 0; q < std::min(kAhead / 2, count); ++q) fetch_ahead(q);
  for (size_t i = 0; i < count; ++i) {
    const std::string_view id = ids_or_indices[i];
    size_t slot = hashes[i % kAhead] & mask;
    if (i + kAhead / 2 < count) fetch_ahead(i + kAhead / 2);
    if (i + kAhead < count) hash_ahead(i + kAhead);
    while (id_slots_[slot] != kNoProcessor && ids_[static_cast<size_t>(id_slots_[slot])] != id) slot = (slot + 1) & mask;
    ProcessorIndex p = id_slots_[slot];
    if (p == kNoProcessor) p = parse_processor_index(id, times_.size()).value_or(kNoProcessor);
    found[i] = p;
  }
}

std::vector<ProcessorIndex> Cluster::fastest_first_order() const {
  std::vector<ProcessorIndex> order(times_.size());
  std::iota(order.begin(), order.end(), 0);
  sort_by_time_class(*this, order);
  return order;
}

std::vector<double> Cluster::distinct_times() const {
  std::vector<double> sorted = times_;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> distinct;
  for (double t : sorted) {
    if (distinct.empty() || !time_equal(distinct.back(), t, tolerance())) distinct.push_back(t);
  }
  return distinct;
}

std::vector<int> time_class_ids(const Cluster& cluster) {
  std::vector<ProcessorIndex> order(static_cast<size_t>(cluster.size()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    const double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
    return ta != tb ? ta < tb : a < b;
  });
  std::vector<int> ids(order.size(), 0);
  int current = -1;
  double class_smallest = 0;
  for (ProcessorIndex p : order) {
    const double t = cluster.transmission_time(p);
    if (current < 0 || !time_equal(class_smallest, t, cluster.tolerance())) {
      ++current;
      class_smallest = t;
    }
    ids[static_cast<size_t>(p)] = current;
  }
  return ids;
}

namespace {

// sort_by_time_class when the processors' times take few exact values, any
// two more than the tolerance apart (then each class is one exact time): a
// stable counting sort by class, then each class by index unless already in
// order. False (nothing done) otherwise.
bool sort_by_exact_class(const Cluster& cluster, std::vector<ProcessorIndex>& processors, bool slowest_first) {
  auto distinct = few_distinct_values(processors, [&](ProcessorIndex p) { return cluster.transmission_time(p); });
  if (!distinct) return false;
  const std::vector<double>& times = *distinct;
  for (std::size_t c = 1; c < times.size(); ++c) {
    if (time_equal(times[c - 1], times[c], cluster.tolerance())) return false;
  }
  const std::size_t k = times.size();
  auto class_of = [&](ProcessorIndex p) {
    const auto c = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), cluster.transmission_time(p)) -
                                            times.begin());
    return slowest_first ? k - 1 - c : c;
  };
  std::vector<std::size_t> first(k + 1, 0);
  for (ProcessorIndex p : processors) ++first[class_of(p) + 1];
  for (std::size_t c = 0; c < k; ++c) first[c + 1] += first[c];
  std::vector<ProcessorIndex> sorted(processors.size());
  std::vector<std::size_t> fill(first.begin(), first.end() - 1);
  for (ProcessorIndex p : processors) sorted[fill[class_of(p)]++] = p;
  for (std::size_t c = 0; c < k; ++c) {
    auto begin = sorted.begin() + static_cast<std::ptrdiff_t>(first[c]);
    auto end = sorted.begin() + static_cast<std::ptrdiff_t>(first[c + 1]);
    if (!std::is_sorted(begin, end)) std::sort(begin, end);
  }
  processors = std::move(sorted);
  return true;
}

}  // namespace

void sort_by_time_class(const Cluster& cluster, std::vector<ProcessorIndex>& processors, bool slowest_first) {
  // Few distinct times (a generated or measured cluster): bucket by class.
  if (sort_by_exact_class(cluster, processors, slowest_first)) return;
  // Sort by exact time, cut into classes (runs within the tolerance of their
  // smallest member, as distinct_times()), and sort each class by index.
  std::sort(processors.begin(), processors.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    const double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
    return ta != tb ? ta < tb : a < b;
  });
  const double tolerance = cluster.tolerance();
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t begin = 0; begin < processors.size();) {
    const double smallest = cluster.transmission_time(processors[begin]);
    size_t end = begin + 1;
    while (end < processors.size() && time_equal(smallest, cluster.transmission_time(processors[end]), tolerance)) {
      ++end;
    }
    std::sort(processors.begin() + static_cast<std::ptrdiff_t>(begin),
              processors.begin() + static_cast<std::ptrdiff_t>(end));
    runs.push_back({begin, end});
    begin = end;
  }
  if (!slowest_first) return;
  std::vector<ProcessorIndex> reversed;
  reversed.reserve(processors.size());
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
    reversed.insert(reversed.end(), processors.begin() + static_cast<std::ptrdiff_t>(run->first),
                    processors.begin() + static_cast<std::ptrdiff_t>(run->second));
  }
  processors = std::move(reversed);
}

}  // namespace hetcoll
