#include "hetcoll/sim/program_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace hetcoll::sim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

struct Message {
  int from = 0, to = 0;
  std::uint32_t send_step = 0, receive_step = 0;
  double bytes = 0;
  bool detached = false;
  double send_posted = kUnknown, receive_posted = kUnknown;
  enum class State : std::uint8_t { unposted, latency, flowing, done } state = State::unposted;
  double flows_at = 0;    // end of the latency phase
  double remaining = 0;   // bytes still to flow
  double rate = 0;        // bytes/second while flowing
  double weight = 1;      // 1 / CM02 sharing penalty
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
    finish_.assign(ranks, kUnknown);
    // Static matching: the k-th send a -> b meets the k-th receive at b from a.
    std::map<std::pair<int, int>, std::vector<std::size_t>> pending_sends;
    std::map<std::pair<int, int>, std::size_t> receives_seen;
    for (int r = 0; r < program.ranks; ++r) {
      const auto& steps = program.steps[static_cast<std::size_t>(r)];
      message_of_step_[static_cast<std::size_t>(r)].assign(steps.size(), kNone);
      completed_at_[static_cast<std::size_t>(r)].assign(steps.size(), kUnknown);
      for (std::uint32_t s = 0; s < steps.size(); ++s) {
        if (steps[s].kind != ProgramStep::Kind::send) continue;
        Message message;
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
      double next = kInfinity;
      for (const auto& message : messages_) {
        if (message.state == Message::State::latency) next = std::min(next, message.flows_at);
        if (message.state == Message::State::flowing) next = std::min(next, now + message.remaining / message.rate);
      }
      for (std::size_t r = 0; r < busy_until_.size(); ++r) {
        if (busy_until_[r] > now) next = std::min(next, busy_until_[r]);
      }
      if (next == kInfinity) break;
      const double elapsed = next - now;
      now = next;
      for (auto& message : messages_) {
        if (message.state != Message::State::flowing) continue;
        if (message.rate == kInfinity) {
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
    timing.rank_finish.resize(finish_.size());
    for (std::size_t r = 0; r < finish_.size(); ++r) {
      if (std::isnan(finish_[r])) {
        timing.stuck_ranks.push_back(static_cast<int>(r));
        timing.rank_finish[r] = kInfinity;
      } else {
        timing.rank_finish[r] = finish_[r];
        timing.makespan = std::max(timing.makespan, finish_[r]);
      }
    }
    if (!timing.completed()) timing.makespan = kInfinity;
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
      for (std::size_t m = 0; m < messages_.size(); ++m) {
        Message& message = messages_[m];
        if (message.state == Message::State::latency && message.flows_at <= now) {
          message.state = Message::State::flowing;
          rates_stale_ = true;
          changed = true;
        }
        if (message.state == Message::State::flowing && (message.remaining <= 0 || message.rate == kInfinity)) {
          message.state = Message::State::done;
          message.remaining = 0;
          completed_at_[static_cast<std::size_t>(message.to)][message.receive_step] = now;
          if (!message.detached) completed_at_[static_cast<std::size_t>(message.from)][message.send_step] = now;
          rates_stale_ = true;
          changed = true;
        }
      }
    }
  }

  void post(std::size_t m, double now) {
    Message& message = messages_[m];
    if (message.state != Message::State::unposted || std::isnan(message.send_posted) ||
        std::isnan(message.receive_posted)) {
      return;
    }
    message.state = Message::State::latency;
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

  // Weighted max-min fair rates of the flowing messages (progressive filling).
  void compute_rates() {
    rates_stale_ = false;
    std::vector<std::size_t> flowing;
    for (std::size_t m = 0; m < messages_.size(); ++m) {
      if (messages_[m].state == Message::State::flowing) flowing.push_back(m);
    }
    std::vector<double> capacity(network_.resource_count());
    for (std::size_t c = 0; c < capacity.size(); ++c) capacity[c] = network_.capacity(c);
    std::vector<double> weight_sum(capacity.size(), 0);
    std::vector<char> fixed(flowing.size(), 0);
    auto path_of = [&](std::size_t m) -> const FlowNetwork::Path& {
      return network_.path(static_cast<std::size_t>(messages_[m].from), static_cast<std::size_t>(messages_[m].to));
    };
    std::size_t left = flowing.size();
    while (left > 0) {
      std::fill(weight_sum.begin(), weight_sum.end(), 0.0);
      for (std::size_t i = 0; i < flowing.size(); ++i) {
        if (fixed[i]) continue;
        for (auto c : path_of(flowing[i]).resources) weight_sum[c] += messages_[flowing[i]].weight;
      }
      double level = kInfinity;
      for (std::size_t c = 0; c < capacity.size(); ++c) {
        if (weight_sum[c] > 0) level = std::min(level, std::max(capacity[c], 0.0) / weight_sum[c]);
      }
      for (std::size_t i = 0; i < flowing.size(); ++i) {
        if (!fixed[i]) level = std::min(level, path_of(flowing[i]).rate_bound / messages_[flowing[i]].weight);
      }
      if (level == kInfinity) {  // no resource and no bound: instantaneous
        for (std::size_t i = 0; i < flowing.size(); ++i) {
          if (!fixed[i]) messages_[flowing[i]].rate = kInfinity;
        }
        break;
      }
      const double tolerance = 1e-12 * level;
      std::vector<char> saturated(capacity.size(), 0);
      for (std::size_t c = 0; c < capacity.size(); ++c) {
        if (weight_sum[c] > 0 && std::max(capacity[c], 0.0) / weight_sum[c] <= level + tolerance) saturated[c] = 1;
      }
      for (std::size_t i = 0; i < flowing.size(); ++i) {
        if (fixed[i]) continue;
        Message& message = messages_[flowing[i]];
        const auto& path = path_of(flowing[i]);
        bool fix = path.rate_bound / message.weight <= level + tolerance;
        for (auto c : path.resources) fix = fix || saturated[c];
        if (!fix) continue;
        message.rate = std::min(message.weight * level, path.rate_bound);
        fixed[i] = 1;
        --left;
        for (auto c : path.resources) capacity[c] -= message.rate;
      }
    }
  }

  const CommProgram& program_;
  const FlowNetwork& network_;
  FlowModelOptions options_;
  std::vector<Message> messages_;
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
