#include "hetcoll/plan/split_program.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

[[noreturn]] void refuse(const std::string& problem) { throw InputError("plan", problem); }

// Pieces of a split broadcast or all-reduce: one per member at most,
// non-empty, covering [0, elements) once.
void check_member_pieces(const std::vector<SplitPiece>& pieces, std::size_t members, std::size_t elements,
                         std::size_t chunks) {
  if (members < 1) refuse("no member");
  if (chunks == 0) refuse("chunks must be at least 1");
  std::vector<char> has_piece(members, 0);
  std::map<std::size_t, std::size_t> by_first;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const auto& piece = pieces[p];
    if (piece.spreader >= members || has_piece[piece.spreader]++ || piece.elements == 0) {
      refuse(fmt::format("pieces[{}]: member out of range, with two pieces, or empty", p));
    }
    by_first[piece.first] = piece.elements;
  }
  std::size_t covered = 0;
  for (const auto& [first, count] : by_first) {
    if (first != covered) refuse(fmt::format("the pieces do not cover element {} once", covered));
    covered += count;
  }
  if (covered != elements) refuse(fmt::format("the pieces cover {} of {} elements", covered, elements));
}

// Buffer 0's elements of chunk `chunk` of `piece`.
Slice chunk_slice(const SplitPiece& piece, std::size_t chunks, std::size_t chunk) {
  const auto [offset, count] = split_chunk_range(piece.elements, chunks, chunk);
  return {0, piece.first + offset, count};
}

template <typename Transfer>
void check_transfer(const Transfer& t, std::size_t index, std::size_t pieces, std::size_t chunks,
                    std::size_t members) {
  if (t.piece >= pieces || t.chunk >= chunks || t.from >= members || t.to >= members || t.from == t.to) {
    refuse(fmt::format("transfers[{}]: piece, chunk or member out of range, or a member sending to itself", index));
  }
}

// Waits, in one step, for those of `requests` not waited for yet.
void wait_for_pending(CommProgram& program, int rank, const std::vector<std::uint32_t>& requests,
                      std::vector<char>& waited) {
  std::vector<std::uint32_t> pending;
  for (auto request : requests) {
    if (waited.size() <= request) waited.resize(request + 1, 0);
    if (!waited[request]) {
      waited[request] = 1;
      pending.push_back(request);
    }
  }
  if (!pending.empty()) program.add(rank, ProgramStep::wait_for(std::move(pending)));
}

// At the end: every request of every rank not waited for yet.
void wait_for_the_rest(CommProgram& program, std::vector<std::vector<char>>& waited) {
  for (int rank = 0; rank < program.ranks; ++rank) {
    const auto& steps = program.steps[static_cast<std::size_t>(rank)];
    std::vector<std::uint32_t> requests;
    for (std::uint32_t s = 0; s < steps.size(); ++s) {
      if (steps[s].kind == ProgramStep::Kind::send || steps[s].kind == ProgramStep::Kind::receive) {
        requests.push_back(s);
      }
    }
    wait_for_pending(program, rank, requests, waited[static_cast<std::size_t>(rank)]);
  }
}

}  // namespace

