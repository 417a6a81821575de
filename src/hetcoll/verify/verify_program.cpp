#include "hetcoll/verify/verify_program.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

constexpr std::int64_t kUndefined = -1;

// What a run of elements holds: per element its index (or kUndefined) and
// `words` 64-bit words of contributor bits.
struct Values {
  std::size_t words = 1;
  std::vector<std::int64_t> index;
  std::vector<std::uint64_t> bits;

  Values(std::size_t elements, std::size_t word_count)
      : words(word_count), index(elements, kUndefined), bits(elements * word_count, 0) {}
  std::size_t size() const { return index.size(); }
};

// Both ends of a message. Its data moves when the second end is posted:
// from then until their waits, neither slice may be touched (check_read,
// check_write), so the data is what the send captured at its post and what
// the receive's wait delivers.
struct CheckedMessage {
  bool send_posted = false;
  bool receive_posted = false;
  int from = -1, to = -1;
  Slice sent, received;
};

struct Pending {
  std::uint32_t step = 0;
  bool is_receive = false;
  Slice slice;
  std::size_t message = 0;
};

bool overlap(const Slice& a, const Slice& b) {
  return a.buffer == b.buffer && a.count > 0 && b.count > 0 && a.offset < b.offset + b.count &&
         b.offset < a.offset + a.count;
}

class ProgramRun {
 public:
  // `block` > 0 (an allgather): rank r holds only elements [r · block,
  // (r + 1) · block) of its buffer 0 at the start, the rest is undefined.
  ProgramRun(const CommProgram& program, std::size_t count, std::size_t block = 0)
      : program_(program), words_((static_cast<std::size_t>(program.ranks) + 63) / 64) {
    memory_.resize(static_cast<std::size_t>(program.ranks));
    for (int rank = 0; rank < program.ranks; ++rank) {
      auto& buffers = memory_[static_cast<std::size_t>(rank)];
      // Scratch buffers are allocated when a rank first uses them.
      for (std::size_t b = 0; b < program.buffer_elements.size(); ++b) buffers.emplace_back(0, words_);
      buffers[0] = Values(count, words_);
      auto& data = buffers[0];
      const std::size_t first = block > 0 ? static_cast<std::size_t>(rank) * block : 0;
      const std::size_t end = block > 0 ? first + block : count;
      for (std::size_t i = first; i < end; ++i) {
        data.index[i] = static_cast<std::int64_t>(i);
        data.bits[i * words_ + static_cast<std::size_t>(rank) / 64] |= std::uint64_t{1} << (rank % 64);
      }
    }
    pc_.assign(static_cast<std::size_t>(program.ranks), 0);
    pending_.resize(static_cast<std::size_t>(program.ranks));
    request_message_.resize(static_cast<std::size_t>(program.ranks));
    for (int rank = 0; rank < program.ranks; ++rank) {
      request_message_[static_cast<std::size_t>(rank)].assign(program.steps[static_cast<std::size_t>(rank)].size(), 0);
    }
  }

  // Runs to the end or the first violation (returned; empty when none).
  std::string run() {
    bool moved = true;
    while (moved) {
      moved = false;
      for (int rank = 0; rank < program_.ranks; ++rank) {
        const std::size_t before = pc_[static_cast<std::size_t>(rank)];
        if (auto problem = advance(rank); !problem.empty()) return problem;
        moved = moved || pc_[static_cast<std::size_t>(rank)] != before;
      }
    }
    for (int rank = 0; rank < program_.ranks; ++rank) {
      const auto& list = program_.steps[static_cast<std::size_t>(rank)];
      const std::size_t pc = pc_[static_cast<std::size_t>(rank)];
      if (pc < list.size()) return fmt::format("deadlock: rank {} blocks for ever at step {} ({})", rank, pc,
                                               blocked_on(rank, list[pc]));
    }
    return {};
  }

  const Values& data(int rank) const { return memory_[static_cast<std::size_t>(rank)][0]; }
  std::size_t words() const { return words_; }

