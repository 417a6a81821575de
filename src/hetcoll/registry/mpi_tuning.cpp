#include "hetcoll/registry/mpi_tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/registry/program_chooser.h"

namespace hetcoll {

std::vector<int> default_tuning_communicator_sizes(int hosts) {
  std::vector<int> sizes;
  for (int size = 2; size < hosts; size *= 2) sizes.push_back(size);
  if (hosts >= 2) sizes.push_back(hosts);
  return sizes;
}

std::vector<std::size_t> tuning_message_sizes(std::size_t from, std::size_t to, std::size_t step) {
  if (from == 0) throw InputError("message_bytes", "the smallest message size must be at least 1 byte");
  if (step < 2) throw InputError("step", fmt::format("must be at least 2, got {}", step));
  std::vector<std::size_t> sizes;
  for (std::size_t size = from; size <= to; size *= step) sizes.push_back(size);
  return sizes;
}

namespace {

int pof2_at_most(int n) {
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  return pof2;
}

}  // namespace

MpiTuning tune_stock_mpi(const LoadedPlatform& platform, const MpiTuningOptions& options) {
  if (!chooser_applies(platform)) {
    throw InputError("platform", fmt::format("{}: tuning needs a platform graph with latencies and bandwidths",
                                             platform.source_name));
  }
  const auto hosts = platform.graph().participants();
  const int host_count = static_cast<int>(hosts.size());
  MpiTuning tuning;
  tuning.library = options.library;
  tuning.platform_name = platform.source_name;
  tuning.element_bytes = options.element_bytes;
  tuning.root = options.root;
  tuning.commutative_only = options.commutative_only;
  tuning.replace_unmodelled_default = options.replace_unmodelled_default;
  tuning.communicator_sizes = options.communicator_sizes.empty() ? default_tuning_communicator_sizes(host_count)
                                                                 : options.communicator_sizes;
  tuning.message_bytes =
      options.message_bytes.empty() ? tuning_message_sizes(4, std::size_t{16} << 20, 4) : options.message_bytes;
  std::sort(tuning.communicator_sizes.begin(), tuning.communicator_sizes.end());
  tuning.communicator_sizes.erase(std::unique(tuning.communicator_sizes.begin(), tuning.communicator_sizes.end()),
                                  tuning.communicator_sizes.end());
  std::sort(tuning.message_bytes.begin(), tuning.message_bytes.end());
  tuning.message_bytes.erase(std::unique(tuning.message_bytes.begin(), tuning.message_bytes.end()),
                             tuning.message_bytes.end());

  if (options.element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  if (tuning.communicator_sizes.empty()) {
    throw InputError("communicator_sizes", fmt::format("{} has {} host(s): a communicator needs 2",
                                                       platform.source_name, host_count));
  }
  for (int size : tuning.communicator_sizes) {
    if (size < 2 || size > host_count) {
      throw InputError("communicator_sizes", fmt::format("{} is not 2 to {} (the hosts of {})", size, host_count,
                                                         platform.source_name));
    }
  }
  if (tuning.message_bytes.empty()) throw InputError("message_bytes", "no message size to tune");
  for (std::size_t bytes : tuning.message_bytes) {
    const std::size_t count = bytes / options.element_bytes;
    if (bytes == 0 || bytes % options.element_bytes != 0) {
      throw InputError("message_bytes", fmt::format("{} is not a positive multiple of the element size ({} bytes)",
                                                    bytes, options.element_bytes));
    }
    if (count > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      throw InputError("message_bytes", fmt::format("{} bytes is more than MPI's int count of {}-byte elements",
                                                    bytes, options.element_bytes));
    }
  }
  if (options.root < 0 || options.root >= tuning.communicator_sizes.front()) {
    throw InputError("root", fmt::format("root {} is not a rank of the smallest communicator ({} ranks)", options.root,
                                         tuning.communicator_sizes.front()));
  }
  for (Operation operation : options.operations) openmpi_collective_id(operation);  // bcast, reduce, allreduce only

  const double infinity = std::numeric_limits<double>::infinity();
  for (Operation operation : options.operations) {
    for (int size : tuning.communicator_sizes) {
      const std::vector<ProcessorIndex> ranks(hosts.begin(), hosts.begin() + size);
      const FlowNetwork network(platform.graph(), ranks);
      for (std::size_t bytes : tuning.message_bytes) {
        MpiTuningCell cell;
        cell.operation = operation;
        cell.ranks = size;
        cell.message_bytes = bytes;
        cell.count = bytes / options.element_bytes;
        cell.seconds = infinity;
        CallShape call;
        call.operation = operation;
        call.root = operation == Operation::allreduce ? 0 : options.root;
        call.count = cell.count;
        call.element_bytes = options.element_bytes;
        auto predict = [&](std::string_view program) {
          const auto& algorithm = find_mpi_algorithm(operation, program);
          if (!algorithm.refusal(size, call.count, call.element_bytes).empty()) return infinity;
          try {
            return predict_candidate(platform, ranks, network, call, fmt::format("mpi:{}", program), options.flow);
          } catch (const InputError&) {
            return infinity;  // a call the program refuses
          }
        };
        for (const auto& stock : stock_mpi_algorithms()) {
          if (stock.library != options.library || stock.operation != operation || stock.program.empty()) continue;
          if (stock.library == StockMpi::openmpi && stock.commutative_only && !options.commutative_only) continue;
          if (stock.needs_count_at_least_pof2 && call.count < static_cast<std::size_t>(pof2_at_most(size))) continue;
          const double seconds = predict(stock.program);
          if (!std::isfinite(seconds)) continue;
          cell.predictions.push_back({std::string(stock.program), seconds});
          if (seconds < cell.seconds) {
            cell.seconds = seconds;
            cell.program = stock.program;
            cell.library_name = stock.name;
            cell.openmpi_id = stock.id;
          }
        }
        if (cell.program.empty()) {
          throw InputError("message_bytes", fmt::format("no modelled {} algorithm runs {} bytes on {} ranks",
                                                        to_string(operation), bytes, size));
        }
        if (options.library == StockMpi::openmpi) {
          cell.parameters = openmpi_parameters(operation, cell.program, size, cell.count, options.element_bytes);
          cell.default_id = openmpi_fixed_algorithm(operation, size, bytes, true);
          cell.default_program =
              openmpi_default_program(operation, size, cell.count, options.element_bytes, true);
          cell.default_seconds = cell.default_program.empty() ? std::nan("") : predict(cell.default_program);
          cell.smpi_selector_program = smpi_ompi_selector_program(operation, cell.default_id);
          cell.smpi_selector_seconds = std::nan("");
          for (const auto& algorithm : mpi_algorithms()) {
            if (algorithm.operation == operation && algorithm.name == cell.smpi_selector_program) {
              cell.smpi_selector_seconds = predict(cell.smpi_selector_program);
            }
          }
          // Open MPI's own decision where it is predicted as fast: rule 0
          // (it also picks by the operation's commutativity).
          const bool keep_unmodelled = cell.default_program.empty() && !options.replace_unmodelled_default;
          if (keep_unmodelled || (!cell.default_program.empty() && cell.default_seconds <= cell.seconds)) {
            cell.program = cell.default_program;  // empty when not modelled
            cell.library_name = "default";
            cell.openmpi_id = 0;
            cell.seconds = cell.default_seconds;
            cell.parameters = {};
          }
        } else {
          cell.default_seconds = std::nan("");
        }
        tuning.cells.push_back(std::move(cell));
      }
    }
  }
  return tuning;
}

}  // namespace hetcoll
