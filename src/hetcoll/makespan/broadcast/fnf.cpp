#include "hetcoll/makespan/broadcast/fnf.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/broadcast/fnf_internal.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/theorems.h"

namespace hetcoll {

namespace {

struct PendingSend {
  double finish;  // when this sender would complete its next message
  ProcessorIndex sender;
};

struct LaterFinish {
  bool operator()(const PendingSend& a, const PendingSend& b) const {
    return a.finish != b.finish ? a.finish > b.finish : a.sender > b.sender;
  }
};

// The classes of the processors taking part (the source and the receivers)
// when their times take at most kFewDistinctTimes distinct values, any two
// of which differ by more than the tolerance (so a class of the tolerance
// rule is one exact time): `times` ascending, and each receiver's class.
struct ExactClasses {
  std::vector<double> times;
  std::vector<std::uint8_t> of_receiver;  // parallel to the receivers given
  std::uint8_t of_source = 0;
};

std::optional<ExactClasses> exact_classes(const Cluster& cluster, ProcessorIndex source,
                                          const std::vector<ProcessorIndex>& receivers) {
  static_assert(kFewDistinctTimes <= std::numeric_limits<std::uint8_t>::max());
  ExactClasses classes;
  std::vector<double>& found = classes.times;  // in order of discovery until sorted
  classes.of_receiver.resize(receivers.size());
  auto class_of = [&](double t) -> int {
    for (std::size_t c = 0; c < found.size(); ++c) {
      if (found[c] == t) return static_cast<int>(c);
    }
    if (found.size() == kFewDistinctTimes) return -1;
    found.push_back(t);
    return static_cast<int>(found.size()) - 1;
  };
  const int source_class = class_of(cluster.transmission_time(source));
  for (std::size_t i = 0; i < receivers.size(); ++i) {
    const int c = class_of(cluster.transmission_time(receivers[i]));
    if (c < 0) return std::nullopt;
    classes.of_receiver[i] = static_cast<std::uint8_t>(c);
  }
  // Renumber fastest first.
  std::vector<std::uint8_t> order(found.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = static_cast<std::uint8_t>(c);
  std::sort(order.begin(), order.end(), [&](std::uint8_t a, std::uint8_t b) { return found[a] < found[b]; });
  std::vector<std::uint8_t> rank(found.size());
  std::vector<double> ascending(found.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = static_cast<std::uint8_t>(r);
    ascending[r] = found[order[r]];
  }
  const double tolerance = cluster.tolerance();
  for (std::size_t r = 1; r < ascending.size(); ++r) {
    if (time_equal(ascending[r - 1], ascending[r], tolerance)) return std::nullopt;
  }
  for (auto& c : classes.of_receiver) c = rank[c];
  classes.of_source = rank[static_cast<std::size_t>(source_class)];
  classes.times = std::move(ascending);
  return classes;
}

// One FIFO of pending sends per class, each kept in order of finish time.
// Every send a processor of class c will make takes t_c, and groups are
// served in order of finish time, so a class's new entries come after its
// older ones; within one group finish times differ by up to the tolerance,
// which the insertion step below puts in order (a few moves at most).
class ClassQueues {
 public:
  explicit ClassQueues(const std::vector<std::size_t>& capacity) : first_(capacity.size() + 1, 0) {
    for (std::size_t c = 0; c < capacity.size(); ++c) first_[c + 1] = first_[c] + capacity[c];
    slots_.resize(first_.back());
    head_.assign(capacity.size(), 0);
    count_.assign(capacity.size(), 0);
  }

  std::size_t classes() const { return count_.size(); }
  bool empty(std::size_t c) const { return count_[c] == 0; }
  const PendingSend& front(std::size_t c) const { return slots_[first_[c] + head_[c]]; }
  void pop(std::size_t c) {
    if (++head_[c] == capacity(c)) head_[c] = 0;
    --count_[c];
  }
  void push(std::size_t c, PendingSend send) {
    const std::size_t cap = capacity(c), base = first_[c];
    std::size_t at = head_[c] + count_[c];
    if (at >= cap) at -= cap;
    for (std::size_t k = count_[c]; k > 0; --k) {
      const std::size_t previous = at == 0 ? cap - 1 : at - 1;
      if (!(slots_[base + previous].finish > send.finish)) break;
      slots_[base + at] = slots_[base + previous];
      at = previous;
    }
    slots_[base + at] = send;
    ++count_[c];
  }

 private:
  std::size_t capacity(std::size_t c) const { return first_[c + 1] - first_[c]; }

  std::vector<PendingSend> slots_;
  std::vector<std::size_t> first_, head_, count_;
};

std::vector<Transfer> fnf_by_class(const Cluster& cluster, ProcessorIndex source,
                                   const std::vector<ProcessorIndex>& receivers, double start_time,
                                   const ExactClasses& classes) {
  const std::size_t k = classes.times.size();
  // Receivers fastest class first, by index within a class (a stable
  // counting sort, then each class by index unless already in order).
  std::vector<std::size_t> first(k + 1, 0);
  for (auto c : classes.of_receiver) ++first[c + 1];
  for (std::size_t c = 0; c < k; ++c) first[c + 1] += first[c];
  std::vector<ProcessorIndex> queue(receivers.size());
  std::vector<std::uint8_t> queue_class(receivers.size());
  {
    std::vector<std::size_t> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < receivers.size(); ++i) {
      const std::size_t at = fill[classes.of_receiver[i]]++;
      queue[at] = receivers[i];
      queue_class[at] = classes.of_receiver[i];
    }
  }
  for (std::size_t c = 0; c < k; ++c) {
    auto begin = queue.begin() + static_cast<std::ptrdiff_t>(first[c]);
    auto end = queue.begin() + static_cast<std::ptrdiff_t>(first[c + 1]);
    if (!std::is_sorted(begin, end)) std::sort(begin, end);
  }
  std::vector<std::size_t> capacity(k);
  for (std::size_t c = 0; c < k; ++c) capacity[c] = first[c + 1] - first[c];
  ++capacity[classes.of_source];
  ClassQueues pending(capacity);

  const double tolerance = cluster.tolerance();
  std::vector<Transfer> transfers;
  transfers.reserve(queue.size());
  pending.push(classes.of_source, {start_time + cluster.transmission_time(source), source});
  struct GroupSend {
    PendingSend send;
    std::size_t cls;
  };
  std::vector<GroupSend> group;
  std::size_t next_receiver = 0;
  while (next_receiver < queue.size()) {
    double earliest = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      if (!pending.empty(c)) earliest = std::min(earliest, pending.front(c).finish);
    }
    const double group_finish = earliest + tolerance;
    // The group: every sender finishing by then, fastest class first, by index within a class.
    group.clear();
    for (std::size_t c = 0; c < k; ++c) {
      const std::size_t begin = group.size();
      while (!pending.empty(c) && pending.front(c).finish <= group_finish) {
        group.push_back({pending.front(c), c});
        pending.pop(c);
      }
      if (group.size() - begin > 1) {
        std::sort(group.begin() + static_cast<std::ptrdiff_t>(begin), group.end(),
                  [](const GroupSend& a, const GroupSend& b) { return a.send.sender < b.send.sender; });
      }
    }
    for (const auto& [send, cls] : group) {
      if (next_receiver == queue.size()) break;
      const ProcessorIndex receiver = queue[next_receiver];
      const std::size_t receiver_class = queue_class[next_receiver];
      ++next_receiver;
      const double send_time = classes.times[cls];
      transfers.push_back({send.sender, receiver, send.finish - send_time, send.finish, Payload::broadcast_value});
      pending.push(cls, {send.finish + send_time, send.sender});
      pending.push(receiver_class, {send.finish + classes.times[receiver_class], receiver});
    }
  }
  return transfers;
}

}  // namespace