 private:
  std::string where(int rank, std::size_t step) const { return fmt::format("rank {}, step {}", rank, step); }

  std::string blocked_on(int rank, const ProgramStep& step) const {
    for (auto request : step.requests) {
      const auto& asked = program_.steps[static_cast<std::size_t>(rank)][request];
      const auto& message = messages_[request_message_[static_cast<std::size_t>(rank)][request]];
      if (asked.kind == ProgramStep::Kind::send && !message.receive_posted) {
        return fmt::format("its send of step {} to rank {} is never received", request, asked.peer);
      }
      if (asked.kind == ProgramStep::Kind::receive && !message.send_posted) {
        return fmt::format("its receive of step {} from rank {} is never sent", request, asked.peer);
      }
    }
    return "wait";
  }

  // A slice read by `rank`: nothing a pending receive will write.
  std::string check_read(int rank, std::size_t index, const Slice& slice, const char* what) const {
    for (const auto& pending : pending_[static_cast<std::size_t>(rank)]) {
      if (pending.is_receive && overlap(pending.slice, slice)) {
        return fmt::format("{}: {} elements [{}, {}) of buffer {} before the receive of step {} has completed "
                           "(data read before it arrived)",
                           where(rank, index), what, slice.offset, slice.offset + slice.count, slice.buffer,
                           pending.step);
      }
    }
    return {};
  }

  // A slice written by `rank`: nothing a pending send reads or a pending receive writes.
  std::string check_write(int rank, std::size_t index, const Slice& slice) const {
    for (const auto& pending : pending_[static_cast<std::size_t>(rank)]) {
      if (overlap(pending.slice, slice)) {
        return fmt::format("{}: writes elements [{}, {}) of buffer {} while the {} of step {} still uses them",
                           where(rank, index), slice.offset, slice.offset + slice.count, slice.buffer,
                           pending.is_receive ? "receive" : "send", pending.step);
      }
    }
    return {};
  }

  // The ranks [first, last] whose contributions `bits` holds, or {-1, -1}
  // when they are not consecutive (or none).
  std::pair<int, int> run_of(const std::uint64_t* bits) const {
    int first = -1, last = -1;
    for (std::size_t w = 0; w < words_; ++w) {
      if (bits[w] == 0) continue;
      const int low = static_cast<int>(w * 64) + __builtin_ctzll(bits[w]);
      const int high = static_cast<int>(w * 64) + 63 - __builtin_clzll(bits[w]);
      if (first < 0) first = low;
      last = high;
    }
    if (first < 0) return {-1, -1};
    for (int r = first; r <= last; ++r) {
      if (((bits[static_cast<std::size_t>(r) / 64] >> (r % 64)) & 1) == 0) return {-1, -1};
    }
    return {first, last};
  }

  // A rank-order combine: `from` holds ranks [a, b], `into` [b + 1, c].
  std::string check_rank_order(int rank, std::size_t index, const std::uint64_t* from, const std::uint64_t* into,
                               std::int64_t element) const {
    const auto left = run_of(from), right = run_of(into);
    if (left.first < 0 || right.first < 0 || left.second + 1 != right.first) {
      return fmt::format("{}: combines the contributions {} (left) with {} (right) to element {}: not consecutive "
                         "ranks in rank order (a non-commutative operation would give another result)",
                         where(rank, index), describe(from), describe(into), element);
    }
    return {};
  }

  std::string describe(const std::uint64_t* bits) const {
    std::string list;
    for (std::size_t w = 0; w < words_; ++w) {
      for (int b = 0; b < 64; ++b) {
        if ((bits[w] >> b) & 1) list += fmt::format("{}{}", list.empty() ? "" : ", ", w * 64 + static_cast<std::size_t>(b));
      }
    }
    return "{" + list + "}";
  }

