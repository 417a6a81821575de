#include "hetcoll/sim/program_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace hetcoll::sim {
namespace {

constexpr double kNeverSeconds = std::numeric_limits<double>::infinity();
constexpr double kUnknownSeconds = std::numeric_limits<double>::quiet_NaN();

struct SimulatedMessage {
  int from = 0, to = 0;
  std::uint32_t send_step = 0, receive_step = 0;
  double bytes = 0;
  bool detached = false;
  double send_posted = kUnknownSeconds, receive_posted = kUnknownSeconds;
  enum class State : std::uint8_t { unposted, latency, flowing, done } state = State::unposted;
  double flows_at = 0;    // end of the latency phase
  double remaining = 0;   // bytes still to flow
  double rate = 0;        // bytes/second while flowing
  double weight = 1;      // 1 / CM02 sharing penalty
  double started = kUnknownSeconds, arrived = kUnknownSeconds;
};

class Simulation {
 public:
  Simulation(const CommProgram& program, const FlowNetwork& network, std::size_t element_bytes,
             const FlowModelOptions& options)
      : program_(program), network_(network), options_(options) {
    const auto ranks = static_cast<std::size_t>(program.ranks);
    message_of_step_.resize(ranks);
    completed_at_.resize(ranks);
    pc_.assign(ranks, 0);
    busy_until_.assign(ranks, 0);
    finish_.assign(ranks, kUnknownSeconds);
    // Static matching: the k-th send a -> b meets the k-th receive at b from a.
    std::map<std::pair<int, int>, std::vector<std::size_t>> pending_sends;
    std::map<std::pair<int, int>, std::size_t> receives_seen;
    for (int r = 0; r < program.ranks; ++r) {
      const auto& steps = program.steps[static_cast<std::size_t>(r)];
      message_of_step_[static_cast<std::size_t>(r)].assign(steps.size(), kNone);
      completed_at_[static_cast<std::size_t>(r)].assign(steps.size(), kUnknownSeconds);
      for (std::uint32_t s = 0; s < steps.size(); ++s) {
        if (steps[s].kind != ProgramStep::Kind::send) continue;
        SimulatedMessage message;
        message.from = r;
        message.to = steps[s].peer;
        message.send_step = s;
        message.bytes = static_cast<double>(steps[s].data.count * element_bytes) + options.envelope_bytes;
        message.detached = !steps[s].synchronous && message.bytes < options.detached_below_bytes;
        const auto& path = network.path(static_cast<std::size_t>(r), static_cast<std::size_t>(message.to));
        message.weight = path.latency > 0 ? 1 / path.latency : 1;
        message_of_step_[static_cast<std::size_t>(r)][s] = messages_.size();
        pending_sends[{r, message.to}].push_back(messages_.size());
        messages_.push_back(message);
      }
    }
    for (int r = 0; r < program.ranks; ++r) {
      const auto& steps = program.steps[static_cast<std::size_t>(r)];
      for (std::uint32_t s = 0; s < steps.size(); ++s) {
        if (steps[s].kind != ProgramStep::Kind::receive) continue;
        const std::pair<int, int> channel{steps[s].peer, r};
        const std::size_t k = receives_seen[channel]++;
        auto found = pending_sends.find(channel);
        if (found == pending_sends.end() || k >= found->second.size()) continue;  // never arrives
        const std::size_t m = found->second[k];
        messages_[m].receive_step = s;
        message_of_step_[static_cast<std::size_t>(r)][s] = m;
      }
    }
  }

