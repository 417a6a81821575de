#include "hetcoll/plan/comm_program.h"

#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

ProgramStep ProgramStep::send_of(int peer, Slice data, bool synchronous) {
  ProgramStep step;
  step.kind = Kind::send;
  step.peer = peer;
  step.data = data;
  step.synchronous = synchronous;
  return step;
}

ProgramStep ProgramStep::receive_of(int peer, Slice data) {
  ProgramStep step;
  step.kind = Kind::receive;
  step.peer = peer;
  step.data = data;
  return step;
}

ProgramStep ProgramStep::wait_for(std::vector<std::uint32_t> requests) {
  ProgramStep step;
  step.kind = Kind::wait;
  step.requests = std::move(requests);
  return step;
}

ProgramStep ProgramStep::combine_of(Slice from, Slice into) {
  ProgramStep step;
  step.kind = Kind::combine;
  step.data = from;
  step.into = into;
  return step;
}

ProgramStep ProgramStep::copy_of(Slice from, Slice into) {
  ProgramStep step;
  step.kind = Kind::copy;
  step.data = from;
  step.into = into;
  return step;
}

ProgramStep ProgramStep::pace_until(double seconds) {
  ProgramStep step;
  step.kind = Kind::pace;
  step.seconds = seconds;
  return step;
}

CommProgram::CommProgram(int rank_count, std::string description)
    : name(std::move(description)), ranks(rank_count), steps(static_cast<std::size_t>(rank_count > 0 ? rank_count : 0)) {}

std::uint32_t CommProgram::add(int rank, ProgramStep step) {
  auto& list = steps.at(static_cast<std::size_t>(rank));
  list.push_back(std::move(step));
  return static_cast<std::uint32_t>(list.size() - 1);
}

void CommProgram::blocking_send(int rank, int peer, Slice data, bool synchronous) {
  const auto request = add(rank, ProgramStep::send_of(peer, data, synchronous));
  add(rank, ProgramStep::wait_for({request}));
}

void CommProgram::blocking_receive(int rank, int peer, Slice data) {
  const auto request = add(rank, ProgramStep::receive_of(peer, data));
  add(rank, ProgramStep::wait_for({request}));
}

void CommProgram::send_receive(int rank, int send_to, Slice sent, int receive_from, Slice received) {
  const auto send = add(rank, ProgramStep::send_of(send_to, sent));
  const auto receive = add(rank, ProgramStep::receive_of(receive_from, received));
  add(rank, ProgramStep::wait_for({send, receive}));
}

std::uint32_t CommProgram::add_buffer(std::size_t elements) {
  buffer_elements.push_back(elements);
  return static_cast<std::uint32_t>(buffer_elements.size() - 1);
}

std::size_t CommProgram::message_count() const {
  std::size_t count = 0;
  for (const auto& rank_steps : steps) {
    for (const auto& step : rank_steps) count += step.kind == ProgramStep::Kind::send ? 1 : 0;
  }
  return count;
}

void check_program(const CommProgram& program, std::size_t data_elements, const std::string& what) {
  auto fail = [&](int rank, std::size_t index, const std::string& problem) {
    throw InputError(what, fmt::format("{}: rank {}, step {}: {}", program.name.empty() ? "program" : program.name,
                                       rank, index, problem));
  };
  if (program.ranks < 1 || program.steps.size() != static_cast<std::size_t>(program.ranks)) {
    throw InputError(what, fmt::format("{} ranks but steps for {}", program.ranks, program.steps.size()));
  }
  if (program.buffer_elements.empty()) throw InputError(what, "no entry for buffer 0 in buffer_elements");
  auto check_slice = [&](int rank, std::size_t index, const Slice& slice) {
    if (slice.buffer >= program.buffer_elements.size()) {
      fail(rank, index, fmt::format("buffer {} does not exist", slice.buffer));
    }
    const std::size_t size = slice.buffer == 0 ? data_elements : program.buffer_elements[slice.buffer];
    if (slice.offset > size || slice.count > size - slice.offset) {
      fail(rank, index,
           fmt::format("elements [{}, {}) of buffer {} of {} elements", slice.offset, slice.offset + slice.count,
                       slice.buffer, size));
    }
  };
  // (from, to) -> counts of its messages in order, from the sends and from the receives.
  std::map<std::pair<int, int>, std::vector<std::size_t>> sent, received;
  for (int rank = 0; rank < program.ranks; ++rank) {
    const auto& list = program.steps[static_cast<std::size_t>(rank)];
    std::vector<std::uint8_t> state(list.size(), 0);  // requests: 1 posted, 2 waited
    for (std::size_t index = 0; index < list.size(); ++index) {
      const auto& step = list[index];
      switch (step.kind) {
        case ProgramStep::Kind::send:
        case ProgramStep::Kind::receive:
          if (step.peer < 0 || step.peer >= program.ranks || step.peer == rank) {
            fail(rank, index, fmt::format("peer {} is not another rank of {}", step.peer, program.ranks));
          }
          check_slice(rank, index, step.data);
          state[index] = 1;
          if (step.kind == ProgramStep::Kind::send) {
            sent[{rank, step.peer}].push_back(step.data.count);
          } else {
            received[{step.peer, rank}].push_back(step.data.count);
          }
          break;
        case ProgramStep::Kind::wait:
          for (auto request : step.requests) {
            if (request >= index || state[request] != 1) {
              fail(rank, index, fmt::format("waits for step {}, which is not an earlier request still pending",
                                            request));
            }
            state[request] = 2;
          }
          break;
        case ProgramStep::Kind::pace:
          if (!std::isfinite(step.seconds) || step.seconds < 0) {
            fail(rank, index, fmt::format("paces until {} s, not a finite time from the start", step.seconds));
          }
          break;
        case ProgramStep::Kind::combine:
        case ProgramStep::Kind::copy:
          check_slice(rank, index, step.data);
          check_slice(rank, index, step.into);
          if (step.data.count != step.into.count) fail(rank, index, "input and output counts differ");
          break;
      }
    }
    for (std::size_t index = 0; index < list.size(); ++index) {
      if (state[index] == 1) fail(rank, index, "request never waited for");
    }
  }
  for (const auto& [pair, counts] : sent) {
    auto found = received.find(pair);
    const std::size_t receives = found == received.end() ? 0 : found->second.size();
    if (receives != counts.size()) {
      throw InputError(what, fmt::format("{}: rank {} sends {} message(s) to rank {}, which receives {}",
                                         program.name, pair.first, counts.size(), pair.second, receives));
    }
    for (std::size_t k = 0; k < counts.size(); ++k) {
      if (counts[k] != found->second[k]) {
        throw InputError(what, fmt::format("{}: message {} from rank {} to rank {}: {} elements sent, {} received",
                                           program.name, k, pair.first, pair.second, counts[k], found->second[k]));
      }
    }
  }
  for (const auto& [pair, counts] : received) {
    if (!sent.contains(pair)) {
      throw InputError(what, fmt::format("{}: rank {} receives {} message(s) from rank {}, which sends none",
                                         program.name, pair.second, counts.size(), pair.first));
    }
  }
}

}  // namespace hetcoll
