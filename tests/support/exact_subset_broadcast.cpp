#include "support/exact_subset_broadcast.h"

#include <algorithm>
#include <queue>

namespace hetcoll::testing {

namespace {

struct Holder {
  double next_finish;  // when its next send would end
  double send_time;
};

class OrderSearch {
 public:
  OrderSearch(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& receivers,
              double incumbent)
      : cluster_(cluster), source_(source), best_(incumbent) {
    tolerance_ = cluster.tolerance();
    std::vector<ProcessorIndex> sorted = receivers;
    std::stable_sort(sorted.begin(), sorted.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
      return ta != tb ? ta < tb : a < b;
    });
    for (ProcessorIndex p : sorted) {
      double t = cluster.transmission_time(p);
      if (class_time_.empty() || t > class_time_.back() + tolerance_) {
        class_time_.push_back(t);
        class_members_.push_back({});
      }
      class_members_.back().push_back(p);
    }
    remaining_.resize(class_time_.size());
    for (size_t c = 0; c < class_time_.size(); ++c) remaining_[c] = static_cast<int>(class_members_[c].size());
    total_ = static_cast<int>(sorted.size());
  }

  SubsetSearchResult run() {
    holders_.push_back({cluster_.transmission_time(source_), cluster_.transmission_time(source_)});
    search(0.0);
    SubsetSearchResult result;
    result.nodes = nodes_;
    if (!best_order_.empty() || total_ == 0) {
      result.transfers = replay();
      result.makespan = last_completion(result.transfers);
    }
    return result;
  }

 private:
  // Every remaining receiver as fast as the fastest remaining one.
  double relaxed_completion(int left, double makespan) {
    double fastest_left = 0;
    for (size_t c = 0; c < remaining_.size(); ++c) {
      if (remaining_[c] > 0) {
        fastest_left = class_time_[c];
        break;
      }
    }
    std::priority_queue<std::pair<double, double>, std::vector<std::pair<double, double>>, std::greater<>> heap;
    for (const auto& holder : holders_) heap.push({holder.next_finish, holder.send_time});
    double last = makespan;
    for (int i = 0; i < left; ++i) {
      auto [finish, send_time] = heap.top();
      heap.pop();
      last = std::max(last, finish);
      if (last >= best_ - tolerance_) return last;
      heap.push({finish + send_time, send_time});
      heap.push({finish + fastest_left, fastest_left});
    }
    return last;
  }

  void search(double makespan) {
    ++nodes_;
    const int left = total_ - static_cast<int>(order_.size());
    if (left == 0) {
      if (makespan < best_ - tolerance_) {
        best_ = makespan;
        best_order_ = order_;
      }
      return;
    }
    if (relaxed_completion(left, makespan) >= best_ - tolerance_) return;
    size_t sender = 0;
    for (size_t h = 1; h < holders_.size(); ++h) {
      if (holders_[h].next_finish < holders_[sender].next_finish) sender = h;
    }
    const double finish = holders_[sender].next_finish;
    const double next_makespan = std::max(makespan, finish);
    for (size_t c = 0; c < class_time_.size(); ++c) {
      if (remaining_[c] == 0) continue;
      --remaining_[c];
      holders_[sender].next_finish += holders_[sender].send_time;
      holders_.push_back({finish + class_time_[c], class_time_[c]});
      order_.push_back(static_cast<int>(c));
      search(next_makespan);
      order_.pop_back();
      holders_.pop_back();
      holders_[sender].next_finish = finish;
      ++remaining_[c];
    }
  }

  // The best order with real processors, each served by the holder that
  // finishes first (ties: faster holder, then lower index).
  std::vector<Transfer> replay() const {
    struct Real {
      double next_finish;
      ProcessorIndex processor;
    };
    std::vector<Real> holders{{cluster_.transmission_time(source_), source_}};
    std::vector<int> used;
    used.resize(class_time_.size());
    std::vector<Transfer> transfers;
    for (int c : best_order_) {
      size_t sender = 0;
      for (size_t h = 1; h < holders.size(); ++h) {
        if (holders[h].next_finish < holders[sender].next_finish) sender = h;
      }
      const ProcessorIndex receiver = class_members_[static_cast<size_t>(c)][static_cast<size_t>(used[static_cast<size_t>(c)]++)];
      const double send_time = cluster_.transmission_time(holders[sender].processor);
      const double finish = holders[sender].next_finish;
      transfers.push_back({holders[sender].processor, receiver, finish - send_time, finish, Payload::broadcast_value});
      holders[sender].next_finish += send_time;
      holders.push_back({finish + cluster_.transmission_time(receiver), receiver});
    }
    return transfers;
  }

  const Cluster& cluster_;
  ProcessorIndex source_;
  double tolerance_ = 0;
  std::vector<double> class_time_;
  std::vector<std::vector<ProcessorIndex>> class_members_;
  std::vector<int> remaining_;
  int total_ = 0;
  std::vector<Holder> holders_;
  std::vector<int> order_, best_order_;
  double best_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

SubsetSearchResult exact_subset_broadcast(const Cluster& cluster, ProcessorIndex source,
                                          const std::vector<ProcessorIndex>& receivers, double incumbent) {
  return OrderSearch(cluster, source, receivers, incumbent).run();
}

}  // namespace hetcoll::testing