CommProgram program_of_split_broadcast(const SplitBroadcastPlan& plan, bool pace) {
  const std::size_t k = plan.members.size();
  check_member_pieces(plan.pieces, k, plan.elements, plan.chunks);
  if (plan.source >= k) refuse(fmt::format("source {} is not one of the {} members", plan.source, k));
  CommProgram program(static_cast<int>(k), "hetcoll split broadcast");
  // Receives first, each chunk into its place, in the plan's order (each
  // sender's sends are in that order too).
  std::vector<std::map<std::pair<std::size_t, std::size_t>, std::uint32_t>> receive_of(k);
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    check_transfer(t, i, plan.pieces.size(), plan.chunks, k);
    if (t.to == plan.source) refuse(fmt::format("transfers[{}]: sends to the source", i));
    if (t.from != plan.source && t.from != plan.pieces[t.piece].spreader) {
      refuse(fmt::format("transfers[{}]: member {} sends a piece it does not spread", i, t.from));
    }
    const auto slice = chunk_slice(plan.pieces[t.piece], plan.chunks, t.chunk);
    if (slice.count == 0) refuse(fmt::format("transfers[{}]: an empty chunk", i));
    auto [where, fresh] = receive_of[t.to].try_emplace(
        {t.piece, t.chunk}, program.add(static_cast<int>(t.to), ProgramStep::receive_of(static_cast<int>(t.from), slice)));
    if (!fresh) refuse(fmt::format("transfers[{}]: member {} receives that chunk twice", i, t.to));
  }
  for (std::size_t member = 0; member < k; ++member) {
    if (member == plan.source) continue;
    for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
      for (std::size_t c = 0; c < plan.chunks; ++c) {
        if (chunk_slice(plan.pieces[p], plan.chunks, c).count > 0 && !receive_of[member].contains({p, c})) {
          refuse(fmt::format("member {} never receives chunk {} of piece {}", member, c, p));
        }
      }
    }
  }
  std::vector<std::vector<char>> waited(k);
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    const int from = static_cast<int>(t.from);
    if (t.from != plan.source) {
      auto held = receive_of[t.from].find({t.piece, t.chunk});
      if (held == receive_of[t.from].end()) {
        refuse(fmt::format("transfers[{}]: member {} forwards chunk {} of piece {} it never receives", i, t.from,
                           t.chunk, t.piece));
      }
      wait_for_pending(program, from, {held->second}, waited[t.from]);
    } else if (pace) {
      program.add(from, ProgramStep::pace_until(std::max(t.start, 0.0)));
    }
    program.add(from, ProgramStep::send_of(static_cast<int>(t.to), chunk_slice(plan.pieces[t.piece], plan.chunks, t.chunk)));
  }
  wait_for_the_rest(program, waited);
  return program;
}