std::vector<Transfer> fnf_transfers_by_heap(const Cluster& cluster, ProcessorIndex source,
                                            const std::vector<ProcessorIndex>& receivers, double start_time) {
  std::vector<ProcessorIndex> queue = receivers;
  sort_by_time_class(cluster, queue);  // fastest first; equal times (core/ids.h) by index
  const double tolerance = cluster.tolerance();
  std::vector<Transfer> transfers;
  transfers.reserve(queue.size());
  std::priority_queue<PendingSend, std::vector<PendingSend>, LaterFinish> senders;
  senders.push({start_time + cluster.transmission_time(source), source});
  std::vector<PendingSend> group;
  size_t next_receiver = 0;
  while (next_receiver < queue.size()) {
    group.clear();
    const double group_finish = senders.top().finish;
    while (!senders.empty() && senders.top().finish <= group_finish + tolerance) {
      group.push_back(senders.top());
      senders.pop();
    }
    std::sort(group.begin(), group.end(), [&](const PendingSend& a, const PendingSend& b) {
      double ta = cluster.transmission_time(a.sender), tb = cluster.transmission_time(b.sender);
      return !time_equal(ta, tb, tolerance) ? ta < tb : a.sender < b.sender;
    });
    for (const auto& send : group) {
      if (next_receiver == queue.size()) break;
      const ProcessorIndex receiver = queue[next_receiver++];
      const double send_time = cluster.transmission_time(send.sender);
      transfers.push_back({send.sender, receiver, send.finish - send_time, send.finish, Payload::broadcast_value});
      senders.push({send.finish + send_time, send.sender});
      senders.push({send.finish + cluster.transmission_time(receiver), receiver});
    }
  }
  return transfers;
}