  std::size_t message_of(int from, int to, bool sending) {
    auto& list = channels_[{from, to}];
    auto& posted = sending ? sends_posted_[{from, to}] : receives_posted_[{from, to}];
    if (posted == list.size()) {
      list.push_back(messages_.size());
      messages_.emplace_back();
    }
    return list[posted++];
  }

  Values& buffer(int rank, std::uint32_t id) {
    auto& values = memory_[static_cast<std::size_t>(rank)][id];
    if (id != 0 && values.size() != program_.buffer_elements[id]) values = Values(program_.buffer_elements[id], words_);
    return values;
  }

  void deliver(const CheckedMessage& message) {
    const auto& source = buffer(message.from, message.sent.buffer);
    auto& target = buffer(message.to, message.received.buffer);
    const auto from = static_cast<std::ptrdiff_t>(message.sent.offset);
    std::copy_n(source.index.begin() + from, message.sent.count,
                target.index.begin() + static_cast<std::ptrdiff_t>(message.received.offset));
    std::copy_n(source.bits.begin() + from * static_cast<std::ptrdiff_t>(words_), message.sent.count * words_,
                target.bits.begin() + static_cast<std::ptrdiff_t>(message.received.offset * words_));
  }

  std::string advance(int rank) {
    const auto r = static_cast<std::size_t>(rank);
    const auto& list = program_.steps[r];
    while (pc_[r] < list.size()) {
      const std::size_t index = pc_[r];
      const auto& step = list[index];
      switch (step.kind) {
        case ProgramStep::Kind::send: {
          if (auto problem = check_read(rank, index, step.data, "sends"); !problem.empty()) return problem;
          const std::size_t id = message_of(rank, step.peer, true);
          auto& message = messages_[id];
          message.send_posted = true;
          message.from = rank;
          message.sent = step.data;
          if (message.receive_posted) deliver(message);
          request_message_[r][index] = id;
          pending_[r].push_back({static_cast<std::uint32_t>(index), false, step.data, id});
          break;
        }
        case ProgramStep::Kind::receive: {
          if (auto problem = check_write(rank, index, step.data); !problem.empty()) return problem;
          const std::size_t id = message_of(step.peer, rank, false);
          auto& message = messages_[id];
          message.receive_posted = true;
          message.to = rank;
          message.received = step.data;
          if (message.send_posted) deliver(message);
          request_message_[r][index] = id;
          pending_[r].push_back({static_cast<std::uint32_t>(index), true, step.data, id});
          break;
        }
        case ProgramStep::Kind::wait: {
          for (auto request : step.requests) {
            const auto& message = messages_[request_message_[r][request]];
            const bool done = list[request].kind == ProgramStep::Kind::send ? message.receive_posted
                                                                             : message.send_posted;
            if (!done) return {};  // blocked
          }
          for (auto request : step.requests) {
            auto found = std::find_if(pending_[r].begin(), pending_[r].end(),
                                      [&](const Pending& p) { return p.step == request; });
            pending_[r].erase(found);
          }
          break;
        }
        case ProgramStep::Kind::pace:  // times do not change what arrives
          break;
        case ProgramStep::Kind::combine:
        case ProgramStep::Kind::copy: {
          const bool combining = step.kind == ProgramStep::Kind::combine;
          if (auto problem = check_read(rank, index, step.data, combining ? "combines" : "copies");
              !problem.empty()) {
            return problem;
          }
          if (combining) {
            if (auto problem = check_read(rank, index, step.into, "combines into"); !problem.empty()) return problem;
          }
          if (auto problem = check_write(rank, index, step.into); !problem.empty()) return problem;
          // Through a copy of the input: `from` and `into` may overlap.
          const auto& source = buffer(rank, step.data.buffer);
          std::vector<std::int64_t> from_index(source.index.begin() + static_cast<std::ptrdiff_t>(step.data.offset),
                                               source.index.begin() +
                                                   static_cast<std::ptrdiff_t>(step.data.offset + step.data.count));
          std::vector<std::uint64_t> from_bits(
              source.bits.begin() + static_cast<std::ptrdiff_t>(step.data.offset * words_),
              source.bits.begin() + static_cast<std::ptrdiff_t>((step.data.offset + step.data.count) * words_));
          auto& target = buffer(rank, step.into.buffer);
          for (std::size_t k = 0; k < step.data.count; ++k) {
            const std::size_t to = step.into.offset + k;
            if (!combining) {
              target.index[to] = from_index[k];
              std::copy_n(from_bits.begin() + static_cast<std::ptrdiff_t>(k * words_), words_,
                          target.bits.begin() + static_cast<std::ptrdiff_t>(to * words_));
              continue;
            }
            if (from_index[k] == kUndefined || target.index[to] == kUndefined) {
              target.index[to] = kUndefined;
              continue;
            }
            if (from_index[k] != target.index[to]) {
              return fmt::format("{}: combines element {} into element {} (element {} of buffer {} with "
                                 "element {} of buffer {})",
                                 where(rank, index), from_index[k], target.index[to], step.data.offset + k,
                                 step.data.buffer, to, step.into.buffer);
            }
            if (program_.rank_order) {
              if (auto problem = check_rank_order(rank, index, from_bits.data() + k * words_,
                                                  target.bits.data() + to * words_, target.index[to]);
                  !problem.empty()) {
                return problem;
              }
            }
            for (std::size_t w = 0; w < words_; ++w) {
              const std::uint64_t both = from_bits[k * words_ + w] & target.bits[to * words_ + w];
              if (both != 0) {
                const int twice = static_cast<int>(w * 64) + __builtin_ctzll(both);
                return fmt::format("{}: counts rank {}'s contribution to element {} twice", where(rank, index),
                                   twice, target.index[to]);
              }
              target.bits[to * words_ + w] |= from_bits[k * words_ + w];
            }
          }
          break;
        }
      }
      ++pc_[r];
    }
    return {};
  }

