// Why running a plan cannot deadlock (executable_plan.h states the contract):
//
// Why this cannot deadlock (for any plan, valid or not in the model): all
// ranks agree on one total order of the transfers (the same plan, checked by
// a hash when the plan is prepared, sorted the same way). Take the first
// transfer u -> v in that order that has not completed. Every transfer that
// u or v runs before it comes earlier in the total order, so it has
// completed; hence u is at its send of this transfer and v at its receive,
// both posted, and MPI matches them (same communicator, source, tag; the
// messages between one pair are matched in order, MPI's non-overtaking
// rule, and both sides list them in the same order). So the first pending
// transfer always completes, and by induction all of them do. With an eager
// plan's concurrent sends the argument is the same: a broadcast rank's
// sends all follow its one receive, so once that receive has completed
// each of its sends is posted within a bounded time (its offset), and the
// first pending transfer's receiver has nothing before its receive. An
// eager reduce rank's receives are all posted at the call's start and its
// one send follows them: by induction from the leaves (which only send),
// every rank's receives complete and then its send is posted. The runtime
// uses a duplicate of the user's communicator, so no message of the user's
// can match one of ours. Data correctness is separate: the checks below
// make sure every rank forwards only what it already holds.
//
//
// Eager plans in detail (executable_plan.h states the contract):
//
// Eager plans (PlanModel::eager) differ: a broadcast rank posts each of
// its sends, a standard one, at its start time in the plan (counted from
// when the rank holds the message), without completing the earlier ones,
// and completes them all at the end; a reduce rank posts the receives from
// all its children at once, combines the values in the order the plan has
// them arrive, and sends (a standard send) once the last child's value has
// arrived (RuntimeOptions::eager_pacing always: not before its start time in
// the plan, counted from the call).

#include "hetcoll/mpi/executable_plan.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/plan/plan_json.h"

namespace hetcoll::mpi {

std::vector<std::string> gather_processor_names(MPI_Comm comm, double timeout_seconds) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME + 1, '\0');
  int length = 0;
  MPI_Get_processor_name(mine.data(), &length);
  std::vector<char> all(static_cast<size_t>(size) * mine.size(), '\0');
  MPI_Request request;
  PMPI_Iallgather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), static_cast<int>(mine.size()),
                  MPI_CHAR, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, "hetcoll::mpi: gathering processor names");
  std::vector<std::string> names;
  for (int rank = 0; rank < size; ++rank) {
    const char* name = all.data() + static_cast<size_t>(rank) * mine.size();
    names.emplace_back(name, strnlen(name, mine.size()));
  }
  return names;
}

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
  }
}

PrivateCommunicator::PrivateCommunicator(MPI_Comm user, double timeout_seconds) : user_(user) {
#ifdef HETCOLL_SMPI
  // SMPI has no MPI_Comm_idup; simulated runs need no timeout here.
  (void)timeout_seconds;
  MPI_Comm_dup(user, &private_);
#else
  MPI_Request request;
  MPI_Comm_idup(user, &private_, &request);
  wait_for_collective(request, user, timeout_seconds, "hetcoll::mpi: duplicating the communicator");
#endif
  // Errors come back as codes, so the runtime can say what failed (exchange.h).
  MPI_Comm_set_errhandler(private_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(private_, &rank_);
  MPI_Comm_size(private_, &size_);
}

PrivateCommunicator::~PrivateCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && private_ != MPI_COMM_NULL) MPI_Comm_free(&private_);
}

void agree_on_outcome(MPI_Comm comm, const std::string& local_error, std::string_view what, double timeout_seconds) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // The lowest failing rank wins: it contributes (INT_MAX - rank), others 0.
  int mine = local_error.empty() ? 0 : std::numeric_limits<int>::max() - rank;
  int worst = 0;
  MPI_Request request;
  PMPI_Iallreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  if (worst == 0) return;
  int failing_rank = std::numeric_limits<int>::max() - worst;
  int length = rank == failing_rank ? static_cast<int>(local_error.size()) : 0;
  PMPI_Bcast(&length, 1, MPI_INT, failing_rank, comm);
  std::string message(static_cast<size_t>(length), '\0');
  if (rank == failing_rank) message = local_error;
  if (length > 0) PMPI_Bcast(message.data(), length, MPI_CHAR, failing_rank, comm);
  throw MismatchError(fmt::format("{}: rank {} reports: {}", what, failing_rank, message));
}

ExecutablePlan ExecutablePlan::prepare(MPI_Comm comm, const MakespanPlan& plan,
                                       const std::vector<std::string>& processor_ids, const RankMapping& mapping,
                                       const RuntimeOptions& options, std::string_view source_name) {
  return prepare(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds), plan, processor_ids, mapping, options, source_name);
}

