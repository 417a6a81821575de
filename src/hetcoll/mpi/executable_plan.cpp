// Why running a plan cannot deadlock (executable_plan.h states the
// contract): all ranks agree on one total order of the transfers (the same
// plan, checked by a hash when the plan is prepared, sorted the same way),
// and the program of plan/plan_program.h has every rank run its transfers
// in that order. Take the first transfer u -> v in that order that has not
// completed. Every transfer that u or v runs before it comes earlier in the
// total order, so it has completed; hence u is at its send of this transfer
// and v at its receive, both posted, and MPI matches them (same
// communicator, source, tag; the messages between one pair are matched in
// order, MPI's non-overtaking rule). So the first pending transfer always
// completes, and by induction all of them do. An eager broadcast rank's
// sends all follow its one receive; an eager reduce rank's receives are all
// posted at the call's start and its one send follows them: by induction
// from the leaves every rank's receives complete and then its send is
// posted. A rank-order reduce sends the same transfers, only with more
// elements per message. The runtime uses a duplicate of the user's
// communicator, so no message of the user's can match one of ours.
#include "hetcoll/mpi/executable_plan.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/mpi/program_executor.h"
#include "hetcoll/plan/plan_json.h"

namespace hetcoll::mpi {


std::vector<std::size_t> execution_order(const MakespanPlan& plan) {
  std::vector<std::size_t> order(plan.transfers.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.transfers[a].start < plan.transfers[b].start;
  });
  return order;
}

double predict_plan_time(const MakespanPlan& plan, double bytes, const TransferCost& cost) {
  ProcessorIndex processors = plan.root + 1;
  for (const auto& transfer : plan.transfers) processors = std::max({processors, transfer.from + 1, transfer.to + 1});
  std::vector<double> free_at(static_cast<size_t>(processors), 0.0);
  double makespan = 0;
  for (auto index : execution_order(plan)) {
    const auto& transfer = plan.transfers[index];
    auto& sender = free_at[static_cast<size_t>(transfer.from)];
    auto& receiver = free_at[static_cast<size_t>(transfer.to)];
    double end = std::max(sender, receiver) + cost(transfer.from, transfer.to, bytes);
    sender = receiver = end;
    makespan = std::max(makespan, end);
  }
  return makespan;
}