CommProgram program_of_split_allreduce(const SplitAllreducePlan& plan, bool pace) {
  const std::size_t k = plan.members.size();
  check_member_pieces(plan.pieces, k, plan.elements, plan.chunks);
  std::vector<std::size_t> piece_of_member(k, plan.pieces.size());
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) piece_of_member[plan.pieces[p].spreader] = p;
  CommProgram program(static_cast<int>(k), "hetcoll split all-reduce");
  // Contributions leave from a copy of the rank's own vector while results
  // land in buffer 0.
  const auto own = program.add_buffer(plan.elements);
  for (int rank = 0; rank < program.ranks; ++rank) {
    program.add(rank, ProgramStep::copy_of({0, 0, plan.elements}, {own, 0, plan.elements}));
  }
  struct Contribution {
    std::size_t from;
    std::uint32_t receive;
    Slice slot;
  };
  // Per member and chunk of its piece: the contributions it receives.
  std::vector<std::vector<std::vector<Contribution>>> contributions(k, std::vector<std::vector<Contribution>>(plan.chunks));
  std::vector<std::size_t> scratch_used(k, 0);
  std::vector<std::pair<std::size_t, Slice>> slots;  // per transfer: (member, slot) of a contribution
  std::size_t scratch_elements = 0;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    check_transfer(t, i, plan.pieces.size(), plan.chunks, k);
    const auto& piece = plan.pieces[t.piece];
    if ((t.contribution ? t.to : t.from) != piece.spreader) {
      refuse(fmt::format("transfers[{}]: a {} that does not {} the piece's aggregator", i,
                         t.contribution ? "contribution" : "result", t.contribution ? "go to" : "come from"));
    }
    if (chunk_slice(piece, plan.chunks, t.chunk).count == 0) refuse(fmt::format("transfers[{}]: an empty chunk", i));
    if (t.contribution) {
      scratch_used[t.to] += chunk_slice(piece, plan.chunks, t.chunk).count;
      scratch_elements = std::max(scratch_elements, scratch_used[t.to]);
    }
  }
  const auto scratch = program.add_buffer(scratch_elements);
  std::fill(scratch_used.begin(), scratch_used.end(), 0);
  for (const auto& t : plan.transfers) {
    const auto slice = chunk_slice(plan.pieces[t.piece], plan.chunks, t.chunk);
    const int to = static_cast<int>(t.to), from = static_cast<int>(t.from);
    if (t.contribution) {
      const Slice slot{scratch, scratch_used[t.to], slice.count};
      scratch_used[t.to] += slice.count;
      contributions[t.to][t.chunk].push_back({t.from, program.add(to, ProgramStep::receive_of(from, slot)), slot});
    } else {
      program.add(to, ProgramStep::receive_of(from, slice));
    }
  }
  std::vector<std::vector<char>> waited(k), combined(k, std::vector<char>(plan.chunks, 0));
  // Member `member`'s chunk `chunk` of its piece: its contributions, in rank order, into buffer 0.
  auto combine_chunk = [&](std::size_t member, std::size_t chunk) {
    if (combined[member][chunk] || piece_of_member[member] == plan.pieces.size()) return;
    combined[member][chunk] = 1;
    auto& incoming = contributions[member][chunk];
    std::vector<std::uint32_t> receives;
    for (const auto& c : incoming) receives.push_back(c.receive);
    wait_for_pending(program, static_cast<int>(member), receives, waited[member]);
    std::stable_sort(incoming.begin(), incoming.end(),
                     [](const Contribution& a, const Contribution& b) { return a.from < b.from; });
    const auto result = chunk_slice(plan.pieces[piece_of_member[member]], plan.chunks, chunk);
    for (const auto& c : incoming) program.add(static_cast<int>(member), ProgramStep::combine_of(c.slot, result));
  };
  for (const auto& t : plan.transfers) {
    const int from = static_cast<int>(t.from);
    auto slice = chunk_slice(plan.pieces[t.piece], plan.chunks, t.chunk);
    if (t.contribution) {
      if (pace) program.add(from, ProgramStep::pace_until(std::max(t.start, 0.0)));
      slice.buffer = own;
    } else {
      combine_chunk(t.from, t.chunk);
    }
    program.add(from, ProgramStep::send_of(static_cast<int>(t.to), slice));
  }
  for (std::size_t member = 0; member < k; ++member) {
    for (std::size_t chunk = 0; chunk < plan.chunks; ++chunk) {
      if (!contributions[member][chunk].empty()) combine_chunk(member, chunk);
    }
  }
  wait_for_the_rest(program, waited);
  return program;
}

