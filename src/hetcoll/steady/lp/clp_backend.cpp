// Clp in floating point: loads the model column by column, runs the dual (or
// primal) simplex without presolve — so the final basis refers to the rows
// and columns of the model itself — and reports that basis.
#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>

#include <limits>
#include <tuple>

#include "hetcoll/steady/lp/backends_internal.h"

namespace hetcoll::lp::detail {

struct ClpSession::State {
  const Model* model = nullptr;
  ClpSimplex simplex;
  std::vector<int> model_column;  // Clp column -> model column
  std::vector<int> clp_column;    // model column -> Clp column, -1 when not loaded
  int rows_loaded = 0;
  int iterations = 0;
  double primal_tolerance = 0, dual_tolerance = 0;  // Clp's defaults
};

namespace {

// Clp's bounds for a row of the model.
std::pair<double, double> row_bounds(const Model& model, int row) {
  const double rhs = model.rhs(row).get_d();
  switch (model.sense(row)) {
    case RowSense::less_equal: return {-COIN_DBL_MAX, rhs};
    case RowSense::equal: return {rhs, rhs};
    case RowSense::greater_equal: return {rhs, COIN_DBL_MAX};
  }
  return {-COIN_DBL_MAX, COIN_DBL_MAX};
}

void append_columns(ClpSimplex& simplex, const Model& model, const std::vector<int>& columns) {
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> indices;
  std::vector<double> values;
  std::vector<double> lower(columns.size(), 0.0);
  std::vector<double> upper(columns.size(), COIN_DBL_MAX);
  std::vector<double> objective;
  for (int j : columns) {
    for (const auto& [row, value] : model.column(j)) {
      indices.push_back(row);
      values.push_back(value.get_d());
    }
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    objective.push_back(model.objective(j).get_d());
  }
  simplex.addColumns(static_cast<int>(columns.size()), lower.data(), upper.data(), objective.data(), starts.data(),
                     indices.data(), values.data());
}

}  // namespace

ClpSession::ClpSession(const Model& model, const std::vector<int>& columns) : state_(new State) {
  state_->model = &model;
  const int rows = model.row_count();
  std::vector<double> row_lower(static_cast<std::size_t>(rows));
  std::vector<double> row_upper(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    std::tie(row_lower[static_cast<std::size_t>(i)], row_upper[static_cast<std::size_t>(i)]) = row_bounds(model, i);
  }
  state_->rows_loaded = rows;
  auto& simplex = state_->simplex;
  simplex.setLogLevel(0);
  state_->primal_tolerance = simplex.primalTolerance();
  state_->dual_tolerance = simplex.dualTolerance();
  // Rows first (no columns), then the columns.
  simplex.loadProblem(0, rows, std::vector<CoinBigIndex>{0}.data(), nullptr, nullptr, nullptr, nullptr, nullptr,
                      row_lower.data(), row_upper.data());
  simplex.setOptimizationDirection(-1);  // maximize
  state_->clp_column.assign(static_cast<std::size_t>(model.column_count()), -1);
  append_columns(simplex, model, columns);
  for (int j : columns) {
    state_->clp_column[static_cast<std::size_t>(j)] = static_cast<int>(state_->model_column.size());
    state_->model_column.push_back(j);
  }
}

ClpSession::~ClpSession() { delete state_; }

bool ClpSession::loaded(int column) const {
  const auto j = static_cast<std::size_t>(column);
  return j < state_->clp_column.size() && state_->clp_column[j] >= 0;
}

FloatingResult ClpSession::read() const {
  const auto& simplex = state_->simplex;
  FloatingResult result;
  result.iterations = state_->iterations;
  switch (simplex.status()) {
    case 0: result.outcome = FloatingResult::Outcome::optimal; break;
    case 1: result.outcome = FloatingResult::Outcome::infeasible; result.message = "Clp: primal infeasible"; return result;
    case 2: result.outcome = FloatingResult::Outcome::unbounded; result.message = "Clp: unbounded"; return result;
    default:
      result.outcome = FloatingResult::Outcome::failed;
      result.message = "Clp stopped with status " + std::to_string(simplex.status());
      return result;
  }
  result.objective = simplex.objectiveValue();
  const auto classify = [](ClpSimplex::Status status) {
    switch (status) {
      case ClpSimplex::basic: return BasisStatus::basic;
      case ClpSimplex::atLowerBound:
      case ClpSimplex::atUpperBound:
      case ClpSimplex::isFixed: return BasisStatus::at_bound;
      default: return BasisStatus::other;
    }
  };
  result.column_status.assign(static_cast<std::size_t>(state_->model->column_count()), BasisStatus::at_bound);
  for (std::size_t c = 0; c < state_->model_column.size(); ++c) {
    result.column_status[static_cast<std::size_t>(state_->model_column[c])] =
        classify(const_cast<ClpSimplex&>(simplex).getColumnStatus(static_cast<int>(c)));
  }
  const int rows = simplex.numberRows();
  result.row_status.resize(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    result.row_status[static_cast<std::size_t>(i)] = classify(const_cast<ClpSimplex&>(simplex).getRowStatus(i));
  }
  return result;
}

FloatingResult ClpSession::solve(SimplexAlgorithm algorithm) {
  auto& simplex = state_->simplex;
  switch (algorithm) {
    case SimplexAlgorithm::dual: simplex.dual(); break;
    case SimplexAlgorithm::primal: simplex.primal(); break;
    case SimplexAlgorithm::presolve: {
      ClpSolve options;
      options.setPresolveType(ClpSolve::presolveOn);
      options.setSolveType(ClpSolve::automatic);
      simplex.initialSolve(options);
      break;
    }
    case SimplexAlgorithm::barrier: {
      ClpSolve options;
      options.setPresolveType(ClpSolve::presolveOn);
      options.setSolveType(ClpSolve::useBarrier);
      simplex.initialSolve(options);
      break;
    }
  }
  state_->iterations += simplex.numberIterations();
  return read();
}

FloatingResult ClpSession::resolve(double tolerance) {
  auto& simplex = state_->simplex;
  simplex.setPrimalTolerance(tolerance);
  simplex.setDualTolerance(tolerance);
  simplex.primal(1);  // from the current basis
  state_->iterations += simplex.numberIterations();
  return read();
}

FloatingResult ClpSession::add_columns(const std::vector<int>& columns) {
  std::vector<int> fresh;
  for (int j : columns) {
    if (!loaded(j)) fresh.push_back(j);
  }
  auto& simplex = state_->simplex;
  // The model may have grown since the session started (pricing oracles).
  state_->clp_column.resize(static_cast<std::size_t>(state_->model->column_count()), -1);
  append_columns(simplex, *state_->model, fresh);
  for (int j : fresh) {
    state_->clp_column[static_cast<std::size_t>(j)] = static_cast<int>(state_->model_column.size());
    state_->model_column.push_back(j);
  }
  simplex.primal(1);
  state_->iterations += simplex.numberIterations();
  return read();
}

FloatingResult ClpSession::add_rows() {
  const Model& model = *state_->model;
  const int first = state_->rows_loaded, count = model.row_count() - first;
  auto& simplex = state_->simplex;
  if (count > 0) {
    // The model is stored by columns, rows in increasing order: the new
    // rows' entries are at the end of each loaded column.
    std::vector<std::vector<std::pair<int, double>>> rows(static_cast<std::size_t>(count));
    for (std::size_t c = 0; c < state_->model_column.size(); ++c) {
      const auto& entries = model.column(state_->model_column[c]);
      for (auto it = entries.rbegin(); it != entries.rend() && it->first >= first; ++it) {
        rows[static_cast<std::size_t>(it->first - first)].emplace_back(static_cast<int>(c), it->second.get_d());
      }
    }
    std::vector<double> lower, upper, values;
    std::vector<CoinBigIndex> starts{0};
    std::vector<int> indices;
    for (int i = 0; i < count; ++i) {
      auto [low, up] = row_bounds(model, first + i);
      lower.push_back(low);
      upper.push_back(up);
      for (const auto& [column, value] : rows[static_cast<std::size_t>(i)]) {
        indices.push_back(column);
        values.push_back(value);
      }
      starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    }
    simplex.addRows(count, lower.data(), upper.data(), starts.data(), indices.data(), values.data());
    state_->rows_loaded = model.row_count();
  }
  // Back to Clp's own tolerances after a polish (resolve): at 1e-13 the
  // dual simplex can take minutes on a model with ugly coefficients.
  simplex.setPrimalTolerance(state_->primal_tolerance);
  simplex.setDualTolerance(state_->dual_tolerance);
  simplex.dual();  // from the status arrays of the last solve: the current basis
  state_->iterations += simplex.numberIterations();
  return read();
}

std::vector<double> ClpSession::column_values() const {
  const double* values = const_cast<ClpSimplex&>(state_->simplex).primalColumnSolution();
  std::vector<double> result(static_cast<std::size_t>(state_->model->column_count()), 0.0);
  for (std::size_t c = 0; c < state_->model_column.size(); ++c) {
    result[static_cast<std::size_t>(state_->model_column[c])] = values[c];
  }
  return result;
}

std::vector<double> ClpSession::row_duals() const {
  const auto& simplex = state_->simplex;
  const double* duals = const_cast<ClpSimplex&>(simplex).dualRowSolution();
  return std::vector<double>(duals, duals + simplex.numberRows());
}

}  // namespace hetcoll::lp::detail