void check_executable_structure(const MakespanPlan& plan, ProcessorIndex processor_count,
                                std::string_view source_name) {
  const auto n = static_cast<size_t>(processor_count);
  auto fail = [&](std::size_t transfer, const std::string& what) {
    throw InputError(fmt::format("{}: transfers[{}] ({} -> {}): {}", source_name, transfer,
                                 plan.transfers[transfer].from, plan.transfers[transfer].to, what));
  };
  if (plan.root < 0 || plan.root >= processor_count) {
    throw InputError(fmt::format("{}: {} {} is not one of the {} processors", source_name,
                                 plan.operation == Operation::broadcast || plan.operation == Operation::multicast
                                     ? "source"
                                     : "root",
                                 plan.root, processor_count));
  }
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.from < 0 || t.from >= processor_count || t.to < 0 || t.to >= processor_count) {
      fail(i, fmt::format("not a processor of the {} the communicator has", processor_count));
    }
    if (t.from == t.to) fail(i, "a processor sends to itself");
    if (!(t.start == t.start)) fail(i, "start is not a number");
  }
  auto order = execution_order(plan);

  // Broadcast-like phase check over the transfers with payload `value`.
  auto check_broadcast_phase = [&](ProcessorIndex source, bool everyone_receives,
                                   const std::vector<char>& must_receive) {
    std::vector<char> holds(n, 0);
    std::vector<char> received(n, 0);
    holds[static_cast<size_t>(source)] = 1;
    for (auto i : order) {
      const auto& t = plan.transfers[i];
      if (t.payload != Payload::broadcast_value) continue;
      if (!holds[static_cast<size_t>(t.from)]) fail(i, "the sender does not hold the value yet at this point of the order");
      if (t.to == source) fail(i, "the source receives");
      if (received[static_cast<size_t>(t.to)]) fail(i, "the receiver already received the value");
      received[static_cast<size_t>(t.to)] = 1;
      holds[static_cast<size_t>(t.to)] = 1;
    }
    for (size_t p = 0; p < n; ++p) {
      if (static_cast<ProcessorIndex>(p) == source) continue;
      if ((everyone_receives || must_receive[p]) && !received[p]) {
        throw InputError(fmt::format("{}: processor {} never receives the {}", source_name, p,
                                     plan.operation == Operation::allreduce ? "result" : "value"));
      }
    }
  };
  auto check_reduce_phase = [&]() {
    std::vector<char> sent(n, 0);
    std::vector<ProcessorIndex> parent(n, kNoProcessor);
    for (auto i : order) {
      const auto& t = plan.transfers[i];
      if (t.payload != Payload::partial_reduction) continue;
      if (t.from == plan.root) fail(i, "the root sends a partial result");
      if (sent[static_cast<size_t>(t.from)]) fail(i, "the sender already sent its partial result");
      if (sent[static_cast<size_t>(t.to)]) fail(i, "the receiver already sent its partial result: it would be lost");
      sent[static_cast<size_t>(t.from)] = 1;
      parent[static_cast<size_t>(t.from)] = t.to;
    }
    for (size_t p = 0; p < n; ++p) {
      if (static_cast<ProcessorIndex>(p) != plan.root && !sent[p]) {
        throw InputError(fmt::format("{}: processor {} never sends its contribution", source_name, p));
      }
    }
    // Every chain of senders ends at the root (a receiver never sends before
    // it has received, so a cycle cannot occur; this guards the invariant).
    for (size_t p = 0; p < n; ++p) {
      auto q = static_cast<ProcessorIndex>(p);
      for (size_t steps = 0; q != plan.root; ++steps) {
        if (steps > n || q == kNoProcessor) {
          throw InputError(fmt::format("{}: the contribution of processor {} never reaches the root", source_name, p));
        }
        q = parent[static_cast<size_t>(q)];
      }
    }
  };

  switch (plan.operation) {
    case Operation::broadcast:
    case Operation::multicast: {
      for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
        if (plan.transfers[i].payload != Payload::broadcast_value) fail(i, "a partial result in a broadcast");
      }
      std::vector<char> must_receive(n, 0);
      for (auto target : plan.targets) {
        if (target < 0 || target >= processor_count) {
          throw InputError(fmt::format("{}: target {} is not one of the {} processors", source_name, target,
                                       processor_count));
        }
        must_receive[static_cast<size_t>(target)] = 1;
      }
      bool multicast = plan.operation == Operation::multicast;
      if (multicast && plan.targets.empty()) throw InputError(fmt::format("{}: a multicast without targets", source_name));
      check_broadcast_phase(plan.root, !multicast, must_receive);
      break;
    }
    case Operation::reduce:
      for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
        if (plan.transfers[i].payload != Payload::partial_reduction) fail(i, "a broadcast value in a reduce");
      }
      check_reduce_phase();
      break;
    case Operation::allreduce: {
      if (is_exchange_allreduce(plan)) {
        throw InputError(fmt::format("{}: an exchange all-reduce plan (recursive doubling) is a baseline, not run "
                                     "by the runtime: MPI_Allreduce runs it itself",
                                     source_name));
      }
      check_reduce_phase();
      check_broadcast_phase(plan.root, true, {});
      // On every processor the reduce phase comes first.
      std::vector<char> in_broadcast(n, 0);
      for (auto i : order) {
        const auto& t = plan.transfers[i];
        if (t.payload == Payload::broadcast_value) {
          in_broadcast[static_cast<size_t>(t.from)] = 1;
          in_broadcast[static_cast<size_t>(t.to)] = 1;
        } else if (in_broadcast[static_cast<size_t>(t.from)] || in_broadcast[static_cast<size_t>(t.to)]) {
          fail(i, "a partial result after the broadcast of the result has reached one of its ends");
        }
      }
      // The root broadcasts only once every contribution has arrived.
      std::size_t last_partial_at_root = 0, first_value_from_root = std::numeric_limits<std::size_t>::max();
      for (std::size_t position = 0; position < order.size(); ++position) {
        const auto& t = plan.transfers[order[position]];
        if (t.payload == Payload::partial_reduction && t.to == plan.root) last_partial_at_root = position;
        if (t.payload == Payload::broadcast_value && t.from == plan.root) {
          first_value_from_root = std::min(first_value_from_root, position);
        }
      }
      if (first_value_from_root < last_partial_at_root) {
        fail(order[first_value_from_root], "the root broadcasts before the last partial result has arrived");
      }
      break;
    }
    case Operation::scatter:
    case Operation::gossip:
    case Operation::allgather:
      throw InputError(fmt::format("{}: {} plans do not run on the MPI runtime", source_name, to_string(plan.operation)));
  }
}



