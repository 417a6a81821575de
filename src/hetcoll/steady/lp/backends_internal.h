// The two solver back ends behind lp::solve() (internal to steady/lp/).
#pragma once

#include <string>
#include <vector>

#include "hetcoll/steady/lp/lp_model.h"

namespace hetcoll::lp::detail {

// Where Clp's optimal basis leaves each column and row.
enum class BasisStatus { basic, at_bound, other };

struct FloatingResult {
  enum class Outcome { optimal, infeasible, unbounded, failed } outcome = Outcome::failed;
  double objective = 0;
  std::vector<BasisStatus> column_status;
  std::vector<BasisStatus> row_status;  // basic = the row's slack is basic
  int iterations = 0;
  std::string message;
};

// Clp on one model, or on a subset of its columns (column generation); kept
// alive so that columns can be added and a basis that is not exactly optimal
// can be polished, each time continuing from the current basis.
// FloatingResult::column_status is indexed like the model's columns; columns
// not loaded are reported at_bound (zero).
class ClpSession {
 public:
  ClpSession(const Model& model, const std::vector<int>& columns);
  ~ClpSession();
  ClpSession(const ClpSession&) = delete;
  ClpSession& operator=(const ClpSession&) = delete;

  FloatingResult solve(SimplexAlgorithm algorithm);
  // Tightens the primal and dual tolerances, then primal simplex from the
  // current basis.
  FloatingResult resolve(double tolerance);
  // Loads more columns (model indices, possibly of columns added to the
  // model after the session started), then primal simplex from the current
  // basis (still primal feasible: the new columns start at zero).
  FloatingResult add_columns(const std::vector<int>& columns);
  // Loads the rows the model gained since the session was built or last
  // synchronised (rows only: the columns must not change), then dual simplex
  // from the current basis (still dual feasible: the new rows' slacks enter
  // the basis), so a round of row generation costs a few pivots.
  FloatingResult add_rows();
  // The row duals of the last solve (maximisation convention: A^T y >= c).
  std::vector<double> row_duals() const;
  // The column values of the last solve, indexed like the model's columns
  // (zero for columns not loaded).
  std::vector<double> column_values() const;
  bool loaded(int column) const;

 private:
  FloatingResult read() const;
  struct State;
  State* state_;
};

struct ExactResult {
  enum class Outcome { optimal, infeasible, unbounded, failed } outcome = Outcome::failed;
  std::vector<Rational> primal;
  std::vector<Rational> dual;
  std::string message;
};

// `start` (optional): a basis to start from — Clp's final one, which is
// usually optimal or a few exact pivots away.
ExactResult solve_with_qsopt_ex(const Model& model, SimplexAlgorithm algorithm, const FloatingResult* start = nullptr);

}  // namespace hetcoll::lp::detail
