#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <span>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf_internal.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/theorems.h"

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
// rule is one exact time), and the fastest time exceeds the tolerance (so a
// send made by a group always finishes after every member of the group,
// which fnf_by_class relies on): `times` ascending, and the class of each
// receiver position.
struct ExactClasses {
  std::vector<double> times;
  std::vector<std::uint8_t> of_receiver;  // per receiver position; kNotReceiving for the source (broadcasts)
  std::uint8_t of_source = 0;
};

constexpr std::uint8_t kNotReceiving = std::numeric_limits<std::uint8_t>::max();

// `count` receiver positions, `receiver_at(i)` the processor at position i
// (a broadcast passes every processor, the source included: its position is
// marked kNotReceiving).
template <class ReceiverAt>
std::optional<ExactClasses> exact_classes(const Cluster& cluster, ProcessorIndex source, std::size_t count,
                                          ReceiverAt receiver_at) {
  static_assert(kFewDistinctTimes < kNotReceiving);
  ExactClasses classes;
  std::vector<double>& found = classes.times;  // in order of discovery until sorted
  classes.of_receiver.resize(count);
  auto class_of = [&](double t) -> int {
    for (std::size_t c = 0; c < found.size(); ++c) {
      if (found[c] == t) return static_cast<int>(c);
    }
    if (found.size() == kFewDistinctTimes) return -1;
    found.push_back(t);
    return static_cast<int>(found.size()) - 1;
  };
  const int source_class = class_of(cluster.transmission_time(source));
  const double* times = cluster.transmission_times().data();
  double last_time = times[source];
  int last_class = source_class;
  for (std::size_t i = 0; i < count; ++i) {
    const double t = times[receiver_at(i)];
    if (t != last_time) {  // (runs of equal times are common: one look-up per run)
      last_class = class_of(t);
      if (last_class < 0) return std::nullopt;
      last_time = t;
    }
    classes.of_receiver[i] = static_cast<std::uint8_t>(last_class);
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
  if (!(ascending.front() > tolerance)) return std::nullopt;
  for (std::size_t r = 1; r < ascending.size(); ++r) {
    if (time_equal(ascending[r - 1], ascending[r], tolerance)) return std::nullopt;
  }
  bool renumbered = false;
  for (std::size_t c = 0; c < rank.size(); ++c) renumbered |= rank[c] != c;
  if (renumbered) {
    for (auto& c : classes.of_receiver) c = rank[c];
  }
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
    slots_.reset(new PendingSend[first_.back()]);  // (not zeroed: a slot is written before it is read)
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
  // How many entries at the front of c finish by `finish`.
  std::size_t leading(std::size_t c, double finish) const {
    const std::size_t cap = capacity(c), base = first_[c];
    std::size_t at = head_[c], n = 0;
    while (n < count_[c] && slots_[base + at].finish <= finish) {
      ++n;
      if (++at == cap) at = 0;
    }
    return n;
  }
  // The first `n` entries of c in order of sender index: sorted where they
  // lie when they do not wrap around the end of c's slots, else a sorted
  // copy in `scratch`. Either way pop() then removes them one by one.
  std::span<const PendingSend> front_by_sender(std::size_t c, std::size_t n, std::vector<PendingSend>& scratch) {
    const auto by_sender = [](const PendingSend& a, const PendingSend& b) { return a.sender < b.sender; };
    const std::size_t cap = capacity(c), base = first_[c], head = head_[c];
    std::span<PendingSend> run;
    if (head + n <= cap) {
      run = {slots_.get() + base + head, n};
    } else {
      scratch.assign(slots_.get() + base + head, slots_.get() + base + cap);
      scratch.insert(scratch.end(), slots_.get() + base, slots_.get() + base + n - (cap - head));
      run = scratch;
    }
    if (!std::is_sorted(run.begin(), run.end(), by_sender)) std::sort(run.begin(), run.end(), by_sender);
    return run;
  }

 private:
  std::size_t capacity(std::size_t c) const { return first_[c + 1] - first_[c]; }

  std::unique_ptr<PendingSend[]> slots_;
  std::vector<std::size_t> first_, head_, count_;
};

// The class-queue FNF. Receivers go fastest class first, by position within
// a class (positions are in processor index order: fnf_transfers sorts a
// list that is not); `receiver_at(i)` is the processor at position i and
// classes.of_receiver[i] its class (kNotReceiving: skipped). The receivers
// are read class by class from the positions (k passes over one byte per
// position at most), with no sorted copy of them.
// Groups: every sender finishing within the tolerance of the earliest,
// fastest class first, by index within a class. A group's senders stay in
// their queues until served (each queue's group is a run at its front,
// sorted by sender where it lies): the sends they make finish after every
// group member (the fastest time exceeds the tolerance, exact_classes), so
// they join the queues behind the group exactly as they would join the
// queues without it.
template <class ReceiverAt>
std::vector<Transfer> fnf_by_class(const Cluster& cluster, ProcessorIndex source, ReceiverAt receiver_at,
                                   double start_time, const ExactClasses& classes) {
  const std::size_t k = classes.times.size();
  std::vector<std::size_t> left(k, 0);  // receivers of each class not yet served
  for (auto c : classes.of_receiver) {
    if (c != kNotReceiving) ++left[c];
  }
  std::size_t receivers = 0;
  for (auto count : left) receivers += count;
  std::vector<std::size_t> capacity(left);
  ++capacity[classes.of_source];
  ClassQueues pending(capacity);

  const double tolerance = cluster.tolerance();
  std::vector<Transfer> transfers;
  transfers.reserve(receivers);
  pending.push(classes.of_source, {start_time + cluster.transmission_time(source), source});
  std::size_t receiver_class = 0, position = 0;  // the next receiver's class, where its search resumes
  auto next_receiver = [&]() {
    while (left[receiver_class] == 0) {
      ++receiver_class;
      position = 0;
    }
    // The next position of this class (memchr: a byte search, vectorised).
    const std::uint8_t* from = classes.of_receiver.data() + position;
    const void* found = std::memchr(from, static_cast<int>(receiver_class), classes.of_receiver.size() - position);
    position += static_cast<std::size_t>(static_cast<const std::uint8_t*>(found) - from);
    --left[receiver_class];
    return receiver_at(position++);
  };
  std::vector<std::size_t> group(k);
  std::vector<PendingSend> scratch;
  std::size_t served = 0;
  while (served < receivers) {
    double earliest = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      if (!pending.empty(c)) earliest = std::min(earliest, pending.front(c).finish);
    }
    const double group_finish = earliest + tie_tolerance(earliest, earliest, tolerance);
    for (std::size_t c = 0; c < k; ++c) group[c] = pending.leading(c, group_finish);
    for (std::size_t c = 0; c < k && served < receivers; ++c) {
      if (group[c] == 0) continue;
      const double send_time = classes.times[c];
      for (const PendingSend& in_queue : pending.front_by_sender(c, group[c], scratch)) {
        if (served == receivers) break;
        const PendingSend send = in_queue;  // (its slot is reused once popped)
        pending.pop(c);
        const ProcessorIndex receiver = next_receiver();
        ++served;
        transfers.push_back({send.sender, receiver, send.finish - send_time, send.finish, Payload::broadcast_value});
        pending.push(c, {send.finish + send_time, send.sender});
        pending.push(receiver_class, {send.finish + classes.times[receiver_class], receiver});
      }
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
    while (!senders.empty() && senders.top().finish <= group_finish + tie_tolerance(group_finish, group_finish, tolerance)) {
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

namespace {

// The class-queue FNF over a list of receivers (in index order: a sorted
// copy when the list is not), or nullopt.
std::optional<std::vector<Transfer>> by_class_over_list(const Cluster& cluster, ProcessorIndex source,
                                                        const std::vector<ProcessorIndex>& receivers,
                                                        double start_time) {
  std::vector<ProcessorIndex> sorted;
  const std::vector<ProcessorIndex>* list = &receivers;
  if (!std::is_sorted(receivers.begin(), receivers.end())) {
    sorted = receivers;
    std::sort(sorted.begin(), sorted.end());
    list = &sorted;
  }
  const auto at = [list](std::size_t i) { return (*list)[i]; };
  auto classes = exact_classes(cluster, source, list->size(), at);
  if (!classes) return std::nullopt;
  return fnf_by_class(cluster, source, at, start_time, *classes);
}

// fnf_optimality with the cluster's times given as `times`: every
// transmission time, or only their distinct values (the theorem checks
// depend on the set of values alone, theorems.h).
std::string fnf_optimality_over(const Cluster& cluster, ProcessorIndex source, const std::vector<double>& times) {
  if (cluster.size() <= 2) return "trivial: at most one message";
  const double tolerance = cluster.tolerance();
  const bool source_is_fastest = time_leq(cluster.transmission_time(source), cluster.fastest_time(), tolerance);
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

}  // namespace

std::optional<std::vector<Transfer>> fnf_transfers_by_class(const Cluster& cluster, ProcessorIndex source,
                                                            const std::vector<ProcessorIndex>& receivers,
                                                            double start_time) {
  return by_class_over_list(cluster, source, receivers, start_time);
}

std::vector<Transfer> fnf_transfers(const Cluster& cluster, ProcessorIndex source,
                                    const std::vector<ProcessorIndex>& receivers, double start_time) {
  if (auto transfers = by_class_over_list(cluster, source, receivers, start_time)) return std::move(*transfers);
  return fnf_transfers_by_heap(cluster, source, receivers, start_time);
}

std::string fnf_optimality(const Cluster& cluster, ProcessorIndex source) {
  return fnf_optimality_over(cluster, source, cluster.transmission_times());
}

MakespanPlan plan_broadcast_fnf(const Cluster& cluster, ProcessorIndex source) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "fnf";
  plan.root = source;
  // Every processor but the source receives. The class path reads them
  // from the processor indices (no list of receivers); its classes are the
  // cluster's distinct times, all the theorem checks need.
  const auto every = [](std::size_t i) { return static_cast<ProcessorIndex>(i); };
  const auto n = static_cast<std::size_t>(cluster.size());
  std::optional<std::vector<double>> distinct_times;
  if (auto classes = exact_classes(cluster, source, n, every)) {
    classes->of_receiver[static_cast<std::size_t>(source)] = kNotReceiving;
    plan.transfers = fnf_by_class(cluster, source, every, 0.0, *classes);
    distinct_times = std::move(classes->times);
  } else {
    std::vector<ProcessorIndex> receivers;
    receivers.reserve(n);
    for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
      if (p != source) receivers.push_back(p);
    }
    plan.transfers = fnf_transfers_by_heap(cluster, source, receivers, 0.0);
  }
  plan.makespan = last_completion(plan.transfers);
  const bool source_is_fastest = time_leq(cluster.transmission_time(source), cluster.fastest_time(), cluster.tolerance());
  plan.guarantee = Guarantee::at_most(source_is_fastest ? 1.5 : 2.0);
  // A theorem proves the optimum equals FNF's makespan; otherwise the
  // closed-form bound of bounds.h (which may still meet it).
  const std::string theorem =
      fnf_optimality_over(cluster, source, distinct_times ? *distinct_times : cluster.transmission_times());
  settle_claims(plan, theorem.empty() ? broadcast_lower_bound(cluster, source) : plan.makespan, cluster.tolerance(),
                theorem.empty() ? std::string(kBoundMetProof) : theorem);
  if (!source_is_fastest && !plan.optimal) {
    plan.notes.push_back("the source is not a fastest processor: FNF is within 2 x optimal (Liu 2002 Thm 4.7), "
                         "not the 1.5 of a fastest source");
  }
  return plan;
}

}  // namespace hetcoll
