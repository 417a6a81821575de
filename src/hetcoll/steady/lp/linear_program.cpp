#include "hetcoll/steady/lp/linear_program.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "hetcoll/steady/lp/backends_internal.h"
#include "hetcoll/steady/lp/exact_basis.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll::lp {

namespace {

}  // namespace

const char* to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::optimal: return "optimal";
    case SolveStatus::infeasible: return "infeasible";
    case SolveStatus::unbounded: return "unbounded";
    case SolveStatus::failed: return "failed";
  }
  return "?";
}

namespace {

// The exact re-solve of Clp's final basis (see the header). Returns false
// with a reason when the basis is not square, singular, or not optimal.
bool exact_from_basis(const Model& model, const detail::FloatingResult& floating, Solution& solution,
                      std::string& reason) {
  solution.primal.clear();
  solution.dual.clear();
  const auto rows = static_cast<std::size_t>(model.row_count());
  const auto columns = static_cast<std::size_t>(model.column_count());
  std::vector<int> basic_columns;
  std::vector<int> tight_rows;
  for (std::size_t j = 0; j < columns; ++j) {
    if (floating.column_status[j] == detail::BasisStatus::basic) {
      basic_columns.push_back(static_cast<int>(j));
    } else if (floating.column_status[j] != detail::BasisStatus::at_bound) {
      reason = "Clp left column " + std::to_string(j) + " neither basic nor at its bound";
      return false;
    }
  }
  for (std::size_t i = 0; i < rows; ++i) {
    if (floating.row_status[i] == detail::BasisStatus::at_bound) {
      tight_rows.push_back(static_cast<int>(i));
    } else if (floating.row_status[i] != detail::BasisStatus::basic) {
      reason = "Clp left row " + std::to_string(i) + " neither basic nor tight";
      return false;
    }
  }
  if (basic_columns.size() != tight_rows.size()) {
    reason = "basis is not square (" + std::to_string(basic_columns.size()) + " basic columns, " +
             std::to_string(tight_rows.size()) + " tight rows)";
    return false;
  }
  const auto size = basic_columns.size();
  std::vector<int> local_row(rows, -1);
  for (std::size_t r = 0; r < size; ++r) local_row[static_cast<std::size_t>(tight_rows[r])] = static_cast<int>(r);
  std::vector<SparseRationalLu::SparseRow> matrix(size);
  for (std::size_t c = 0; c < size; ++c) {
    for (const auto& [row, value] : model.column(basic_columns[c])) {
      const int r = local_row[static_cast<std::size_t>(row)];
      if (r >= 0) matrix[static_cast<std::size_t>(r)].emplace_back(static_cast<int>(c), value);
    }
  }
  auto lu = SparseRationalLu::factor(static_cast<int>(size), std::move(matrix));
  if (!lu) {
    reason = "basis matrix is singular in exact arithmetic";
    return false;
  }
  std::vector<Rational> rhs(size);
  std::vector<Rational> costs(size);
  for (std::size_t r = 0; r < size; ++r) rhs[r] = model.rhs(tight_rows[r]);
  for (std::size_t c = 0; c < size; ++c) costs[c] = model.objective(basic_columns[c]);
  const auto basic_values = lu->solve(std::move(rhs));
  const auto tight_duals = lu->solve_transposed(std::move(costs));
  solution.primal.assign(columns, Rational(0));
  solution.dual.assign(rows, Rational(0));
  for (std::size_t c = 0; c < size; ++c) solution.primal[static_cast<std::size_t>(basic_columns[c])] = basic_values[c];
  for (std::size_t r = 0; r < size; ++r) solution.dual[static_cast<std::size_t>(tight_rows[r])] = tight_duals[r];
  const auto check = check_optimality(model, solution.primal, solution.dual);
  if (!check.ok()) {
    reason = "Clp's basis is not exactly optimal: " + check.failure;
    return false;
  }
  solution.objective = check.primal_objective;
  return true;
}

}  // namespace

namespace {

// Floating-point pricing: the columns not loaded whose reduced cost
// c - A^T y exceeds a small tolerance, most attractive first.
std::vector<int> attractive_columns(const Model& model, const detail::ClpSession& clp, const std::vector<double>& duals) {
  std::vector<std::pair<double, int>> candidates;
  for (int j = 0; j < model.column_count(); ++j) {
    if (clp.loaded(j)) continue;
    double reduced = model.objective(j).get_d();
    double scale = std::fabs(reduced);
    for (const auto& [row, value] : model.column(j)) {
      const double term = value.get_d() * duals[static_cast<std::size_t>(row)];
      reduced -= term;
      scale = std::max(scale, std::fabs(term));
    }
    if (reduced > 1e-9 * std::max(1.0, scale)) candidates.emplace_back(-reduced, j);
  }
  // A few hundred per round: adding every attractive column loads most of
  // the model in a few rounds, which is what column generation avoids.
  const std::size_t batch = std::max<std::size_t>(100, static_cast<std::size_t>(model.row_count()) / 20);
  if (candidates.size() > batch) {
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(batch), candidates.end());
    candidates.resize(batch);
  } else {
    std::sort(candidates.begin(), candidates.end());
  }
  std::vector<int> columns;
  for (const auto& candidate : candidates) columns.push_back(candidate.second);
  return columns;
}

}  // namespace

