#include "hetcoll/report/mpi_tuning_files.h"

#include <cmath>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

using ordered_json = nlohmann::ordered_json;

std::string_view operation_word(Operation operation) {
  switch (operation) {
    case Operation::broadcast: return "bcast";
    case Operation::reduce: return "reduce";
    case Operation::allreduce: return "allreduce";
    default: return "?";
  }
}

std::string bytes_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

std::vector<Operation> operations_of(const MpiTuning& tuning) {
  std::vector<Operation> operations;
  for (const auto& cell : tuning.cells) {
    if (operations.empty() || operations.back() != cell.operation) operations.push_back(cell.operation);
  }
  return operations;
}

// The cells of one (operation, communicator size), by message size.
std::vector<const MpiTuningCell*> cells_of(const MpiTuning& tuning, Operation operation, int ranks) {
  std::vector<const MpiTuningCell*> cells;
  for (const auto& cell : tuning.cells) {
    if (cell.operation == operation && cell.ranks == ranks) cells.push_back(&cell);
  }
  return cells;
}

bool same_rule(const MpiTuningCell& a, const MpiTuningCell& b) {
  return a.openmpi_id == b.openmpi_id && a.parameters.fanout == b.parameters.fanout &&
         a.parameters.segment_bytes == b.parameters.segment_bytes && a.library_name == b.library_name;
}

// Runs of classes with the same rule: the first cell of each.
std::vector<const MpiTuningCell*> rule_starts(const std::vector<const MpiTuningCell*>& cells) {
  std::vector<const MpiTuningCell*> starts;
  for (const auto* cell : cells) {
    if (starts.empty() || !same_rule(*starts.back(), *cell)) starts.push_back(cell);
  }
  return starts;
}

std::string modelled_list(StockMpi library, bool modelled) {
  std::string text;
  for (Operation operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    std::string part;
    for (const auto& algorithm : stock_mpi_algorithms()) {
      if (algorithm.library != library || algorithm.operation != operation) continue;
      if (algorithm.program.empty() == modelled) continue;
      const std::string item = library == StockMpi::openmpi
                                   ? (modelled ? fmt::format("{} {} = {}", algorithm.id, algorithm.name,
                                                             algorithm.program)
                                               : fmt::format("{} {}", algorithm.id, algorithm.name))
                                   : (modelled ? fmt::format("{} = {}", algorithm.name, algorithm.program)
                                               : std::string(algorithm.name));
      part += fmt::format("{}{}", part.empty() ? "" : ", ", item);
    }
    text += fmt::format("#   {}: {}\n", operation_word(operation), part.empty() ? "none" : part);
  }
  return text;
}

}  // namespace

std::string mpi_tuning_text(const MpiTuning& tuning) {
  const bool openmpi = tuning.library == StockMpi::openmpi;
  std::ostringstream out;
  out << fmt::format("{} tuning for {}: {}-byte elements, root {}, predicted by the flow model (SimGrid CM02, "
                     "SMPI's sends)\n",
                     openmpi ? "Open MPI" : "MPICH", tuning.platform_name, tuning.element_bytes, tuning.root);
  for (Operation operation : operations_of(tuning)) {
    for (int ranks : tuning.communicator_sizes) {
      const auto cells = cells_of(tuning, operation, ranks);
      out << fmt::format("{} on {} ranks\n", operation_word(operation), ranks);
      if (openmpi) {
        out << fmt::format("  {:>9}  {:<24} {:>11}  {:<36} {}\n", "from", "written", "predicted",
                           "Open MPI's default", "speed-up");
      } else {
        out << fmt::format("  {:>9}  {:<56} {:>11}\n", "from", "written", "predicted");
      }
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto& cell = *cells[i];
        if (openmpi) {
          const std::string written = fmt::format("{} {}", cell.openmpi_id, cell.library_name);
          const auto default_name = openmpi_algorithm_name(cell.operation, cell.default_id);
          std::string library_default = fmt::format("{} {} (not modelled)", cell.default_id, default_name);
          std::string speedup = "-";
          if (!cell.default_program.empty()) {
            library_default = fmt::format("{} {} {:.4g} s", cell.default_id, default_name, cell.default_seconds);
            speedup = fmt::format("{:.2f}x", cell.default_seconds / cell.seconds);
          }
          const std::string predicted =
              std::isfinite(cell.seconds) ? fmt::format("{:>9.4g} s", cell.seconds) : std::string(11, ' ');
          out << fmt::format("  {:>9}  {:<24} {}  {:<36} {}\n", bytes_text(cell.message_bytes), written, predicted,
                             library_default, speedup);
        } else {
          out << fmt::format("  {:>9}  {:<56} {:>9.4g} s\n", bytes_text(cell.message_bytes), cell.library_name,
                             cell.seconds);
        }
      }
    }
  }
  return out.str();
}

