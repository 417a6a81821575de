// A linear program in the one form the steady-state layer uses (see
// linear_program.h: maximize c^T x subject to a_i^T x (<=, =, >=) b_i,
// x >= 0, exact rational coefficients), and the exact tests of a primal and
// dual pair. The solvers (linear_program.h and its back ends) build on it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/plan/lp_certificate.h"

namespace hetcoll::lp {

enum class RowSense { less_equal, equal, greater_equal };

// RowLabel (what a row means: a kind such as "send_port" and the keys that
// identify it, so a checker can re-derive the constraint from the platform
// alone) is in plan/lp_certificate.h, with the certificates that carry it.

class Model {
 public:
  // A new column x_j >= 0 with objective coefficient `objective`; returns j.
  int add_column(const Rational& objective = 0, std::string name = {});
  // A new empty row `(sense) rhs`; returns i. Coefficients come from add_entry.
  int add_row(RowSense sense, const Rational& rhs, RowLabel label = {});
  // A(row, column) += value. Zero values are ignored.
  void add_entry(int row, int column, const Rational& value);

  int column_count() const { return static_cast<int>(objective_.size()); }
  int row_count() const { return static_cast<int>(rhs_.size()); }
  std::size_t nonzero_count() const;

  const Rational& objective(int column) const { return objective_[static_cast<std::size_t>(column)]; }
  const Rational& rhs(int row) const { return rhs_[static_cast<std::size_t>(row)]; }
  RowSense sense(int row) const { return sense_[static_cast<std::size_t>(row)]; }
  const RowLabel& label(int row) const { return labels_[static_cast<std::size_t>(row)]; }
  const std::string& column_name(int column) const { return column_names_[static_cast<std::size_t>(column)]; }
  // The nonzeros of a column as (row, value), merged and without zeros.
  const std::vector<std::pair<int, Rational>>& column(int column) const;

 private:
  void normalize() const;

  std::vector<Rational> objective_;
  std::vector<std::string> column_names_;
  std::vector<Rational> rhs_;
  std::vector<RowSense> sense_;
  std::vector<RowLabel> labels_;
  mutable std::vector<std::vector<std::pair<int, Rational>>> columns_;
  mutable bool normalized_ = true;
};

// Clp's method: dual or primal simplex on the model as built, or `presolve`:
// Clp's initialSolve (presolve, its own choice of method, postsolve back to a
// basis of the model as built).
enum class SimplexAlgorithm { dual, primal, presolve, barrier };

// The exact optimality test behind `optimal`: x >= 0 satisfies every row, y
// has the right sign on every row and A^T y >= c, and c^T x == b^T y.
struct OptimalityCheck {
  bool primal_feasible = false;
  bool dual_feasible = false;
  bool objectives_equal = false;
  Rational primal_objective;
  Rational dual_objective;
  std::string failure;  // the first violated condition, in words
  bool ok() const { return primal_feasible && dual_feasible && objectives_equal; }
};

OptimalityCheck check_optimality(const Model& model, const std::vector<Rational>& primal,
                                 const std::vector<Rational>& dual);

// Only the dual half: y has the right signs and A^T y >= c. Then b^T y is an
// upper bound on every feasible c^T x (weak duality).
bool dual_feasible(const Model& model, const std::vector<Rational>& dual, std::string* failure = nullptr);

// The columns with A^T y < c (at most `limit` of them), exactly.
std::vector<int> dual_infeasible_columns(const Model& model, const std::vector<Rational>& dual, std::size_t limit);

}  // namespace hetcoll::lp
