#include "hetcoll/sim/periodic_simulator.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/model/steady_platform.h"

namespace hetcoll {

namespace {

// One buffer: the messages of one type (and tree) on one node.
struct Buffer {
  Rational received;  // everything that arrived (or was released, or computed) so far
  Rational used;      // sent on or consumed by tasks
  Rational available() const {
    const Rational whole(floor_of(received));
    return whole > used ? Rational(whole - used) : Rational(0);
  }
};

struct Delivery {
  Rational time;
  std::size_t buffer;
  Rational amount;
  bool operator>(const Delivery& other) const { return time > other.time; }
};

class PeriodicSimulation {
 public:
  PeriodicSimulation(const Platform& platform, const PeriodicPlan& plan, const PeriodicSimulationOptions& options)
      : platform_(platform), plan_(plan), options_(options),
        view_(make_steady_platform(platform, options.message_size ? options.message_size : plan.message_size)) {}

  PeriodicSimulationResult run() {
    result_.operations = options_.operations;
    if (plan_.period < 1 || plan_.operations_per_period < 1) throw InputError("simulate: the plan completes no operation per period");
    prepare();
    const Rational period(plan_.period);
    const std::uint64_t estimate =
        options_.operations / std::max<std::uint64_t>(1, plan_.operations_per_period.fits_ulong_p()
                                                             ? plan_.operations_per_period.get_ui()
                                                             : options_.operations) + 10;
    const std::uint64_t sample_every = std::max<std::uint64_t>(1, estimate / std::max<std::size_t>(1, options_.max_samples));
    std::uint64_t idle_periods = 0;
    for (std::uint64_t p = 0; p < options_.max_periods && completed_ < options_.operations; ++p) {
      result_.periods = p + 1;
      const Rational start = Rational(BigInteger(std::to_string(p))) * period;
      bool active = release();
      deliver_until(start);
      active = compute(start + period) || active;
      Rational slot_start = start;
      for (const auto& slot : plan_.slots) {
        deliver_until(slot_start);
        if (completed_ >= options_.operations) break;
        for (const auto& transfer : slot.transfers) active = send(transfer, slot_start, slot.length) || active;
        slot_start += slot.length;
      }
      deliver_until(start + period);
      if (p % sample_every == 0 || completed_ >= options_.operations) {
        result_.progress.emplace_back(finished_ ? result_.makespan : Rational(start + period), completed_);
      }
      if (!active && pending_.empty() && released_ >= options_.operations) {
        if (++idle_periods > 2) break;  // nothing can move any more
      } else {
        idle_periods = 0;
      }
    }
    result_.completed = completed_;
    result_.finished = completed_ >= options_.operations;
    if (result_.finished && result_.makespan > 0) {
      result_.measured_throughput = Rational(BigInteger(std::to_string(options_.operations))) / result_.makespan;
      result_.ratio = to_double(result_.measured_throughput / plan_.throughput);
    }
    return result_;
  }

 private:
  std::size_t buffer(ProcessorIndex node, const MessageType& type, int tree) {
    auto [it, inserted] = index_.try_emplace({node, type, tree}, buffers_.size());
    if (inserted) buffers_.emplace_back();
    return it->second;
  }

  int tree_of(int tree) const {
    if (tree >= 0 && tree < static_cast<int>(plan_.trees.size())) return tree;
    if (tree < 0 && plan_.trees.size() == 1) return 0;
    throw InputError(fmt::format("simulate: a {} plan must name the tree of every transfer{}", to_string(plan_.operation),
                                 plan_.operation == SteadyOperation::reduce ? " and task" : ""));
  }

  // Broadcast: a tree's slices are released on the source and copied, not
  // moved: a node forwards each slice once per child edge, so what it may
  // still send is counted per (buffer, receiver).
  bool broadcast() const { return plan_.operation == SteadyOperation::broadcast; }