namespace {

std::string algorithm_name(SimplexAlgorithm algorithm) {
  switch (algorithm) {
    case SimplexAlgorithm::dual: return "dual";
    case SimplexAlgorithm::primal: return "primal";
    case SimplexAlgorithm::presolve: return "presolve";
    case SimplexAlgorithm::barrier: return "barrier";
  }
  return "?";
}

// QSopt_ex from scratch or from `start`, through the same exact check.
void solve_exactly(const Model& model, const SolveOptions& options, const detail::FloatingResult* start,
                   Solution& solution) {
  const auto exact_start = std::chrono::steady_clock::now();
  const auto exact = detail::solve_with_qsopt_ex(model, options.algorithm, start);
  solution.method = start ? "qsopt_ex from clp's basis" : "qsopt_ex";
  switch (exact.outcome) {
    case detail::ExactResult::Outcome::optimal: {
      solution.primal = exact.primal;
      solution.dual = exact.dual;
      auto check = check_optimality(model, solution.primal, solution.dual);
      if (!check.ok()) {
        // QSopt_ex reports duals of a maximisation with the opposite sign
        // convention in some versions; accept the negated vector only if it
        // passes the same exact check.
        std::vector<Rational> negated(solution.dual.size());
        for (std::size_t i = 0; i < negated.size(); ++i) negated[i] = -solution.dual[i];
        auto retry = check_optimality(model, solution.primal, negated);
        if (retry.ok()) {
          solution.dual = std::move(negated);
          check = std::move(retry);
        }
      }
      if (check.ok()) {
        solution.status = SolveStatus::optimal;
        solution.objective = check.primal_objective;
      } else {
        solution.status = SolveStatus::failed;
        solution.failure = "QSopt_ex's answer failed the exact check: " + check.failure;
      }
      break;
    }
    case detail::ExactResult::Outcome::infeasible: solution.status = SolveStatus::infeasible; break;
    case detail::ExactResult::Outcome::unbounded: solution.status = SolveStatus::unbounded; break;
    case detail::ExactResult::Outcome::failed:
      solution.status = SolveStatus::failed;
      solution.failure = exact.message;
      break;
  }
  solution.exact_seconds += seconds_since(exact_start);
}

// From Clp's answer `floating` on `clp` to a checked exact one (steps 2-4 of
// the header). `generate`: column generation is on (columns Clp never saw
// are priced exactly).
Solution certify_floating(const Model& model, detail::ClpSession& clp, detail::FloatingResult floating,
                          const SolveOptions& options, bool generate, Solution solution) {
  if (floating.outcome == detail::FloatingResult::Outcome::optimal) solution.floating_objective = floating.objective;
  // Clp stops within its tolerances (1e-7); a basis that is optimal within
  // them may be a pivot or two from exactly optimal. Tighten and continue
  // from it a few times before falling back to the exact solver. With
  // column generation, the exact check also prices the columns Clp never
  // saw; any that would improve the optimum are added and Clp continues.
  std::optional<detail::FloatingResult> floating_basis;
  std::string reason;
  const double tolerances[] = {0.0, 1e-10, 1e-13};
  for (std::size_t attempt = 0; attempt < 3;) {
    if (attempt > 0) {
      const auto polish_start = std::chrono::steady_clock::now();
      floating = clp.resolve(tolerances[attempt]);
      solution.floating_seconds += seconds_since(polish_start);
      if (floating.outcome == detail::FloatingResult::Outcome::optimal) solution.floating_objective = floating.objective;
    }
    solution.simplex_iterations = floating.iterations;
    if (floating.outcome != detail::FloatingResult::Outcome::optimal) {
      reason = floating.message;
      break;
    }
    const auto exact_start = std::chrono::steady_clock::now();
    const bool exact = exact_from_basis(model, floating, solution, reason);
    std::vector<int> missing;
    if (!exact && generate && !solution.dual.empty()) {
      missing = dual_infeasible_columns(model, solution.dual, 1000);
      std::erase_if(missing, [&](int j) { return clp.loaded(j); });
    }
    solution.exact_seconds += seconds_since(exact_start);
    if (exact) {
      solution.status = SolveStatus::optimal;
      solution.method = "clp-" + algorithm_name(options.algorithm) + " + exact basis";
      if (attempt > 0) solution.method += " (polished)";
      if (generate) solution.method += ", column generation";
      return solution;
    }
    floating_basis = floating;
    if (!missing.empty()) {
      // Columns Clp never saw price out exactly: load them, keep going.
      ++solution.generation_rounds;
      solution.columns_loaded += static_cast<int>(missing.size());
      const auto add_start = std::chrono::steady_clock::now();
      floating = clp.add_columns(missing);
      solution.floating_seconds += seconds_since(add_start);
      solution.floating_objective = floating.objective;
      continue;
    }
    ++attempt;
  }
  solution.fallback_reason = reason;
  if (!options.allow_fallback) {
    solution.status = SolveStatus::failed;
    solution.failure = solution.fallback_reason;
    return solution;
  }
  solve_exactly(model, options, floating_basis ? &*floating_basis : nullptr, solution);
  return solution;
}

}  // namespace