std::string mpi_tuning_json(const MpiTuning& tuning) {
  auto seconds = [](double value) { return std::isfinite(value) ? ordered_json(value) : ordered_json(nullptr); };
  ordered_json root = ordered_json::object();
  root["library"] = tuning.library == StockMpi::openmpi ? "openmpi" : "mpich";
  root["platform"] = tuning.platform_name;
  root["element_bytes"] = tuning.element_bytes;
  root["root"] = tuning.root;
  ordered_json cells = ordered_json::array();
  for (const auto& cell : tuning.cells) {
    ordered_json item = ordered_json::object();
    item["collective"] = operation_word(cell.operation);
    item["ranks"] = cell.ranks;
    item["message_bytes"] = cell.message_bytes;
    item["count"] = cell.count;
    item["program"] = cell.program;
    item["name"] = cell.library_name;
    item["openmpi_id"] = cell.openmpi_id;
    item["segment_bytes"] = cell.parameters.segment_bytes;
    item["fanout"] = cell.parameters.fanout;
    item["seconds"] = seconds(cell.seconds);
    item["default_id"] = cell.default_id;
    item["default_program"] = cell.default_program;
    item["default_seconds"] = seconds(cell.default_seconds);
    item["smpi_selector_program"] = cell.smpi_selector_program;
    item["smpi_selector_seconds"] = seconds(cell.smpi_selector_seconds);
    ordered_json predictions = ordered_json::object();
    for (const auto& prediction : cell.predictions) predictions[prediction.program] = seconds(prediction.seconds);
    item["predictions"] = predictions;
    cells.push_back(item);
  }
  root["cells"] = cells;
  return root.dump(2) + "\n";
}

std::string openmpi_rules_file(const MpiTuning& tuning) {
  std::ostringstream out;
  out << "# Open MPI coll_tuned dynamic rules (classic format, Open MPI 4.1), written by hetcoll tune.\n"
      << "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename THIS_FILE ...\n"
      << fmt::format("# Platform {}: a communicator of n ranks plays its first n hosts. Each rule is the algorithm\n",
                     tuning.platform_name)
      << fmt::format("# predicted fastest at the rule's message size ({}-byte elements, root {})\n",
                     tuning.element_bytes, tuning.root)
      << "# by hetcoll's flow model; it holds up to the next rule. Open MPI applies these rules to every\n"
      << (tuning.commutative_only
              ? "# operation: written with --commutative-only, this file is WRONG for non-commutative operations\n"
                "# (reduce pipeline, binary, binomial; all-reduce ring, segmented ring).\n"
              : "# operation: only algorithms correct for non-commutative operations are written for reduce and\n"
                "# all-reduce (hetcoll tune --commutative-only allows the others).\n")
      << "# Open MPI algorithms modelled (id name = SimGrid SMPI program):\n"
      << modelled_list(StockMpi::openmpi, true) << "# Not modelled, never written:\n"
      << modelled_list(StockMpi::openmpi, false)
      << "# Lines: collectives; collective id, communicator sizes; size, message sizes;\n"
      << "# message bytes, algorithm, fan-in/out, segment bytes.\n";
  const auto operations = operations_of(tuning);
  out << operations.size() << "  # collectives\n";
  for (Operation operation : operations) {
    out << openmpi_collective_id(operation) << "  # " << operation_word(operation) << "\n";
    out << tuning.communicator_sizes.size() << "  # communicator sizes\n";
    for (int ranks : tuning.communicator_sizes) {
      const auto starts = rule_starts(cells_of(tuning, operation, ranks));
      out << ranks << "  # ranks\n" << starts.size() << "  # message sizes\n";
      for (std::size_t i = 0; i < starts.size(); ++i) {
        const auto& cell = *starts[i];
        const std::string from = i == 0 ? std::string("0") : std::to_string(cell.message_bytes);
        const std::string library_default =
            cell.default_program.empty()
                ? fmt::format("Open MPI's default: {} (not modelled)", cell.default_id)
                : fmt::format("Open MPI's default: {} {:.4g} s", cell.default_id, cell.default_seconds);
        const std::string written = cell.program.empty()
                                        ? std::string("default (not modelled: kept)")
                                        : fmt::format("{} ({}), {:.4g} s", cell.library_name, cell.program,
                                                      cell.seconds);
        out << fmt::format("{} {} {} {}  # {}: {}; {}\n", from, cell.openmpi_id, cell.parameters.fanout,
                           cell.parameters.segment_bytes,
                           i == 0 ? "from 0 B" : fmt::format("from {}", bytes_text(cell.message_bytes)), written,
                           library_default);
      }
    }
  }
  return out.str();
}