  void prepare() {
    if (broadcast()) {
      if (plan_.trees.empty()) throw InputError("simulate: a broadcast plan needs its trees");
      for (std::size_t t = 0; t < plan_.trees.size(); ++t) {
        tree_leaves_.push_back({buffer(plan_.root, MessageType::broadcast(), static_cast<int>(t))});
        tree_share_.push_back(floor_of(plan_.trees[t].weight * Rational(plan_.period)));
        std::vector<std::size_t> targets;
        for (auto w : plan_.targets) targets.push_back(buffer(w, MessageType::broadcast(), static_cast<int>(t)));
        tree_targets_.push_back(std::move(targets));
      }
      tree_done_.assign(plan_.trees.size(), 0);
    } else if (plan_.operation == SteadyOperation::reduce) {
      const int count = static_cast<int>(plan_.participants.size());
      for (std::size_t t = 0; t < plan_.trees.size(); ++t) {
        std::vector<std::size_t> leaves;
        for (int r = 0; r < count; ++r) {
          leaves.push_back(buffer(plan_.participants[static_cast<std::size_t>(r)], MessageType::partial(r, r), static_cast<int>(t)));
        }
        tree_leaves_.push_back(std::move(leaves));
        tree_result_.push_back(buffer(plan_.root, MessageType::partial(0, count - 1), static_cast<int>(t)));
        tree_share_.push_back(floor_of(plan_.trees[t].weight * Rational(plan_.period)));
      }
      if (plan_.trees.empty()) throw InputError("simulate: a reduce plan needs its reduction trees");
    } else {
      const auto sources = plan_.operation == SteadyOperation::scatter ? std::vector<ProcessorIndex>{plan_.root} : plan_.sources;
      for (auto s : sources) {
        for (auto t : plan_.targets) {
          if (s == t) continue;
          const auto type = MessageType::personal(s, t);
          pair_source_.push_back(buffer(s, type, -1));
          pair_target_.push_back(buffer(t, type, -1));
        }
      }
      pair_done_.assign(pair_target_.size(), 0);
      at_minimum_ = pair_target_.size();
    }
    for (const auto& slot : plan_.slots) {
      for (const auto& transfer : slot.transfers) {
        if (!view_.edge_between(transfer.from, transfer.to)) {
          throw InputError("simulate: the platform has no edge " + platform_.id(transfer.from) + " -> " +
                           platform_.id(transfer.to));
        }
      }
    }
  }

  // Puts the next operations_per_period operations (or what is left of K)
  // on their sources.
  bool release() {
    if (released_ >= options_.operations) return false;
    const std::uint64_t left = options_.operations - released_;
    if (plan_.operation == SteadyOperation::reduce || broadcast()) {
      std::uint64_t given = 0;
      for (std::size_t t = 0; t < tree_share_.size() && given < left; ++t) {
        const BigInteger share = std::min(tree_share_[t], BigInteger(std::to_string(left - given)));
        for (auto leaf : tree_leaves_[t]) buffers_[leaf].received += Rational(share);
        given += share.get_ui();
      }
      released_ += given;
    } else {
      const BigInteger per_period = plan_.operations_per_period;
      const std::uint64_t now = per_period.fits_ulong_p() ? std::min<std::uint64_t>(left, per_period.get_ui()) : left;
      for (auto source : pair_source_) buffers_[source].received += Rational(BigInteger(std::to_string(now)));
      released_ += now;
    }
    return true;
  }

  bool compute(const Rational& period_end) {
    bool active = false;
    for (const auto& task : plan_.computations) {
      const int tree = tree_of(task.tree);
      const auto left = buffer(task.node, MessageType::partial(task.first, task.split), tree);
      const auto right = buffer(task.node, MessageType::partial(task.split + 1, task.last), tree);
      Rational amount = std::min({task.count, buffers_[left].available(), buffers_[right].available()});
      amount = Rational(floor_of(amount));
      if (amount <= 0) continue;
      buffers_[left].used += amount;
      buffers_[right].used += amount;
      pending_.push({period_end, buffer(task.node, MessageType::partial(task.first, task.last), tree), amount});
      active = true;
    }
    return active;
  }

  bool send(const PeriodicTransfer& transfer, const Rational& slot_start, const Rational& length) {
    const int tree = plan_.operation == SteadyOperation::reduce || broadcast() ? tree_of(transfer.tree) : -1;
    const auto source_buffer = buffer(transfer.from, transfer.type, tree);
    auto& from = buffers_[source_buffer];
    if (broadcast()) {
      auto& forwarded = forwarded_[{source_buffer, transfer.to}];
      const Rational whole(floor_of(from.received));
      const Rational amount = std::min(transfer.messages, whole > forwarded ? Rational(whole - forwarded) : Rational(0));
      if (amount <= 0) return false;
      forwarded += amount;
      return deliver_later(transfer, slot_start, length, tree, amount);
    }
    const Rational amount = std::min(transfer.messages, from.available());
    if (amount <= 0) return false;
    from.used += amount;
    return deliver_later(transfer, slot_start, length, tree, amount);
  }

  bool deliver_later(const PeriodicTransfer& transfer, const Rational& slot_start, const Rational& length, int tree,
                     const Rational& amount) {
    const auto e = *view_.edge_between(transfer.from, transfer.to);
    const bool port = view_.cost[e] > 0 && (view_.one_port[static_cast<std::size_t>(transfer.from)] ||
                                            view_.one_port[static_cast<std::size_t>(transfer.to)]);
    const Rational arrival = port ? Rational(slot_start + length) : Rational(slot_start + view_.cost[e]);
    pending_.push({arrival, buffer(transfer.to, transfer.type, tree), amount});
    return true;
  }

  void deliver_until(const Rational& time) {
    while (!pending_.empty() && pending_.top().time <= time) {
      const Delivery delivery = pending_.top();
      pending_.pop();
      buffers_[delivery.buffer].received += delivery.amount;
      note_completions(delivery.buffer, delivery.time);
    }
  }

