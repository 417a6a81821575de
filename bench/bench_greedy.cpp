// Scale of the greedy planners: FNF broadcast, SNF reduce, all-reduce and the
// verifier, from a thousand to a million processors (5 classes of times).
// Run: build/release/bench/bench_greedy --benchmark_min_time=1
// The target: plan and verify one million processors in about a second.
// BM_MinimalFnf / BM_MinimalFnfPerClass and BM_MinimalSnf /
// BM_MinimalSnfPerClass are the yardsticks of issue 13: read BM_FnfBroadcast
// and BM_SnfReduce against them (greedy within 1.1x of the minimal code).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <sstream>
#include <vector>

#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"

namespace {

hetcoll::Cluster cluster_of(std::int64_t n) {
  hetcoll::ClusterGeneratorOptions options;
  options.processors = static_cast<int>(n);
  options.classes = 5;
  options.min_time = 1.0;
  options.max_time = 8.0;
  options.seed = 42;
  return hetcoll::generate_cluster(options);
}

void BM_FnfBroadcast(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_broadcast_fnf(cluster, 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_SnfReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_reduce_snf(cluster, 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_AllReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_allreduce_snf_fnf(cluster, hetcoll::kNoProcessor));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_VerifyBroadcast(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_VerifyReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_reduce_snf(cluster, 0);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_PlanAndVerifyFnf(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) {
    auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
    benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_WritePlanJson(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
  for (auto _ : state) {
    std::ostringstream out;
    hetcoll::write_plan_json(out, plan, cluster, {true, true});
    benchmark::DoNotOptimize(out.tellp());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}


// The yardsticks of issue 13 ("greedy planners within 1.1x of the minimal
// implementation"): the least code that computes an FNF schedule of these
// clusters — receivers sorted fastest first, a priority queue of
// (finish, sender time, sender), one transfer per receiver — with no
// tolerance groups, no bounds and no claims; and the same with one FIFO per
// distinct time (exact times; finish times within a FIFO only grow).
struct MinimalSend {
  double finish, time;
  int sender;
  bool operator>(const MinimalSend& other) const {
    if (finish != other.finish) return finish > other.finish;
    return time != other.time ? time > other.time : sender > other.sender;
  }
};

std::vector<hetcoll::Transfer> minimal_fnf(const std::vector<double>& t, int source) {
  std::vector<int> receivers;
  receivers.reserve(t.size());
  for (int p = 0; p < static_cast<int>(t.size()); ++p) {
    if (p != source) receivers.push_back(p);
  }
  std::sort(receivers.begin(), receivers.end(), [&](int a, int b) { return t[a] != t[b] ? t[a] < t[b] : a < b; });
  std::priority_queue<MinimalSend, std::vector<MinimalSend>, std::greater<>> senders;
  senders.push({t[source], t[source], source});
  std::vector<hetcoll::Transfer> transfers;
  transfers.reserve(receivers.size());
  for (int receiver : receivers) {
    const MinimalSend send = senders.top();
    senders.pop();
    transfers.push_back({send.sender, receiver, send.finish - send.time, send.finish});
    senders.push({send.finish + send.time, send.time, send.sender});
    senders.push({send.finish + t[receiver], t[receiver], receiver});
  }
  return transfers;
}

// The per-class yardsticks' classes: the distinct times ascending, each
// processor's class, and each class's members but `except` (in id order).
struct MinimalClasses {
  std::vector<double> times;
  std::vector<std::uint8_t> cls;
  std::vector<std::vector<int>> members;
};
MinimalClasses minimal_classes(const std::vector<double>& t, int except) {
  MinimalClasses c{t, std::vector<std::uint8_t>(t.size()), {}};
  std::sort(c.times.begin(), c.times.end());
  c.times.erase(std::unique(c.times.begin(), c.times.end()), c.times.end());
  c.members.resize(c.times.size());
  for (int p = 0; p < static_cast<int>(t.size()); ++p) {
    c.cls[p] = static_cast<std::uint8_t>(std::lower_bound(c.times.begin(), c.times.end(), t[p]) - c.times.begin());
    if (p != except) c.members[c.cls[p]].push_back(p);
  }
  return c;
}

std::vector<hetcoll::Transfer> minimal_fnf_per_class(const std::vector<double>& t, int source) {
  auto [times, cls, members] = minimal_classes(t, source);
  std::vector<std::deque<std::pair<double, int>>> queues(times.size());
  queues[cls[source]].push_back({t[source], source});
  std::vector<hetcoll::Transfer> transfers;
  transfers.reserve(t.size());
  for (const auto& group : members) {
    for (int receiver : group) {
      std::size_t best = 0;
      for (std::size_t c = 1; c < queues.size(); ++c) {
        if (!queues[c].empty() && (queues[best].empty() || queues[c].front().first < queues[best].front().first)) best = c;
      }
      const auto [finish, sender] = queues[best].front();
      queues[best].pop_front();
      transfers.push_back({sender, receiver, finish - times[best], finish});
      queues[best].push_back({finish + times[best], sender});
      queues[cls[receiver]].push_back({finish + times[cls[receiver]], receiver});
    }
  }
  return transfers;
}

// The same for SNF (issue 13): the least code that computes an SNF reduce
// schedule of these clusters — senders slowest first (by index among equal
// times), each send started as soon as two processors are free (EP: a
// send consumes two free tokens and its receiver leaves one when it
// completes), receivers by Liu, Kuo, Wang 2009 Lemma 1 (top-down over the
// tokens, the last send's receiver the root), one transfer per sender —
// with no tolerance groups, no order check, no bounds and no claims. Active
// sends in a priority queue of (completion, send), or with one FIFO per
// distinct time (a class's sends complete in the order they started).
struct MinimalActive {
  double completion;
  int send;
  bool operator>(const MinimalActive& other) const {
    return completion != other.completion ? completion > other.completion : send > other.send;
  }
};

// Lemma 1: receivers from the tokens each send consumed (-1: an initial
// token), the last-completing send's receiver the root.
void minimal_lemma1(std::vector<hetcoll::Transfer>& transfers, const std::vector<std::array<int, 2>>& consumed,
                    int root) {
  if (transfers.empty()) return;
  std::size_t last = 0;
  for (std::size_t i = 1; i < transfers.size(); ++i) {
    if (transfers[i].end >= transfers[last].end) last = i;
  }
  transfers[last].to = root;
  for (std::size_t j = transfers.size(); j-- > 0;) {
    if (consumed[j][0] >= 0) transfers[static_cast<std::size_t>(consumed[j][0])].to = transfers[j].to;
    if (consumed[j][1] >= 0) transfers[static_cast<std::size_t>(consumed[j][1])].to = transfers[j].from;
  }
}

std::vector<hetcoll::Transfer> minimal_snf(const std::vector<double>& t, int root) {
  std::vector<int> order;
  order.reserve(t.size());
  for (int p = 0; p < static_cast<int>(t.size()); ++p) {
    if (p != root) order.push_back(p);
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) { return t[a] != t[b] ? t[a] > t[b] : a < b; });
  std::vector<hetcoll::Transfer> transfers;
  transfers.reserve(order.size());
  std::vector<std::array<int, 2>> consumed(order.size());
  std::priority_queue<MinimalActive, std::vector<MinimalActive>, std::greater<>> active;
  std::size_t initial = t.size();
  std::deque<int> tokens;
  double now = 0;
  for (std::size_t next = 0; next < order.size();) {
    while (next < order.size() && initial + tokens.size() >= 2) {
      for (int side = 0; side < 2; ++side) {
        if (initial > 0) {
          --initial;
          consumed[next][side] = -1;
        } else {
          consumed[next][side] = tokens.front();
          tokens.pop_front();
        }
      }
      transfers.push_back({order[next], -1, now, now + t[order[next]], hetcoll::Payload::partial_reduction});
      active.push({now + t[order[next]], static_cast<int>(next)});
      ++next;
    }
    if (next == order.size()) break;
    now = active.top().completion;
    tokens.push_back(active.top().send);
    active.pop();
  }
  minimal_lemma1(transfers, consumed, root);
  return transfers;
}

std::vector<hetcoll::Transfer> minimal_snf_per_class(const std::vector<double>& t, int root) {
  auto [times, cls, members] = minimal_classes(t, root);
  std::vector<hetcoll::Transfer> transfers;
  transfers.reserve(t.size());
  std::vector<std::array<int, 2>> consumed(t.size());
  std::vector<std::deque<std::pair<double, int>>> active(times.size());
  std::size_t initial = t.size();
  std::deque<int> tokens;
  double now = 0;
  std::size_t senders = t.size() - 1, next = 0;
  for (std::size_t c = times.size(); c-- > 0;) {  // slowest class first
    for (int sender : members[c]) {
      while (initial + tokens.size() < 2) {  // complete the earliest active send
        std::size_t best = times.size();
        for (std::size_t a = 0; a < active.size(); ++a) {
          if (!active[a].empty() && (best == times.size() || active[a].front().first < active[best].front().first)) {
            best = a;
          }
        }
        now = active[best].front().first;
        tokens.push_back(active[best].front().second);
        active[best].pop_front();
      }
      for (int side = 0; side < 2; ++side) {
        if (initial > 0) {
          --initial;
          consumed[next][side] = -1;
        } else {
          consumed[next][side] = tokens.front();
          tokens.pop_front();
        }
      }
      transfers.push_back({sender, -1, now, now + times[c], hetcoll::Payload::partial_reduction});
      active[c].push_back({now + times[c], static_cast<int>(next)});
      ++next;
    }
  }
  consumed.resize(senders);
  minimal_lemma1(transfers, consumed, root);
  return transfers;
}

void BM_MinimalSnf(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(minimal_snf(cluster.transmission_times(), 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_MinimalSnfPerClass(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(minimal_snf_per_class(cluster.transmission_times(), 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_MinimalFnf(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(minimal_fnf(cluster.transmission_times(), 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_MinimalFnfPerClass(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(minimal_fnf_per_class(cluster.transmission_times(), 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

#define HETCOLL_SIZES ->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_FnfBroadcast) HETCOLL_SIZES;
BENCHMARK(BM_MinimalFnf) HETCOLL_SIZES;
BENCHMARK(BM_MinimalFnfPerClass) HETCOLL_SIZES;
BENCHMARK(BM_SnfReduce) HETCOLL_SIZES;
BENCHMARK(BM_MinimalSnf) HETCOLL_SIZES;
BENCHMARK(BM_MinimalSnfPerClass) HETCOLL_SIZES;
BENCHMARK(BM_AllReduce) HETCOLL_SIZES;
BENCHMARK(BM_VerifyBroadcast) HETCOLL_SIZES;
BENCHMARK(BM_VerifyReduce) HETCOLL_SIZES;
BENCHMARK(BM_PlanAndVerifyFnf) HETCOLL_SIZES;
BENCHMARK(BM_WritePlanJson) HETCOLL_SIZES;