void prepare_collectively(MPI_Comm comm, const RankMapping& mapping, const std::vector<std::string>& processor_ids,
                          std::string_view source_name, double timeout_seconds,
                          const std::function<std::uint64_t(const std::vector<ProcessorIndex>&)>& build) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Every rank takes part in the same collectives whatever it finds locally
  // (even if only some ranks asked for a mapping by processor name).
  int wants_names = mapping.kind() == RankMapping::Kind::by_processor_name ? 1 : 0;
  int any_wants_names = 0;
  constexpr std::string_view what = "hetcoll::mpi: preparing the plan";
  MPI_Request request;
  PMPI_Iallreduce(&wants_names, &any_wants_names, 1, MPI_INT, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  std::vector<std::string> names;
  if (any_wants_names) names = gather_processor_names(comm, timeout_seconds);

  std::string local_error;
  std::uint64_t hash = 0;
  try {
    auto processor_count = static_cast<ProcessorIndex>(processor_ids.size());
    if (processor_count != size) {
      throw InputError(fmt::format("{}: the plan has {} processors but the communicator {} ranks", source_name,
                                   processor_count, size));
    }
    auto find = [&](std::string_view text) -> std::optional<ProcessorIndex> {
      for (size_t p = 0; p < processor_ids.size(); ++p) {
        if (processor_ids[p] == text) return static_cast<ProcessorIndex>(p);
      }
      return parse_processor_index(text, processor_ids.size());
    };
    auto processor_of_rank = mapping.resolve(size, processor_count, find, names, source_name);
    PlanHash mapping_hash;
    for (auto p : processor_of_rank) mapping_hash.add(static_cast<std::uint64_t>(p));
    mapping_hash.add(build(processor_of_rank));
    hash = mapping_hash.value();
  } catch (const std::exception& error) {
    local_error = error.what();
    if (local_error.empty()) local_error = "unknown error";
  }
  agree_on_outcome(comm, local_error, what, timeout_seconds);
  // Same plan and mapping everywhere? max(hash) == min(hash).
  std::uint64_t mine[2] = {hash, ~hash};
  std::uint64_t largest[2] = {0, 0};
  PMPI_Iallreduce(mine, largest, 2, MPI_UINT64_T, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  if (largest[0] != ~largest[1]) {
    throw MismatchError(fmt::format(
        "hetcoll::mpi: preparing the plan: {}: the ranks hold different plans or rank mappings (rank {} has plan hash "
        "{:016x}); every rank must read the same plan file and mapping",
        source_name, rank, hash));
  }
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
    std::vector<int> rank_of(processor_ids.size(), -1);
    for (size_t r = 0; r < processor_of_rank.size(); ++r) {
      rank_of[static_cast<size_t>(processor_of_rank[r])] = static_cast<int>(r);
    }
    result.operation_ = plan.operation;
    result.algorithm_ = plan.algorithm;
    result.predicted_makespan_ = plan.makespan;
    result.concurrent_sends_ = plan.model == PlanModel::eager;
    result.processor_ = processor_of_rank[static_cast<size_t>(rank)];
    result.root_rank_ = rank_of[static_cast<size_t>(plan.root)];
    if (plan.operation == Operation::multicast) {
      result.is_target_ = std::find(plan.targets.begin(), plan.targets.end(), result.processor_) != plan.targets.end() ||
                          result.processor_ == plan.root;
    }
    PlanHash plan_hash;
    plan_hash.add(static_cast<std::uint64_t>(plan.operation));
    plan_hash.add(static_cast<std::uint64_t>(plan.model));
    plan_hash.add(static_cast<std::uint64_t>(plan.root));
    for (auto target : plan.targets) plan_hash.add(static_cast<std::uint64_t>(target));
    // Eager plans: when this rank holds the message (the end of its receive).
    double holds_from = 0;
    for (const auto& t : plan.transfers) {
      if (t.to == result.processor_ && t.payload == Payload::broadcast_value) holds_from = t.end;
    }
    for (auto i : execution_order(plan)) {
      const auto& t = plan.transfers[i];
      plan_hash.add(static_cast<std::uint64_t>(t.from) << 32 | static_cast<std::uint32_t>(t.to));
      plan_hash.add(static_cast<std::uint64_t>(t.payload));
      if (t.from == result.processor_ || t.to == result.processor_) {
        RankStep step;
        step.kind = t.from == result.processor_ ? RankStep::Kind::send : RankStep::Kind::receive;
        step.peer = rank_of[static_cast<size_t>(step.kind == RankStep::Kind::send ? t.to : t.from)];
        step.payload = t.payload;
        step.transfer = i;
        // Times are seconds only on platforms of latency and bandwidth (a
        // plan with a message size); a fixed-cost plan's sends are not paced.
        if (result.concurrent_sends_ && plan.message_size && step.kind == RankStep::Kind::send) {
          step.offset = std::max(0.0, t.start - holds_from);  // a reduce: holds_from = 0, the call's start
        }
        if (result.concurrent_sends_) step.planned_end = t.end;
        result.steps_.push_back(step);
      }
    }
    return plan_hash.value();
  });
  return result;
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