  const CommProgram& program_;
  std::size_t words_;
  std::vector<std::vector<Values>> memory_;  // [rank][buffer]
  std::vector<std::size_t> pc_;
  std::vector<std::vector<Pending>> pending_;
  std::vector<std::vector<std::size_t>> request_message_;  // [rank][step] -> message
  std::vector<CheckedMessage> messages_;
  std::map<std::pair<int, int>, std::vector<std::size_t>> channels_;
  std::map<std::pair<int, int>, std::size_t> sends_posted_, receives_posted_;
};

std::string contributors(const std::uint64_t* bits, std::size_t words) {
  std::string list;
  for (std::size_t w = 0; w < words; ++w) {
    for (int b = 0; b < 64; ++b) {
      if ((bits[w] >> b) & 1) list += fmt::format("{}{}", list.empty() ? "" : ", ", w * 64 + static_cast<std::size_t>(b));
    }
  }
  return "{" + list + "}";
}

// The first element of `rank`'s buffer 0 that is not exactly element i of
// the ranks in `expected` (bits), in words; with `block` > 0 (an
// allgather), element i must be rank i / block's alone.
std::string final_problem(const ProgramRun& run, int rank, std::vector<std::uint64_t> expected, std::size_t count,
                          std::size_t block = 0) {
  const auto& data = run.data(rank);
  const std::size_t words = run.words();
  for (std::size_t i = 0; i < count; ++i) {
    if (block > 0 && i % block == 0) {
      const std::size_t owner = i / block;
      std::fill(expected.begin(), expected.end(), 0);
      expected[owner / 64] |= std::uint64_t{1} << (owner % 64);
    }
    if (data.index[i] == kUndefined) {
      return fmt::format("rank {} ends with undefined data in element {} of its buffer", rank, i);
    }
    if (data.index[i] != static_cast<std::int64_t>(i)) {
      return fmt::format("rank {} ends with element {} of the data in element {} of its buffer", rank, data.index[i],
                         i);
    }
    if (!std::equal(expected.begin(), expected.end(), data.bits.begin() + static_cast<std::ptrdiff_t>(i * words))) {
      return fmt::format("rank {} ends with the contributions {} in element {}, not {}", rank,
                         contributors(data.bits.data() + i * words, words), i,
                         contributors(expected.data(), words));
    }
  }
  return {};
}

}  // namespace