std::optional<std::vector<Transfer>> fnf_transfers_by_class(const Cluster& cluster, ProcessorIndex source,
                                                            const std::vector<ProcessorIndex>& receivers,
                                                            double start_time) {
  auto classes = exact_classes(cluster, source, receivers);
  if (!classes) return std::nullopt;
  return fnf_by_class(cluster, source, receivers, start_time, *classes);
}

std::vector<Transfer> fnf_transfers(const Cluster& cluster, ProcessorIndex source,
                                    const std::vector<ProcessorIndex>& receivers, double start_time) {
  if (auto classes = exact_classes(cluster, source, receivers)) {
    return fnf_by_class(cluster, source, receivers, start_time, *classes);
  }
  return fnf_transfers_by_heap(cluster, source, receivers, start_time);
}

std::string fnf_optimality(const Cluster& cluster, ProcessorIndex source) {
  if (cluster.size() <= 2) return "trivial: at most one message";
  const auto& times = cluster.transmission_times();
  const double tolerance = cluster.tolerance();
  const bool source_is_fastest = cluster.transmission_time(source) <= cluster.fastest_time() + tolerance;
  if (source_is_fastest) {
    if (auto two = has_at_most_two_classes(times, tolerance)) {
      return "Liu 2002 Thm 4.4: two classes of processors, source a fastest processor" + two.caveat();
    }
    if (auto chain = is_divisibility_chain(times, tolerance)) {
      return "Liu 2002 Thm 4.5: every slower time is a multiple of every faster one, source a fastest processor" +
             chain.caveat();
    }
    return "";
  }
  if (auto powers = is_power_of_two_cluster(times, tolerance)) {
    return "Liu 2002 sec. 4.4 (Lemmas 4.7, 4.8): power-2 cluster, any given source" + powers.caveat();
  }
  return "";
}

MakespanPlan plan_broadcast_fnf(const Cluster& cluster, ProcessorIndex source) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "fnf";
  plan.root = source;
  std::vector<ProcessorIndex> receivers;
  receivers.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  plan.transfers = fnf_transfers(cluster, source, receivers);
  plan.makespan = last_completion(plan.transfers);
  const bool source_is_fastest = cluster.transmission_time(source) <= cluster.fastest_time() + cluster.tolerance();
  plan.guarantee = Guarantee::at_most(source_is_fastest ? 1.5 : 2.0);
  // A theorem proves the optimum equals FNF's makespan; otherwise the
  // closed-form bound of bounds.h (which may still meet it).
  const std::string theorem = fnf_optimality(cluster, source);
  settle_claims(plan, theorem.empty() ? broadcast_lower_bound(cluster, source) : plan.makespan, cluster.tolerance(),
                theorem.empty() ? std::string(kBoundMetProof) : theorem);
  if (!source_is_fastest && !plan.optimal) {
    plan.notes.push_back("the source is not a fastest processor: FNF is within 2 x optimal (Liu 2002 Thm 4.7), "
                         "not the 1.5 of a fastest source");
  }
  return plan;
}

}  // namespace hetcoll
