#include "hetcoll/steady/reduce_lp.h"

#include <chrono>
#include <optional>
#include <set>

#include "hetcoll/core/error.h"
#include "hetcoll/steady/reduce_tree_pricing.h"

namespace hetcoll {

void check_reduce_problem(const SteadyPlatform& platform, const ReduceProblem& problem) {
  const auto& graph = *platform.platform;
  if (problem.participants.size() < 2) {
    throw InputError("participants: a reduce needs at least two participants (got " +
                     std::to_string(problem.participants.size()) + ")");
  }
  std::set<ProcessorIndex> seen;
  for (auto p : problem.participants) {
    require_participant(graph, p, "participants");
    if (!seen.insert(p).second) throw InputError("participants: " + graph.id(p) + " is listed twice");
  }
  if (problem.root == kNoProcessor || !seen.count(problem.root)) {
    throw InputError("root: " + (problem.root == kNoProcessor ? std::string("none") : graph.id(problem.root)) +
                     " is not a participant (the root holds a value and the result)");
  }
  for (auto p : problem.participants) {
    if (p == problem.root) continue;
    if (!platform.reachable_from(p, false)[static_cast<std::size_t>(problem.root)]) {
      throw NoSolutionError("participant " + graph.id(p) + " cannot reach the root " + graph.id(problem.root));
    }
  }
}

ReduceLpResult solve_reduce_lp(const SteadyPlatform& platform, const ReduceProblem& problem,
                               const lp::SolveOptions& given_options, ReduceLpMethod method) {
  lp::SolveOptions options = given_options;
  check_reduce_problem(platform, problem);
  const auto& graph = *platform.platform;
  const auto& edges = graph.edges();
  const int count = static_cast<int>(problem.participants.size());
  const int last_position = count - 1;
  const int types = count * (count + 1) / 2;
  const auto n = static_cast<std::size_t>(graph.size());
  std::vector<int> position(n, -1);
  for (int r = 0; r < count; ++r) position[static_cast<std::size_t>(problem.participants[static_cast<std::size_t>(r)])] = r;
  const auto root = problem.root;

  lp::Model model;
  ReduceLpIndex index;
  index.participants = count;
  index.nodes = static_cast<int>(n);
  index.root = root;
  index.order = problem.participants;
  const int throughput = model.add_column(1, "TP");
  index.throughput_column = throughput;
  // Column generation starts from the columns of "flat" reductions: own
  // values and prefixes v[0,m] travel, tasks extend a prefix by one value.
  std::vector<int> initial_columns{throughput};
  const auto ports = add_port_rows(model, platform);
  std::vector<int> compute_row(n, -1);
  for (auto p : problem.participants) {
    if (platform.compute_time[static_cast<std::size_t>(p)]) {
      compute_row[static_cast<std::size_t>(p)] = model.add_row(lp::RowSense::less_equal, 1, {"compute", {graph.id(p)}});
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    for (int row : {ports.send_row[v], ports.receive_row[v], compute_row[v]}) {
      if (row >= 0) index.resource_rows.push_back(row);
    }
  }
  const int throughput_row = model.add_row(lp::RowSense::equal, 0, {"throughput", {}});
  index.throughput_row = throughput_row;
  model.add_entry(throughput_row, throughput, -1);

  // Conservation rows (node, type), created on first use; -1 = exempt.
  std::vector<int> conservation(n * static_cast<std::size_t>(types), -2);
  const auto exempt = [&](ProcessorIndex v, int first, int last) {
    if (first == last && position[static_cast<std::size_t>(v)] == first) return true;  // own value
    return v == root && first == 0 && last == last_position;                          // the result
  };
  const auto conservation_row = [&](ProcessorIndex v, int first, int last) {
    auto& row = conservation[static_cast<std::size_t>(v) * static_cast<std::size_t>(types) +
                             static_cast<std::size_t>(partial_index(count, first, last))];
    if (row == -2) {
      row = exempt(v, first, last) ? -1
                                   : model.add_row(lp::RowSense::equal, 0,
                                                   {"conservation", {graph.id(v), std::to_string(first), std::to_string(last)}});
    }
    return row;
  };
  // Adds `sign` x column to the balance of v[first,last] at v (or to the
  // throughput row for the result arriving at, or computed on, the root).
  const auto balance = [&](ProcessorIndex v, int first, int last, int column, int sign) {
    if (v == root && first == 0 && last == last_position) {
      if (sign > 0) model.add_entry(throughput_row, column, 1);
      return;
    }
    const int row = conservation_row(v, first, last);
    if (row >= 0) model.add_entry(row, column, sign);
  };

  struct SendColumn {
    std::size_t edge;
    int first;
    int last;
    int column;
  };
  std::vector<SendColumn> send_columns;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto from = edges[e].from;
    const auto to = edges[e].to;
    if (!platform.usable[e]) continue;
    for (int first = 0; first < count; ++first) {
      for (int last = first; last < count; ++last) {
        if (first == last && position[static_cast<std::size_t>(to)] == first) continue;  // back to its owner
        if (from == root && first == 0 && last == last_position) continue;            // the result stays
        const int column = model.add_column(0);
        send_columns.push_back({e, first, last, column});
        index.sends.push_back({from, to, partial_index(count, first, last), column});
        if (first == last || first == 0) initial_columns.push_back(column);
        add_edge_usage(model, platform, ports, column, e);
        balance(from, first, last, column, -1);
        balance(to, first, last, column, +1);
      }
    }
  }
  struct TaskColumn {
    ProcessorIndex node;
    int first;
    int split;
    int last;
    int column;
  };
  std::vector<TaskColumn> task_columns;
  for (auto p : problem.participants) {
    const auto& time = platform.compute_time[static_cast<std::size_t>(p)];
    for (int first = 0; first < count; ++first) {
      for (int last = first + 1; last < count; ++last) {
        for (int split = first; split < last; ++split) {
          const int column = model.add_column(0);
          task_columns.push_back({p, first, split, last, column});
          index.tasks.push_back({position[static_cast<std::size_t>(p)], first, split, last, column});
          if (first == 0 && split + 1 == last) initial_columns.push_back(column);
          if (time) model.add_entry(compute_row[static_cast<std::size_t>(p)], column, *time);
          balance(p, first, last, column, +1);
          balance(p, first, split, column, -1);
          balance(p, split + 1, last, column, -1);
        }
      }
    }
  }

  index.conservation = std::move(conservation);
  if (method == ReduceLpMethod::column_generation && options.initial_columns.empty()) {
    options.initial_columns = initial_columns;
  }
  ReduceLpResult result;
  std::optional<lp::Solution> by_trees;
  const auto start = std::chrono::steady_clock::now();
  if (method == ReduceLpMethod::tree_pricing && !options.exact_solver_only) {
    by_trees = solve_reduce_by_tree_pricing(model, index);
  }
  const auto solution =
      by_trees ? require_certified(model, std::move(*by_trees),
                                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                                   result.stats, "reduce")
               : solve_certified(model, options, result.stats, "reduce");
  result.throughput = solution.primal[static_cast<std::size_t>(throughput)];
  result.certificate = lp::make_certificate(model, solution, "reduce");
  for (const auto& s : send_columns) {
    const auto& rate = solution.primal[static_cast<std::size_t>(s.column)];
    if (rate > 0) result.sends.push_back({s.edge, s.first, s.last, rate});
  }
  for (const auto& t : task_columns) {
    const auto& rate = solution.primal[static_cast<std::size_t>(t.column)];
    if (rate > 0) result.tasks.push_back({t.node, t.first, t.split, t.last, rate});
  }
  return result;
}

}  // namespace hetcoll