  ProgramTiming run() {
    double now = 0;
    settle(now);
    for (;;) {
      if (rates_stale_) compute_rates();
      double next = kNeverSeconds;
      for (auto m : active_) {
        const SimulatedMessage& message = messages_[m];
        if (message.state == SimulatedMessage::State::latency) next = std::min(next, message.flows_at);
        if (message.state == SimulatedMessage::State::flowing) next = std::min(next, now + message.remaining / message.rate);
      }
      for (std::size_t r = 0; r < busy_until_.size(); ++r) {
        if (busy_until_[r] > now) next = std::min(next, busy_until_[r]);
      }
      if (next == kNeverSeconds) break;
      const double elapsed = next - now;
      now = next;
      for (auto m : active_) {
        SimulatedMessage& message = messages_[m];
        if (message.state != SimulatedMessage::State::flowing) continue;
        if (message.rate == kNeverSeconds) {
          message.remaining = 0;
          continue;
        }
        message.remaining -= message.rate * elapsed;
        // Ends now when what is left would take a negligible time.
        if (message.remaining <= 1e-9 * std::max(message.bytes, 1.0) ||
            message.remaining / message.rate <= 1e-12 * std::max(now, 1e-9)) {
          message.remaining = 0;
        }
      }
      settle(now);
    }
    ProgramTiming timing;
    timing.messages = messages_.size();
    timing.message_times.reserve(messages_.size());
    for (const auto& message : messages_) {
      timing.message_times.push_back({message.from, message.to, message.started, message.arrived, message.bytes});
    }
    timing.rank_finish.resize(finish_.size());
    for (std::size_t r = 0; r < finish_.size(); ++r) {
      if (std::isnan(finish_[r])) {
        timing.stuck_ranks.push_back(static_cast<int>(r));
        timing.rank_finish[r] = kNeverSeconds;
      } else {
        timing.rank_finish[r] = finish_[r];
        timing.makespan = std::max(timing.makespan, finish_[r]);
      }
    }
    if (!timing.completed()) timing.makespan = kNeverSeconds;
    return timing;
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  // Applies everything that happens at `now` until nothing changes.
  void settle(double now) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int r = 0; r < program_.ranks; ++r) changed |= advance(r, now);
      for (auto m : active_) {
        SimulatedMessage& message = messages_[m];
        if (message.state == SimulatedMessage::State::latency && message.flows_at <= now) {
          message.state = SimulatedMessage::State::flowing;
          rates_stale_ = true;
          changed = true;
        }
        if (message.state == SimulatedMessage::State::flowing && (message.remaining <= 0 || message.rate == kNeverSeconds)) {
          message.state = SimulatedMessage::State::done;
          message.remaining = 0;
          message.arrived = now;
          completed_at_[static_cast<std::size_t>(message.to)][message.receive_step] = now;
          if (!message.detached) completed_at_[static_cast<std::size_t>(message.from)][message.send_step] = now;
          rates_stale_ = true;
          changed = true;
        }
      }
      std::erase_if(active_, [&](std::size_t m) { return messages_[m].state == SimulatedMessage::State::done; });
    }
  }

  void post(std::size_t m, double now) {
    SimulatedMessage& message = messages_[m];
    if (message.state != SimulatedMessage::State::unposted || std::isnan(message.send_posted) ||
        std::isnan(message.receive_posted)) {
      return;
    }
    message.state = SimulatedMessage::State::latency;
    message.started = now;
    active_.push_back(m);
    message.flows_at =
        now + network_.path(static_cast<std::size_t>(message.from), static_cast<std::size_t>(message.to)).latency;
    message.remaining = message.bytes;
  }

  // Runs rank r's steps at `now` until it blocks or ends; true when it moved.
  bool advance(int r, double now) {
    const auto rank = static_cast<std::size_t>(r);
    if (busy_until_[rank] > now || !std::isnan(finish_[rank])) return false;
    const auto& steps = program_.steps[rank];
    bool moved = false;
    while (pc_[rank] < steps.size()) {
      const std::uint32_t s = pc_[rank];
      const ProgramStep& step = steps[s];
      switch (step.kind) {
        case ProgramStep::Kind::send: {
          const std::size_t m = message_of_step_[rank][s];
          messages_[m].send_posted = now;
          if (messages_[m].detached) completed_at_[rank][s] = now;
          post(m, now);
          break;
        }
        case ProgramStep::Kind::receive: {
          const std::size_t m = message_of_step_[rank][s];
          if (m != kNone) {
            messages_[m].receive_posted = now;
            post(m, now);
          }
          break;
        }
        case ProgramStep::Kind::wait:
          for (auto request : step.requests) {
            if (std::isnan(completed_at_[rank][request])) return moved;
          }
          break;
        case ProgramStep::Kind::pace:
          if (step.seconds > now) {
            ++pc_[rank];
            busy_until_[rank] = step.seconds;
            return true;
          }
          break;
        case ProgramStep::Kind::combine:
        case ProgramStep::Kind::copy:
          if (options_.seconds_per_combined_byte > 0 && step.data.count > 0) {
            ++pc_[rank];
            busy_until_[rank] = now + options_.seconds_per_combined_byte * static_cast<double>(step.data.count);
            return true;
          }
          break;
      }
      ++pc_[rank];
      moved = true;
    }
    finish_[rank] = now;
    return true;
  }

  // Weighted max-min fair rates of the flowing messages (progressive
  // filling): at each level, the resources (and rate bounds) that saturate
  // first fix the rates of the messages crossing them. Messages between the
  // same two ranks share a path and a weight, so they get the same rate:
  // they are filled as one class. O(F + C · P + R · L + C log C) for F
  // messages in C classes crossing P resources each, R resources, L levels.
  void compute_rates() {
    rates_stale_ = false;
    auto& s = scratch_;
    const std::size_t n = network_.size();
    if (s.class_of_pair.size() != n * n) s.class_of_pair.assign(n * n, {0, 0});
    ++s.epoch;
    s.classes.clear();
    s.flowing.clear();
    for (auto m : active_) {
      const SimulatedMessage& message = messages_[m];
      if (message.state != SimulatedMessage::State::flowing) continue;
      auto& slot = s.class_of_pair[static_cast<std::size_t>(message.from) * n + static_cast<std::size_t>(message.to)];
      if (slot.first != s.epoch) {
        slot = {s.epoch, static_cast<std::uint32_t>(s.classes.size())};
        const auto& path = network_.path(static_cast<std::size_t>(message.from), static_cast<std::size_t>(message.to));
        s.classes.push_back({&path, message.weight, path.rate_bound / message.weight, 0, 0});
      }
      ++s.classes[slot.second].messages;
      s.flowing.emplace_back(m, slot.second);
    }
    auto& classes = s.classes;
    const std::size_t resources = network_.resource_count();
    auto& capacity = s.capacity;
    auto& weight_sum = s.weight_sum;
    auto& unfixed = s.unfixed;
    auto& crossing = s.crossing;  // classes crossing each resource
    capacity.resize(resources);
    weight_sum.assign(resources, 0);
    unfixed.assign(resources, 0);
    crossing.resize(resources);
    for (auto& list : crossing) list.clear();
    for (std::size_t c = 0; c < resources; ++c) capacity[c] = network_.capacity(c);
    for (std::size_t k = 0; k < classes.size(); ++k) {
      for (auto c : classes[k].path->resources) {
        weight_sum[c] += static_cast<double>(classes[k].messages) * classes[k].weight;
        ++unfixed[c];
        crossing[c].push_back(static_cast<std::uint32_t>(k));
      }
    }
    // Finite rate bounds as levels, lowest first.
    auto& by_bound = s.by_bound;
    by_bound.clear();
    for (std::size_t k = 0; k < classes.size(); ++k) {
      if (classes[k].bound_level < kNeverSeconds) by_bound.push_back(static_cast<std::uint32_t>(k));
    }
    auto bound_level = [&](std::uint32_t k) { return classes[k].bound_level; };
    std::sort(by_bound.begin(), by_bound.end(), [&](auto a, auto b) { return bound_level(a) < bound_level(b); });
    std::size_t next_bound = 0;
    std::vector<char> fixed(classes.size(), 0);
    std::size_t left = classes.size();
    auto fix = [&](std::size_t k, double level) {
      if (fixed[k]) return;
      auto& group = classes[k];
      group.rate = std::min(group.weight * level, group.path->rate_bound);
      fixed[k] = 1;
      --left;
      for (auto c : group.path->resources) {
        capacity[c] -= static_cast<double>(group.messages) * group.rate;
        weight_sum[c] -= static_cast<double>(group.messages) * group.weight;
        --unfixed[c];
      }
    };
    std::vector<std::size_t> saturated;
    while (left > 0) {
      while (next_bound < by_bound.size() && fixed[by_bound[next_bound]]) ++next_bound;
      double level = next_bound < by_bound.size() ? bound_level(by_bound[next_bound]) : kNeverSeconds;
      for (std::size_t c = 0; c < resources; ++c) {
        if (unfixed[c] > 0) level = std::min(level, std::max(capacity[c], 0.0) / weight_sum[c]);
      }
      if (level == kNeverSeconds) {  // no resource and no bound: instantaneous
        for (std::size_t k = 0; k < classes.size(); ++k) {
          if (!fixed[k]) classes[k].rate = kNeverSeconds;
        }
        break;
      }
      const double tolerance = 1e-12 * level;
      saturated.clear();
      for (std::size_t c = 0; c < resources; ++c) {
        if (unfixed[c] > 0 && std::max(capacity[c], 0.0) / weight_sum[c] <= level + tolerance) saturated.push_back(c);
      }
      for (auto c : saturated) {
        for (auto k : crossing[c]) fix(k, level);
      }
      for (; next_bound < by_bound.size() && bound_level(by_bound[next_bound]) <= level + tolerance; ++next_bound) {
        fix(by_bound[next_bound], level);
      }
    }
    for (const auto& [m, k] : s.flowing) messages_[m].rate = classes[k].rate;
  }

  const CommProgram& program_;
  const FlowNetwork& network_;
  FlowModelOptions options_;
  std::vector<SimulatedMessage> messages_;
  std::vector<std::size_t> active_;  // messages in their latency or flowing phase
  struct RateClass {  // flowing messages between the same two ranks
    const FlowNetwork::Path* path;
    double weight;
    double bound_level;  // rate bound / weight
    std::size_t messages;
    double rate;
  };
  struct RateScratch {  // compute_rates' vectors, kept between calls
    std::vector<double> capacity, weight_sum;
    std::vector<std::size_t> unfixed;
    std::vector<std::vector<std::uint32_t>> crossing;
    std::vector<std::uint32_t> by_bound;
    std::vector<RateClass> classes;
    std::vector<std::pair<std::size_t, std::uint32_t>> flowing;       // (message, class)
    std::vector<std::pair<std::uint64_t, std::uint32_t>> class_of_pair;  // (epoch, class) per (from, to)
    std::uint64_t epoch = 0;
  } scratch_;
  std::vector<std::vector<std::size_t>> message_of_step_;
  std::vector<std::vector<double>> completed_at_;
  std::vector<std::uint32_t> pc_;
  std::vector<double> busy_until_;
  std::vector<double> finish_;
  bool rates_stale_ = true;
};

}  // namespace

ProgramTiming predict_program(const CommProgram& program, const FlowNetwork& network, std::size_t element_bytes,
                              const FlowModelOptions& options) {
  return Simulation(program, network, element_bytes, options).run();
}

}  // namespace hetcoll::sim