Solution solve(const Model& model, const SolveOptions& options) {
  Solution solution;
  if (options.exact_solver_only) {
    solve_exactly(model, options, nullptr, solution);
    return solution;
  }
  const bool generate = !options.initial_columns.empty();
  std::vector<int> first_columns = options.initial_columns;
  if (!generate) {
    first_columns.resize(static_cast<std::size_t>(model.column_count()));
    for (int j = 0; j < model.column_count(); ++j) first_columns[static_cast<std::size_t>(j)] = j;
  }
  detail::ClpSession clp(model, first_columns);
  solution.columns_loaded = static_cast<int>(first_columns.size());
  const auto float_start = std::chrono::steady_clock::now();
  auto floating = clp.solve(options.algorithm);
  // Column generation in floating point until no column prices out.
  while (generate && floating.outcome == detail::FloatingResult::Outcome::optimal) {
    const auto columns = attractive_columns(model, clp, clp.row_duals());
    if (columns.empty()) break;
    ++solution.generation_rounds;
    solution.columns_loaded += static_cast<int>(columns.size());
    floating = clp.add_columns(columns);
  }
  solution.floating_seconds = seconds_since(float_start);
  solution.floating_objective = floating.objective;
  return certify_floating(model, clp, std::move(floating), options, generate, std::move(solution));
}

FloatingRowSolver::FloatingRowSolver(const Model& model) {
  std::vector<int> columns(static_cast<std::size_t>(model.column_count()));
  for (int j = 0; j < model.column_count(); ++j) columns[static_cast<std::size_t>(j)] = j;
  session_ = std::make_unique<detail::ClpSession>(model, columns);
  model_ = &model;
}

FloatingRowSolver::~FloatingRowSolver() = default;

Solution FloatingRowSolver::certify(const SolveOptions& options) {
  if (!last_ || model_->row_count() != static_cast<int>(last_->row_status.size())) solve();
  Solution solution;
  solution.columns_loaded = model_->column_count();
  solution.floating_seconds = seconds_;
  solution.floating_objective = last_->objective;
  solution = certify_floating(*model_, *session_, *last_, options, false, std::move(solution));
  // Polishing moved Clp's basis: later rows continue from where it ended.
  last_.reset();
  return solution;
}

bool FloatingRowSolver::solve() {
  const auto start = std::chrono::steady_clock::now();
  auto result = session_->add_rows();
  seconds_ += seconds_since(start);
  last_ = std::make_unique<detail::FloatingResult>(result);
  iterations_ = result.iterations;
  message_ = result.message;
  if (result.outcome != detail::FloatingResult::Outcome::optimal) return false;
  objective_ = result.objective;
  primal_ = session_->column_values();
  return true;
}

Solution solve_with_pricing(Model& model, const PricingOracle& price) {
  std::vector<int> columns(static_cast<std::size_t>(model.column_count()));
  for (int j = 0; j < model.column_count(); ++j) columns[static_cast<std::size_t>(j)] = j;
  detail::ClpSession clp(model, columns);
  Solution solution;
  solution.columns_loaded = model.column_count();
  const auto float_start = std::chrono::steady_clock::now();
  auto floating = clp.solve(SimplexAlgorithm::primal);
  while (floating.outcome == detail::FloatingResult::Outcome::optimal) {
    const int before = model.column_count();
    price(model, clp.row_duals());
    if (model.column_count() == before) break;
    std::vector<int> fresh;
    for (int j = before; j < model.column_count(); ++j) fresh.push_back(j);
    ++solution.generation_rounds;
    solution.columns_loaded += static_cast<int>(fresh.size());
    floating = clp.add_columns(fresh);
  }
  solution.floating_seconds = seconds_since(float_start);
  solution.floating_objective = floating.objective;
  if (floating.outcome == detail::FloatingResult::Outcome::unbounded ||
      floating.outcome == detail::FloatingResult::Outcome::infeasible) {
    // Clp's word, unchecked: the caller takes another route (QSopt_ex loops
    // on some of these masters, e.g. one without rows).
    solution.status = floating.outcome == detail::FloatingResult::Outcome::unbounded ? SolveStatus::unbounded
                                                                                   : SolveStatus::infeasible;
    solution.failure = floating.message;
    return solution;
  }
  SolveOptions options;
  options.algorithm = SimplexAlgorithm::primal;
  solution = certify_floating(model, clp, std::move(floating), options, false, std::move(solution));
  if (solution.status == SolveStatus::optimal) solution.method += ", pricing";
  return solution;
}

}  // namespace hetcoll::lp