VerifyReport verify_program(const CommProgram& program, Operation operation, int root, std::size_t count,
                            const std::vector<int>& targets) {
  if (operation != Operation::broadcast && operation != Operation::multicast && operation != Operation::reduce &&
      operation != Operation::allreduce && operation != Operation::allgather) {
    throw InputError("operation", fmt::format("programs are checked for broadcast, multicast, reduce, allreduce and "
                                              "allgather, not {}",
                                              to_string(operation)));
  }
  VerifyReport report;
  if (operation == Operation::allgather) {
    const std::size_t elements = count * static_cast<std::size_t>(std::max(program.ranks, 0));
    try {
      check_program(program, elements);
    } catch (const InputError& error) {
      report.add_violation(error.what());
      return report;
    }
    ProgramRun run(program, elements, count);
    if (auto problem = run.run(); !problem.empty()) {
      report.add_violation(fmt::format("{}: {}", program.name, problem));
      return report;
    }
    for (int rank = 0; rank < program.ranks && count > 0; ++rank) {
      if (auto problem = final_problem(run, rank, std::vector<std::uint64_t>(run.words(), 0), elements, count);
          !problem.empty()) {
        report.add_violation(fmt::format("{}: {}", program.name, problem));
        return report;
      }
    }
    return report;
  }
  try {
    check_program(program, count);
  } catch (const InputError& error) {
    report.add_violation(error.what());
    return report;
  }
  if (operation != Operation::allreduce && (root < 0 || root >= program.ranks)) {
    report.add_violation(fmt::format("root {} is not a rank of {}", root, program.ranks));
    return report;
  }
  ProgramRun run(program, count);
  if (auto problem = run.run(); !problem.empty()) {
    report.add_violation(fmt::format("{}: {}", program.name, problem));
    return report;
  }
  const std::size_t words = run.words();
  std::vector<std::uint64_t> expected(words, 0);
  if (operation == Operation::broadcast || operation == Operation::multicast) {
    expected[static_cast<std::size_t>(root) / 64] |= std::uint64_t{1} << (root % 64);
  } else {
    for (int rank = 0; rank < program.ranks; ++rank) {
      expected[static_cast<std::size_t>(rank) / 64] |= std::uint64_t{1} << (rank % 64);
    }
  }
  std::vector<char> is_target(static_cast<std::size_t>(program.ranks), operation != Operation::multicast);
  for (int target : targets) {
    if (target < 0 || target >= program.ranks || target == root) {
      report.add_violation(fmt::format("target {} is not a rank of {} other than the root", target, program.ranks));
      return report;
    }
    is_target[static_cast<std::size_t>(target)] = 1;
  }
  for (int rank = 0; rank < program.ranks; ++rank) {
    if (operation == Operation::reduce && rank != root) continue;
    if (operation == Operation::multicast && !is_target[static_cast<std::size_t>(rank)] && rank != root) {
      // Not a target: its buffer 0 is left as it was.
      std::vector<std::uint64_t> own(words, 0);
      own[static_cast<std::size_t>(rank) / 64] |= std::uint64_t{1} << (rank % 64);
      if (auto problem = final_problem(run, rank, own, count); !problem.empty()) {
        report.add_violation(fmt::format("{}: a rank that is no target changes its buffer: {}", program.name, problem));
        return report;
      }
      continue;
    }
    if (auto problem = final_problem(run, rank, expected, count); !problem.empty()) {
      report.add_violation(fmt::format("{}: {}", program.name, problem));
      return report;
    }
  }
  return report;
}

}  // namespace hetcoll
