// Clp in floating point: loads the model column by column, runs the dual (or
// primal) simplex without presolve — so the final basis refers to the rows
// and columns of the model itself — and reports that basis.
#include <coin/ClpSimplex.hpp>

#include <limits>

#include "hetcoll/steady/lp/backends_internal.h"

namespace hetcoll::lp::detail {

FloatingResult solve_with_clp(const Model& model, SimplexAlgorithm algorithm) {
  FloatingResult result;
  const int columns = model.column_count();
  const int rows = model.row_count();
  std::vector<CoinBigIndex> starts;
  std::vector<int> indices;
  std::vector<double> values;
  starts.reserve(static_cast<std::size_t>(columns) + 1);
  starts.push_back(0);
  for (int j = 0; j < columns; ++j) {
    for (const auto& [row, value] : model.column(j)) {
      indices.push_back(row);
      values.push_back(value.get_d());
    }
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
  }
  const double infinity = COIN_DBL_MAX;
  std::vector<double> column_lower(static_cast<std::size_t>(columns), 0.0);
  std::vector<double> column_upper(static_cast<std::size_t>(columns), infinity);
  std::vector<double> objective(static_cast<std::size_t>(columns));
  for (int j = 0; j < columns; ++j) objective[static_cast<std::size_t>(j)] = model.objective(j).get_d();
  std::vector<double> row_lower(static_cast<std::size_t>(rows));
  std::vector<double> row_upper(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    const double rhs = model.rhs(i).get_d();
    switch (model.sense(i)) {
      case RowSense::less_equal: row_lower[static_cast<std::size_t>(i)] = -infinity; row_upper[static_cast<std::size_t>(i)] = rhs; break;
      case RowSense::equal: row_lower[static_cast<std::size_t>(i)] = rhs; row_upper[static_cast<std::size_t>(i)] = rhs; break;
      case RowSense::greater_equal: row_lower[static_cast<std::size_t>(i)] = rhs; row_upper[static_cast<std::size_t>(i)] = infinity; break;
    }
  }

  ClpSimplex simplex;
  simplex.setLogLevel(0);
  simplex.loadProblem(columns, rows, starts.data(), indices.data(), values.data(), column_lower.data(),
                      column_upper.data(), objective.data(), row_lower.data(), row_upper.data());
  simplex.setOptimizationDirection(-1);  // maximize
  if (algorithm == SimplexAlgorithm::dual) {
    simplex.dual();
  } else {
    simplex.primal();
  }
  result.iterations = simplex.numberIterations();
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
  result.column_status.resize(static_cast<std::size_t>(columns));
  for (int j = 0; j < columns; ++j) result.column_status[static_cast<std::size_t>(j)] = classify(simplex.getColumnStatus(j));
  result.row_status.resize(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) result.row_status[static_cast<std::size_t>(i)] = classify(simplex.getRowStatus(i));
  return result;
}

}  // namespace hetcoll::lp::detail
