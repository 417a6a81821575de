// The two solver back ends behind lp::solve() (internal to steady/lp/).
#pragma once

#include <string>
#include <vector>

#include "hetcoll/steady/lp/linear_program.h"

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

FloatingResult solve_with_clp(const Model& model, SimplexAlgorithm algorithm);

struct ExactResult {
  enum class Outcome { optimal, infeasible, unbounded, failed } outcome = Outcome::failed;
  std::vector<Rational> primal;
  std::vector<Rational> dual;
  std::string message;
};

ExactResult solve_with_qsopt_ex(const Model& model, SimplexAlgorithm algorithm);

}  // namespace hetcoll::lp::detail
