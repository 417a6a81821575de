// Linear programs with exact, certified answers — the one LP interface of the
// steady-state layer (scatter, gossip, reduce, pipelined broadcast).
//
// STABLE INTERFACE (other layers build on it): Model, RowSense, RowLabel,
// SolveOptions, Solution, SolveStatus, solve(), check_optimality(),
// FloatingRowSolver (row generation: floating rounds, one certified solve).
// New fields and options may be added; existing ones keep their meaning.
//
// Problem form (every model is in this form):
//
//     maximize    c^T x
//     subject to  a_i^T x  (<=, =, >=)  b_i     for every row i
//                 x >= 0                       (every column; no upper bounds)
//
// All coefficients are exact rationals. Upper bounds such as the one-port
// fractions s <= 1 are implied by the port rows, so columns need none; this
// keeps the dual simple: minimize b^T y subject to A^T y >= c, with y_i >= 0
// on <= rows, y_i <= 0 on >= rows and y_i free on = rows. A primal x and a
// dual y that are both feasible with c^T x == b^T y prove, exactly, that x is
// optimal and that no feasible point does better than b^T y (weak duality).
//
// How solve() gets an exact answer:
//  1. Clp (COIN-OR) solves the model in floating point (dual simplex by
//     default, primal on request).
//  2. The optimal basis Clp ends on is re-solved in exact rational arithmetic
//     (a sparse LU with Markowitz pivoting in GMP rationals,
//     steady/lp/exact_basis.h): B x_B = b for the primal, B^T y = c_B for the
//     dual, every nonbasic column at zero.
//  3. check_optimality() tests primal feasibility, dual feasibility and equal
//     objectives exactly. Only then is the status `optimal`.
//  4. If Clp's basis is not exactly optimal (or Clp failed), QSopt_ex — an
//     exact rational simplex — solves the model from scratch, and its answer
//     goes through the same exact check. `Solution::method` says which path
//     produced the answer and `fallback_reason` why a fallback was needed.
//
// Errors: solve() never throws for what the solve found (infeasible,
// unbounded, failed are statuses); it throws std::logic_error only for a
// malformed model (a row or column index out of range).
//
// Complexity: the floating solve is Clp's simplex; the exact re-solve is a
// sparse rational LU of the m' x m' tight part of the basis, fast on the
// network-like matrices of the steady-state LPs;
// the exact check is one pass over the nonzeros.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/steady/lp/lp_model.h"

namespace hetcoll::lp {

// Model, RowSense, SimplexAlgorithm and the exact optimality checks:
// lp_model.h.

enum class SolveStatus {
  optimal,     // exact primal and dual solutions, checked
  infeasible,  // no x satisfies the rows
  unbounded,   // the objective has no upper bound
  failed,      // neither backend produced a checked answer (see `failure`)
};

const char* to_string(SolveStatus status);
using hetcoll::to_string;  // keeps the Rational overloads visible inside lp::

struct SolveOptions {
  SimplexAlgorithm algorithm = SimplexAlgorithm::dual;
  // Skip Clp and solve with QSopt_ex directly (for tests and cross-checks).
  bool exact_solver_only = false;
  // Allow the QSopt_ex fallback when Clp's basis is not exactly optimal.
  bool allow_fallback = true;
  // Column generation: when not empty, Clp starts with these columns only;
  // columns whose reduced cost says they would improve the optimum are
  // added round by round (floating-point pricing), and the exact check
  // prices every column of the model before `optimal` is returned — so the
  // answer and its certificate are those of the whole model. Worth it when
  // most columns stay at zero (the reduce LP).
  std::vector<int> initial_columns;
};

struct Solution {
  SolveStatus status = SolveStatus::failed;
  Rational objective;              // c^T x == b^T y when optimal
  std::vector<Rational> primal;    // x, one per column
  std::vector<Rational> dual;      // y, one per row (sign convention above)
  double floating_objective = 0;   // Clp's value (0 when Clp did not run)
  std::string method;              // "clp-dual + exact basis", "qsopt_ex", ...
  std::string fallback_reason;     // why the exact basis re-solve was not used
  std::string failure;             // why status is `failed`
  double floating_seconds = 0;     // Clp
  double exact_seconds = 0;        // rational re-solve, QSopt_ex and the check
  int simplex_iterations = 0;      // Clp's iterations
  int columns_loaded = 0;          // columns Clp saw (all unless column generation)
  int generation_rounds = 0;       // column-generation rounds
};

Solution solve(const Model& model, const SolveOptions& options = {});

namespace detail {
class ClpSession;
struct FloatingResult;
}

// Floating-point solves of a model that grows by rows, for row (cut)
// generation: Clp keeps its basis between solves, so re-solving after a
// round of new rows costs a few dual simplex pivots instead of a solve from
// scratch. No guarantee of any kind: the answer is Clp's, within its
// tolerances. A caller that claims an optimum solves the final model with
// solve(), which certifies it exactly.
// The model must outlive the solver; after construction only rows may be
// added to it (add_row/add_entry on new rows), never columns.
class FloatingRowSolver {
 public:
  explicit FloatingRowSolver(const Model& model);
  ~FloatingRowSolver();
  FloatingRowSolver(const FloatingRowSolver&) = delete;
  FloatingRowSolver& operator=(const FloatingRowSolver&) = delete;

  // Loads the rows added since the last call, then re-solves. True when Clp
  // ends optimal; otherwise message() says why.
  bool solve();
  double objective() const { return objective_; }
  const std::vector<double>& primal() const { return primal_; }  // one per column
  const std::string& message() const { return message_; }
  int iterations() const { return iterations_; }
  double seconds() const { return seconds_; }  // in Clp, over every solve

  // The certified answer for the model as it stands, as solve() gives it,
  // but starting from Clp's current basis instead of from scratch: the
  // vertex the floating rounds ended on is re-solved exactly (polished or
  // handed to QSopt_ex as solve() does when it is not exactly optimal).
  // Later solve() calls continue from wherever this left Clp.
  Solution certify(const SolveOptions& options = {});

 private:
  const Model* model_ = nullptr;
  std::unique_ptr<detail::ClpSession> session_;
  std::unique_ptr<detail::FloatingResult> last_;
  double seconds_ = 0;
  double objective_ = 0;
  std::vector<double> primal_;
  std::string message_;
  int iterations_ = 0;
};

// Delayed column generation with a pricing oracle, for models whose columns
// are too many to list (Dantzig-Wolfe masters: one column per reduction
// tree, say). `model` starts with some columns (at least one); the oracle
// gets Clp's floating row duals (A^T y >= c convention) and appends to
// `model` the columns that price out (c_j - a_j^T y > 0), or none when it
// finds none. Clp (primal simplex) continues from its basis after each
// batch; once the oracle adds nothing, the basis is re-solved exactly and
// checked as in solve() (QSopt_ex if needed) — over the columns generated, so `optimal` here
// means optimal for the model as it ends: the caller proves that no column
// it could still generate prices out (exactly, with `dual`) before claiming
// more. `unbounded` and `infeasible` are Clp's floating verdicts, unchecked.
using PricingOracle = std::function<void(Model& model, const std::vector<double>& duals)>;
Solution solve_with_pricing(Model& model, const PricingOracle& price);

}  // namespace hetcoll::lp
