#include "hetcoll/makespan/broadcast/fnf.h"

#include <algorithm>
#include <queue>

#include "hetcoll/makespan/bounds.h"
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

}  // namespace

std::vector<Transfer> fnf_transfers(const Cluster& cluster, ProcessorIndex source,
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