  void note_completions(std::size_t changed, const Rational& time) {
    const std::uint64_t before = completed_;
    if (broadcast()) {
      // A tree's slices go out in order, so its first k are everywhere once
      // every target holds k of them.
      for (std::size_t t = 0; t < tree_targets_.size(); ++t) {
        if (std::find(tree_targets_[t].begin(), tree_targets_[t].end(), changed) == tree_targets_[t].end()) continue;
        BigInteger least = floor_of(buffers_[tree_targets_[t].front()].received);
        for (auto target : tree_targets_[t]) least = std::min(least, floor_of(buffers_[target].received));
        completed_ = completed_ - tree_done_[t] + least.get_ui();
        tree_done_[t] = least.get_ui();
      }
    } else if (plan_.operation == SteadyOperation::reduce) {
      if (std::find(tree_result_.begin(), tree_result_.end(), changed) == tree_result_.end()) return;
      std::uint64_t total = 0;
      for (auto result : tree_result_) total += floor_of(buffers_[result].received).get_ui();
      completed_ = total;
    } else {
      // completed_ = the smallest count over the pairs; at_minimum_ counts
      // the pairs at that smallest count.
      for (std::size_t k = 0; k < pair_target_.size(); ++k) {
        if (pair_target_[k] != changed) continue;
        const std::uint64_t whole = floor_of(buffers_[changed].received).get_ui();
        if (pair_done_[k] == completed_ && whole > completed_) --at_minimum_;
        pair_done_[k] = whole;
      }
      if (at_minimum_ == 0) {
        completed_ = *std::min_element(pair_done_.begin(), pair_done_.end());
        at_minimum_ = static_cast<std::size_t>(std::count(pair_done_.begin(), pair_done_.end(), completed_));
      }
    }
    if (completed_ > before) {
      if (before == 0) result_.first_completion = time;
      if (completed_ >= options_.operations && !finished_) {
        result_.makespan = time;
        finished_ = true;
      }
    }
  }

  const Platform& platform_;
  const PeriodicPlan& plan_;
  PeriodicSimulationOptions options_;
  SteadyPlatform view_;
  PeriodicSimulationResult result_;
  std::map<std::tuple<ProcessorIndex, MessageType, int>, std::size_t> index_;
  std::vector<Buffer> buffers_;
  std::priority_queue<Delivery, std::vector<Delivery>, std::greater<Delivery>> pending_;
  std::uint64_t released_ = 0;
  std::uint64_t completed_ = 0;
  bool finished_ = false;
  // scatter / gossip
  std::vector<std::size_t> pair_source_;
  std::vector<std::size_t> pair_target_;
  std::vector<std::uint64_t> pair_done_;
  std::size_t at_minimum_ = 0;
  // reduce
  std::vector<std::vector<std::size_t>> tree_leaves_;
  std::vector<std::size_t> tree_result_;
  std::vector<BigInteger> tree_share_;
  // broadcast (tree_leaves_ and tree_share_: the source's buffer and share per tree)
  std::vector<std::vector<std::size_t>> tree_targets_;
  std::vector<std::uint64_t> tree_done_;
  std::map<std::pair<std::size_t, ProcessorIndex>, Rational> forwarded_;
};

}  // namespace

PeriodicSimulationResult simulate_periodic_plan(const Platform& platform, const PeriodicPlan& plan,
                                                const PeriodicSimulationOptions& options) {
  return PeriodicSimulation(platform, plan, options).run();
}

std::string simulation_result_json(const PeriodicSimulationResult& result) {
  nlohmann::json progress = nlohmann::json::array();
  for (const auto& [time, done] : result.progress) progress.push_back({to_double(time), done});
  nlohmann::json document = {{"operations", result.operations},
                             {"completed", result.completed},
                             {"finished", result.finished},
                             {"makespan", to_string(result.makespan)},
                             {"makespan_value", to_double(result.makespan)},
                             {"first_completion", to_string(result.first_completion)},
                             {"first_completion_value", to_double(result.first_completion)},
                             {"measured_throughput", to_string(result.measured_throughput)},
                             {"measured_throughput_value", to_double(result.measured_throughput)},
                             {"ratio", result.ratio},
                             {"periods", result.periods},
                             {"progress", progress}};
  return document.dump();
}

std::optional<std::string> short_run_caveat(const PeriodicPlan& plan, std::uint64_t operations) {
  if (BigInteger(static_cast<unsigned long>(operations)) >= 10 * plan.operations_per_period) return std::nullopt;
  std::string per_period = to_string(plan.operations_per_period);
  if (per_period.size() > 15) per_period = fmt::format("{}... ({} digits)", per_period.substr(0, 6), per_period.size());
  return fmt::format("K = {} is less than 10 periods' worth of operations ({} per period): start-up and clean-up "
                     "dominate, so the ratio says little about the steady state",
                     operations, per_period);
}

}  // namespace hetcoll