ExecutablePlan ExecutablePlan::prepare(MPI_Comm comm, const MakespanPlan& plan,
                                       const std::vector<std::string>& processor_ids, const RankMapping& mapping,
                                       const RuntimeOptions& options, std::string_view source_name) {
  return prepare(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds), plan, processor_ids, mapping, options, source_name);
}


ExecutablePlan ExecutablePlan::prepare(std::shared_ptr<PrivateCommunicator> communicator, const MakespanPlan& plan,
                                       const std::vector<std::string>& processor_ids, const RankMapping& mapping,
                                       const RuntimeOptions& options, std::string_view source_name) {
  ExecutablePlan result;
  result.communicator_ = communicator;
  result.options_ = options;
  const int rank = communicator->rank();
  prepare_collectively(communicator->get(), mapping, processor_ids, source_name, options.timeout_seconds,
                       [&](const std::vector<ProcessorIndex>& processor_of_rank) {
    check_executable_structure(plan, static_cast<ProcessorIndex>(processor_ids.size()), source_name);
    std::vector<ProcessorIndex> rank_of(processor_ids.size(), kNoProcessor);
    for (size_t r = 0; r < processor_of_rank.size(); ++r) {
      rank_of[static_cast<size_t>(processor_of_rank[r])] = static_cast<ProcessorIndex>(r);
    }
    auto as_rank = [&](ProcessorIndex p) { return p == kNoProcessor ? p : rank_of[static_cast<size_t>(p)]; };
    result.on_ranks_ = plan;
    auto& on_ranks = result.on_ranks_;
    on_ranks.root = as_rank(plan.root);
    for (auto& target : on_ranks.targets) target = as_rank(target);
    for (auto& helper : on_ranks.helpers) helper = as_rank(helper);
    for (auto& t : on_ranks.transfers) {
      t.from = as_rank(t.from);
      t.to = as_rank(t.to);
      t.route = {};  // routes are the network's business at run time
    }
    result.processor_ = processor_of_rank[static_cast<size_t>(rank)];
    if (plan.operation == Operation::multicast) {
      result.is_target_ = std::find(plan.targets.begin(), plan.targets.end(), result.processor_) != plan.targets.end() ||
                          result.processor_ == plan.root;
    }
    PlanHash plan_hash;
    plan_hash.add(static_cast<std::uint64_t>(plan.operation));
    plan_hash.add(static_cast<std::uint64_t>(plan.model));
    plan_hash.add(static_cast<std::uint64_t>(plan.root));
    for (auto target : plan.targets) plan_hash.add(static_cast<std::uint64_t>(target));
    for (auto helper : plan.helpers) plan_hash.add(static_cast<std::uint64_t>(helper));
    for (auto i : execution_order(plan)) {
      const auto& t = plan.transfers[i];
      plan_hash.add(static_cast<std::uint64_t>(t.from) << 32 | static_cast<std::uint32_t>(t.to));
      plan_hash.add(static_cast<std::uint64_t>(t.payload));
      std::uint64_t start_bits = 0;
      static_assert(sizeof(start_bits) == sizeof(t.start));
      std::memcpy(&start_bits, &t.start, sizeof start_bits);
      plan_hash.add(start_bits);  // eager plans pace by it
    }
    return plan_hash.value();
  });
  return result;
}

const CommProgram& ExecutablePlan::program(std::size_t count, bool rank_order) const {
  if (!last_ || last_->count != count || last_->rank_order != rank_order) {
    last_ = std::make_shared<Lowered>(
        Lowered{count, rank_order, program_of_plan(on_ranks_, size(), count, lowering_of(on_ranks_, options_, rank_order))});
  }
  return last_->program;
}

ExecutablePlan ExecutablePlan::from_files(MPI_Comm comm, const std::string& plan_path,
                                          const std::string& platform_path, const RankMapping& mapping,
                                          const RuntimeOptions& options) {
  MakespanPlan plan;
  std::vector<std::string> ids;
  std::string local_error;
  try {
    auto platform = load_platform_file(platform_path);
    if (platform.is_cluster()) {
      ids = platform.cluster().ids();
    } else {
      for (const auto& node : platform.graph().nodes()) ids.push_back(node.id);
    }
    // The reader only needs the processor ids; times do not matter here.
    Cluster names_only(ids, std::vector<double>(ids.size(), 1.0), platform_path);
    plan = parse_plan_json(read_text_file(plan_path), names_only, plan_path);
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  agree_on_outcome(comm, local_error, "hetcoll::mpi: reading the plan", options.timeout_seconds);
  return prepare(comm, plan, ids, mapping, options, plan_path);
}

}  // namespace hetcoll::mpi
