// Clp in floating point: loads the model column by column, runs the dual (or
// primal) simplex without presolve — so the final basis refers to the rows
// and columns of the model itself — and reports that basis.
#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>

#include <limits>

#include "hetcoll/steady/lp/backends_internal.h"

namespace hetcoll::lp::detail {

struct ClpSession::State {
  const Model* model = nullptr;
  ClpSimplex simplex;
  std::vector<int> model_column;  // Clp column -> model column
  std::vector<int> clp_column;    // model column -> Clp column, -1 when not loaded
  int iterations = 0;
};

namespace {

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
  const double infinity = COIN_DBL_MAX;
  std::vector<double> row_lower(static_cast<std::size_t>(rows));
  std::vector<double> row_upper(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    const double rhs = model.rhs(i).get_d();
    const auto k = static_cast<std::size_t>(i);
    switch (model.sense(i)) {
      case RowSense::less_equal: row_lower[k] = -infinity; row_upper[k] = rhs; break;
      case RowSense::equal: row_lower[k] = rhs; row_upper[k] = rhs; break;
      case RowSense::greater_equal: row_lower[k] = rhs; row_upper[k] = infinity; break;
    }
  }
  auto& simplex = state_->simplex;
  simplex.setLogLevel(0);
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

std::vector<double> ClpSession::row_duals() const {
  const auto& simplex = state_->simplex;
  const double* duals = const_cast<ClpSimplex&>(simplex).dualRowSolution();
  return std::vector<double>(duals, duals + simplex.numberRows());
}

}  // namespace hetcoll::lp::detail