std::string mpich_selection_json(const MpiTuning& tuning, const std::optional<std::string>& base_json) {
  ordered_json root = ordered_json::object();
  if (base_json) {
    try {
      root = ordered_json::parse(*base_json);
    } catch (const ordered_json::parse_error& error) {
      throw InputError("base", fmt::format("not JSON: {}", error.what()));
    }
    if (!root.is_object()) throw InputError("base", "not a JSON object (MPICH's selection file is one)");
  }
  auto algorithm_leaf = [](std::string_view name) {
    ordered_json leaf = ordered_json::object();
    leaf[fmt::format("algorithm={}", name)] = ordered_json::object();
    return leaf;
  };
  auto fallback_of = [](Operation operation) -> std::string_view {
    if (operation == Operation::reduce) return "MPIR_Reduce_intra_binomial";
    if (operation == Operation::allreduce) return "MPIR_Allreduce_intra_recursive_doubling";
    return "MPIR_Bcast_intra_binomial";
  };
  auto leaf_of = [&](const MpiTuningCell& cell) {
    const std::string_view fallback = fallback_of(cell.operation);
    if (cell.operation == Operation::broadcast || cell.library_name == fallback) return algorithm_leaf(cell.library_name);
    bool needs_pof2 = false;
    for (const auto& algorithm : stock_mpi_algorithms()) {
      if (algorithm.library == StockMpi::mpich && algorithm.name == cell.library_name) {
        needs_pof2 = algorithm.needs_count_at_least_pof2;
      }
    }
    ordered_json inner = algorithm_leaf(cell.library_name);
    if (needs_pof2) {
      ordered_json guarded = ordered_json::object();
      guarded["count<pow2"] = algorithm_leaf(fallback);
      guarded["count=any"] = algorithm_leaf(cell.library_name);
      inner = ordered_json::object();
      inner["is_op_built_in=yes"] = guarded;
      inner["is_op_built_in=no"] = algorithm_leaf(fallback);
    }
    ordered_json leaf = ordered_json::object();
    leaf["is_commutative=yes"] = inner;
    leaf["is_commutative=no"] = algorithm_leaf(fallback);
    return leaf;
  };
  for (Operation operation : operations_of(tuning)) {
    ordered_json intra = ordered_json::object();
    const auto& sizes = tuning.communicator_sizes;
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      const auto starts = rule_starts(cells_of(tuning, operation, sizes[s]));
      ordered_json by_size = ordered_json::object();
      for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::string key = i + 1 < starts.size()
                                    ? fmt::format("avg_msg_size<{}", starts[i + 1]->message_bytes)
                                    : std::string("avg_msg_size=any");
        by_size[key] = leaf_of(*starts[i]);
      }
      const std::string key =
          s + 1 < sizes.size() ? fmt::format("comm_size<{}", sizes[s + 1]) : std::string("comm_size=any");
      intra[key] = by_size;
    }
    ordered_json collective = ordered_json::object();
    collective["comm_type=intra"] = intra;
    collective["comm_type=inter"] =
        algorithm_leaf(operation == Operation::broadcast ? "MPIR_Bcast_inter_remote_send_local_bcast"
                       : operation == Operation::reduce  ? "MPIR_Reduce_inter_local_reduce_remote_send"
                                                         : "MPIR_Allreduce_inter_reduce_exchange_bcast");
    root[fmt::format("collective={}", operation_word(operation))] = collective;
  }
  return root.dump(4) + "\n";
}

namespace {

// Open MPI's ompi_coll_base_file_getnext_long over the whole text: the
// integers, '#' comments skipped to the end of the line; with the line of each.
struct Token {
  long value = 0;
  int line = 0;
};

std::vector<Token> rule_tokens(std::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      const std::string number(text.substr(i, end - i));
      if (number == "-") throw InputError("rules", fmt::format("line {}: a '-' that starts no number", line));
      if (number.size() > 1 && number[0] == '0') {
        throw InputError("rules", fmt::format("line {}: {} has a leading zero (Open MPI reads it as octal)", line,
                                              number));
      }
      tokens.push_back({std::stol(number), line});
      i = end;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else {
      throw InputError("rules", fmt::format("line {}: unexpected '{}' outside a comment", line, c));
    }
  }
  return tokens;
}

}  // namespace

