// Exact solution of square sparse rational systems: M x = b and M^T y = c.
//
// Used to re-solve a floating-point simplex basis in rationals (the primal
// values of the basic columns and the dual values of the tight rows), see
// linear_program.h.
//
// Method: Gaussian elimination with Markowitz pivoting — column singletons
// first (no fill-in), then row singletons, then the entry minimising
// (row length - 1) x (column length - 1) among the shortest columns. Exact
// arithmetic makes every nonzero pivot stable, so pivots are chosen for
// sparsity only. The elimination is recorded (the row operations E and the
// upper factor U with E M = U up to permutation), so both systems are solved
// from one factorisation.
// Complexity: O(k^2) for pivot search plus the fill-in work; on the
// network-like bases of the steady-state LPs fill-in stays small. Space: the
// factors. Tie rule: lowest column index, then lowest row index.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "hetcoll/core/rational.h"

namespace hetcoll::lp {

class SparseRationalLu {
 public:
  using SparseRow = std::vector<std::pair<int, Rational>>;  // (column, value), any order

  // Factors the k x k matrix given by its rows. nullopt when it is singular.
  static std::optional<SparseRationalLu> factor(int size, std::vector<SparseRow> rows);

  std::vector<Rational> solve(std::vector<Rational> rhs) const;             // M x = rhs
  std::vector<Rational> solve_transposed(std::vector<Rational> rhs) const;  // M^T y = rhs

  int size() const { return size_; }
  std::size_t fill_entries() const { return fill_entries_; }

 private:
  struct Step {
    int row = 0;
    int column = 0;
    Rational pivot;
    SparseRow upper;                                   // the pivot row (other entries)
    std::vector<std::pair<int, Rational>> eliminated;  // (row r, factor f): row r -= f * pivot row
  };
  int size_ = 0;
  std::size_t fill_entries_ = 0;
  std::vector<Step> steps_;
};

}  // namespace hetcoll::lp