CommProgram program_of_split_reduce(const SplitReducePlan& plan) {
  const std::size_t n = plan.contributions.size();
  const std::size_t k = plan.pieces.size();
  if (n < 1) refuse("no processor");
  if (static_cast<std::size_t>(plan.root) >= n) refuse(fmt::format("root {} out of range", plan.root));
  if (plan.post_times.size() != n || plan.piece_ready.size() != k || plan.piece_at_root.size() != k) {
    refuse("post_times, piece_ready and piece_at_root do not match the processors and pieces");
  }
  std::size_t covered = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const auto& piece = plan.pieces[j];
    if (piece.first != covered || piece.count == 0 || static_cast<std::size_t>(piece.aggregator) >= n) {
      refuse(fmt::format("pieces[{}]: not the next non-empty range, or its aggregator out of range", j));
    }
    covered += piece.count;
  }
  if (covered != plan.count) refuse(fmt::format("the pieces cover {} of {} elements", covered, plan.count));
  // Every processor but the root and the piece's aggregator sends its share of each piece once.
  for (std::size_t u = 0; u < n; ++u) {
    if (plan.post_times[u].size() != plan.contributions[u].size()) {
      refuse(fmt::format("processor {}: {} post times for {} contributions", u, plan.post_times[u].size(),
                         plan.contributions[u].size()));
    }
    std::vector<char> sends(k, 0);
    for (auto j : plan.contributions[u]) {
      if (j >= k || sends[j]++) refuse(fmt::format("processor {}: piece {} out of range or sent twice", u, j));
    }
    for (std::size_t j = 0; j < k; ++j) {
      const bool should = u != static_cast<std::size_t>(plan.root) && u != static_cast<std::size_t>(plan.pieces[j].aggregator);
      if (static_cast<bool>(sends[j]) != should) {
        refuse(fmt::format("processor {} {} piece {}", u, should ? "never sends" : "must not send", j));
      }
    }
  }
  struct Action {
    double time = 0;
    bool send = false;  // a contribution's post; else a piece's completion
    std::size_t piece = 0;
    bool operator<(const Action& other) const {
      return std::tie(time, other.send, piece) < std::tie(other.time, send, other.piece);
    }
  };
  const auto root = static_cast<std::size_t>(plan.root);
  std::vector<std::vector<Action>> actions(n);
  for (std::size_t u = 0; u < n; ++u) {
    for (std::size_t i = 0; i < plan.contributions[u].size(); ++i) {
      actions[u].push_back({plan.post_times[u][i], true, plan.contributions[u][i]});
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (static_cast<std::size_t>(plan.pieces[j].aggregator) == u) {
        actions[u].push_back({plan.piece_ready[j], false, j});
      } else if (u == root) {
        actions[u].push_back({plan.piece_at_root[j], false, j});
      }
    }
    std::sort(actions[u].begin(), actions[u].end());
  }
  CommProgram program(static_cast<int>(n), "hetcoll split reduce");
  // Receives, posted first, from each sender in its send order, each into
  // its own slot of one scratch buffer.
  struct Incoming {
    std::uint32_t receive;
    Slice slot;
  };
  std::vector<std::vector<std::vector<Incoming>>> incoming(n, std::vector<std::vector<Incoming>>(k));
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> messages_to(n);  // receiver -> (sender, piece)
  for (std::size_t u = 0; u < n; ++u) {
    for (const auto& action : actions[u]) {
      const auto aggregator = static_cast<std::size_t>(plan.pieces[action.piece].aggregator);
      if (action.send) {
        messages_to[aggregator].emplace_back(u, action.piece);
      } else if (u != root) {
        messages_to[root].emplace_back(u, action.piece);
      }
    }
  }
  std::size_t scratch_elements = 0;
  for (const auto& list : messages_to) {
    std::size_t used = 0;
    for (const auto& [from, piece] : list) used += plan.pieces[piece].count;
    scratch_elements = std::max(scratch_elements, used);
  }
  const auto scratch = program.add_buffer(scratch_elements);
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t used = 0;
    for (const auto& [from, piece] : messages_to[v]) {
      const Slice slot{scratch, used, plan.pieces[piece].count};
      used += slot.count;
      incoming[v][piece].push_back(
          {program.add(static_cast<int>(v), ProgramStep::receive_of(static_cast<int>(from), slot)), slot});
    }
  }
  std::vector<std::vector<char>> waited(n);
  for (std::size_t u = 0; u < n; ++u) {
    const int rank = static_cast<int>(u);
    for (const auto& action : actions[u]) {
      const auto& piece = plan.pieces[action.piece];
      const Slice mine{0, piece.first, piece.count};
      if (action.send) {
        program.add(rank, ProgramStep::pace_until(std::max(action.time, 0.0)));
        program.add(rank, ProgramStep::send_of(piece.aggregator, mine));
        continue;
      }
      std::vector<std::uint32_t> receives;
      for (const auto& in : incoming[u][action.piece]) receives.push_back(in.receive);
      wait_for_pending(program, rank, receives, waited[u]);
      for (const auto& in : incoming[u][action.piece]) program.add(rank, ProgramStep::combine_of(in.slot, mine));
      if (u != root) program.add(rank, ProgramStep::send_of(plan.root, mine));
    }
  }
  wait_for_the_rest(program, waited);
  return program;
}

}  // namespace hetcoll