std::optional<OpenMpiRule> openmpi_rules_lookup(std::string_view rules_text, int collective_id, int ranks,
                                                std::size_t message_bytes) {
  const auto tokens = rule_tokens(rules_text);
  std::size_t next = 0;
  auto read = [&](const char* what) {
    if (next >= tokens.size()) throw InputError("rules", fmt::format("the file ends before {}", what));
    const Token token = tokens[next++];
    if (token.value < 0) throw InputError("rules", fmt::format("line {}: {} is negative", token.line, what));
    return token;
  };
  constexpr long kCollectives = 22;  // COLLCOUNT
  const long collectives = read("the number of collectives").value;
  if (collectives > kCollectives) throw InputError("rules", "more collectives than Open MPI has");
  std::optional<OpenMpiRule> found;
  for (long c = 0; c < collectives; ++c) {
    const Token id = read("a collective id");
    if (id.value >= kCollectives) throw InputError("rules", fmt::format("line {}: collective id {}", id.line, id.value));
    const long sizes = read("the number of communicator sizes").value;
    std::optional<OpenMpiRule> best_of_collective;
    bool size_chosen = false;
    long previous_size = -1;
    for (long s = 0; s < sizes; ++s) {
      const Token size = read("a communicator size");
      if (size.value < previous_size) {
        throw InputError("rules", fmt::format("line {}: communicator sizes must ascend", size.line));
      }
      previous_size = size.value;
      const long messages = read("the number of message sizes").value;
      // Open MPI keeps the first size, then each size at or below the communicator's.
      const bool this_size = s == 0 || (!size_chosen && size.value <= ranks);
      if (s > 0 && size.value > ranks) size_chosen = true;
      std::optional<OpenMpiRule> best_of_size;
      bool stopped = false;  // Open MPI stops at the first size above the call's
      for (long m = 0; m < messages; ++m) {
        const Token bytes = read("a message size");
        OpenMpiRule rule;
        rule.algorithm = static_cast<int>(read("an algorithm").value);
        rule.fanout = static_cast<int>(read("a fan-in/out").value);
        rule.segment_bytes = read("a segment size").value;
        if (m == 0 && bytes.value != 0) {
          throw InputError("rules", fmt::format("line {}: the first message size must be 0", bytes.line));
        }
        if (m == 0) best_of_size = rule;
        if (!stopped && static_cast<std::size_t>(bytes.value) <= message_bytes) {
          best_of_size = rule;
        } else {
          stopped = true;
        }
      }
      if (this_size) best_of_collective = best_of_size;
    }
    if (id.value == collective_id && sizes > 0) found = best_of_collective;
  }
  if (found && found->algorithm == 0) return std::nullopt;
  return found;
}

namespace {

std::size_t pof2_size_at_most(int n) {
  std::size_t pof2 = 1;
  while (pof2 * 2 <= static_cast<std::size_t>(n)) pof2 *= 2;
  return pof2;
}

bool key_holds(const std::string& key, std::string_view collective, int ranks, std::size_t bytes, std::size_t count) {
  auto number_after = [&](std::string_view prefix) { return std::stoll(key.substr(prefix.size())); };
  const auto r = static_cast<long long>(ranks);
  const auto b = static_cast<long long>(bytes);
  if (key.size() >= 4 && key.ends_with("=any")) return true;
  if (key.starts_with("collective=")) return key.substr(11) == collective;
  if (key == "comm_type=intra" || key == "is_op_built_in=yes" || key == "is_commutative=yes") return true;
  if (key == "comm_type=inter" || key == "is_op_built_in=no" || key == "is_commutative=no" ||
      key == "comm_hierarchy=parent" || key == "is_multi_threaded=yes") {
    return false;
  }
  if (key == "is_multi_threaded=no") return true;
  if (key == "comm_size=pow2") return pof2_size_at_most(ranks) == static_cast<std::size_t>(ranks);
  if (key.starts_with("comm_size<=")) return r <= number_after("comm_size<=");
  if (key.starts_with("comm_size<")) return r < number_after("comm_size<");
  if (key.starts_with("avg_msg_size<=")) return b <= number_after("avg_msg_size<=");
  if (key.starts_with("avg_msg_size<")) return b < number_after("avg_msg_size<");
  if (key == "count<pow2") return count < pof2_size_at_most(ranks);
  throw InputError("json", fmt::format("key \"{}\" is not read by this reader", key));
}

std::string select(const ordered_json& node, std::string_view collective, int ranks, std::size_t bytes,
                   std::size_t count, const std::string& path) {
  if (!node.is_object()) throw InputError("json", fmt::format("{}: not an object", path));
  for (const auto& [key, value] : node.items()) {
    if (key.starts_with("algorithm=")) return key.substr(10);
    if (key_holds(key, collective, ranks, bytes, count)) {
      return select(value, collective, ranks, bytes, count, path + "/" + key);
    }
  }
  throw InputError("json", fmt::format("{}: no key matches (MPICH would assert)", path));
}

}  // namespace

std::string mpich_json_lookup(std::string_view json_text, std::string_view collective, int ranks,
                              std::size_t message_bytes, std::size_t count) {
  ordered_json root;
  try {
    root = ordered_json::parse(json_text);
  } catch (const ordered_json::parse_error& error) {
    throw InputError("json", fmt::format("not JSON: {}", error.what()));
  }
  return select(root, collective, ranks, message_bytes, count, "");
}

}  // namespace hetcoll
