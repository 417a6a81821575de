// The LP layer: exact answers from Clp's basis, the QSopt_ex fallback, the
// exact optimality check, and the sparse rational LU behind them.
#include <random>
#include <limits>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/core/rational.h"
#include "hetcoll/steady/lp/certificate.h"
#include "hetcoll/plan/lp_certificate_json_internal.h"
#include "hetcoll/steady/lp/exact_basis.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll::lp {
namespace {

Rational q(long num, long den = 1) {
  Rational value(num, den);
  value.canonicalize();
  return value;
}

TEST(Rational, FromDoubleTakesTheShortestDecimal) {
  EXPECT_EQ(rational_from_double(0.1), q(1, 10));
  EXPECT_EQ(rational_from_double(2.5), q(5, 2));
  EXPECT_EQ(rational_from_double(-3), q(-3));
  EXPECT_EQ(rational_from_double(1e-3), q(1, 1000));
  EXPECT_EQ(rational_from_double(1.25e8), q(125000000));
  EXPECT_THROW(rational_from_double(std::numeric_limits<double>::infinity()), std::invalid_argument);
}

TEST(Rational, ParsesFractionsAndDecimals) {
  Rational value;
  ASSERT_TRUE(parse_rational("2/9", value));
  EXPECT_EQ(value, q(2, 9));
  ASSERT_TRUE(parse_rational("-4/6", value));
  EXPECT_EQ(value, q(-2, 3));
  ASSERT_TRUE(parse_rational("0.25", value));
  EXPECT_EQ(value, q(1, 4));
  ASSERT_TRUE(parse_rational("12345678901234567890123", value));
  EXPECT_EQ(to_string(value), "12345678901234567890123");
  EXPECT_FALSE(parse_rational("1/0", value));
  EXPECT_FALSE(parse_rational("abc", value));
  EXPECT_FALSE(parse_rational("1/2/3", value));
  EXPECT_FALSE(parse_rational("", value));
  EXPECT_EQ(to_string(q(6, 4)), "3/2");
  EXPECT_EQ(lcm_of_denominators({q(1, 4), q(5, 6), q(3)}), BigInteger(12));
}

// maximize 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: optimum 11 at (3, 1).
Model small_model() {
  Model model;
  const int x = model.add_column(3, "x");
  const int y = model.add_column(2, "y");
  const int r0 = model.add_row(RowSense::less_equal, 4, {"a", {}});
  const int r1 = model.add_row(RowSense::less_equal, 6, {"b", {}});
  const int r2 = model.add_row(RowSense::less_equal, 3, {"c", {}});
  model.add_entry(r0, x, 1);
  model.add_entry(r0, y, 1);
  model.add_entry(r1, x, 1);
  model.add_entry(r1, y, 3);
  model.add_entry(r2, x, 1);
  return model;
}

TEST(LinearProgram, SmallModelIsSolvedExactlyFromClpsBasis) {
  const auto model = small_model();
  const auto solution = solve(model);
  ASSERT_EQ(solution.status, SolveStatus::optimal) << solution.failure;
  EXPECT_EQ(solution.method, "clp-dual + exact basis");
  EXPECT_EQ(solution.objective, 11);
  EXPECT_EQ(solution.primal[0], 3);
  EXPECT_EQ(solution.primal[1], 1);
  EXPECT_TRUE(check_optimality(model, solution.primal, solution.dual).ok());
  // (3, 1) makes all three rows tight: the dual is not unique, its value is.
  EXPECT_EQ(4 * solution.dual[0] + 6 * solution.dual[1] + 3 * solution.dual[2], 11);
}

TEST(LinearProgram, QsoptExAloneGivesTheSameCheckedAnswer) {
  const auto model = small_model();
  SolveOptions options;
  options.exact_solver_only = true;
  const auto solution = solve(model, options);
  ASSERT_EQ(solution.status, SolveStatus::optimal) << solution.failure;
  EXPECT_EQ(solution.method, "qsopt_ex");
  EXPECT_EQ(solution.objective, 11);
  EXPECT_TRUE(check_optimality(model, solution.primal, solution.dual).ok());
}

TEST(LinearProgram, EqualityAndGreaterRowsWithFractionalOptimum) {
  // maximize x + y: 3x + y = 2, x + 4y >= 1/2, x + y <= 7/10 + x (i.e. y <= 7/10).
  Model model;
  const int x = model.add_column(1);
  const int y = model.add_column(1);
  const int r0 = model.add_row(RowSense::equal, 2);
  const int r1 = model.add_row(RowSense::greater_equal, q(1, 2));
  const int r2 = model.add_row(RowSense::less_equal, q(7, 10));
  model.add_entry(r0, x, 3);
  model.add_entry(r0, y, 1);
  model.add_entry(r1, x, 1);
  model.add_entry(r1, y, 4);
  model.add_entry(r2, y, 1);
  for (auto algorithm : {SimplexAlgorithm::dual, SimplexAlgorithm::primal}) {
    SolveOptions options;
    options.algorithm = algorithm;
    const auto solution = solve(model, options);
    ASSERT_EQ(solution.status, SolveStatus::optimal) << solution.failure;
    // y = 7/10, x = (2 - 7/10)/3 = 13/30: objective 34/30 = 17/15.
    EXPECT_EQ(solution.objective, q(17, 15));
    EXPECT_TRUE(check_optimality(model, solution.primal, solution.dual).ok());
  }
}

TEST(LinearProgram, InfeasibleAndUnboundedAreStatusesNotErrors) {
  Model infeasible;
  const int x = infeasible.add_column(1);
  const int r = infeasible.add_row(RowSense::greater_equal, 2);
  const int s = infeasible.add_row(RowSense::less_equal, 1);
  infeasible.add_entry(r, x, 1);
  infeasible.add_entry(s, x, 1);
  EXPECT_EQ(solve(infeasible).status, SolveStatus::infeasible);

  Model unbounded;
  const int u = unbounded.add_column(1);
  const int v = unbounded.add_column(0);
  const int row = unbounded.add_row(RowSense::less_equal, 1);
  unbounded.add_entry(row, u, 1);
  unbounded.add_entry(row, v, -1);
  EXPECT_EQ(solve(unbounded).status, SolveStatus::unbounded);
}

TEST(LinearProgram, CheckRejectsWrongCertificates) {
  const auto model = small_model();
  const auto solution = solve(model);
  ASSERT_EQ(solution.status, SolveStatus::optimal);
  auto dual = solution.dual;
  std::fill(dual.begin(), dual.end(), Rational(0));  // A^T y = 0 < c
  EXPECT_FALSE(check_optimality(model, solution.primal, dual).dual_feasible);
  auto primal = solution.primal;
  primal[1] = 2;  // x + y = 5 > 4
  EXPECT_FALSE(check_optimality(model, primal, solution.dual).primal_feasible);
  dual = solution.dual;
  dual[0] += 1;  // still feasible, but b^T y = 15 != 11
  const auto loose = check_optimality(model, solution.primal, dual);
  EXPECT_TRUE(loose.dual_feasible);
  EXPECT_FALSE(loose.objectives_equal);
}

// Random packing LPs (A >= 0, b > 0: feasible and bounded) with rational
// data: Clp + exact basis and QSopt_ex agree exactly, both certified.
TEST(LinearProgram, RandomPackingLpsAgreeAcrossBackends) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> small(1, 9);
  int from_basis = 0;
  int optimal = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int columns = 2 + trial % 9;
    const int rows = 2 + (trial * 7) % 8;
    Model model;
    for (int j = 0; j < columns; ++j) model.add_column(q(small(random), small(random)));
    for (int i = 0; i < rows; ++i) model.add_row(i % 3 == 2 ? RowSense::equal : RowSense::less_equal, q(small(random), small(random)));
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < columns; ++j) {
        if (random() % 3 != 0 || i == j % rows) model.add_entry(i, j, q(small(random), small(random)));
      }
    }
    const auto floating = solve(model);
    SolveOptions exact_only;
    exact_only.exact_solver_only = true;
    const auto exact = solve(model, exact_only);
    ASSERT_EQ(floating.status, exact.status) << "trial " << trial;
    if (floating.status != SolveStatus::optimal) continue;
    ++optimal;
    if (floating.method == "clp-dual + exact basis") ++from_basis;
    EXPECT_EQ(floating.objective, exact.objective) << "trial " << trial;
    EXPECT_TRUE(check_optimality(model, floating.primal, floating.dual).ok()) << "trial " << trial;
    EXPECT_NEAR(floating.floating_objective, floating.objective.get_d(), 1e-6);
  }
  EXPECT_GT(optimal, 20);
  EXPECT_EQ(from_basis, optimal);  // Clp's basis re-solved exactly every time
}

// Row generation: rows added in batches to a model, re-solved in floating
// point from the last basis, then certified from that basis; the answer is
// the one solve() gives for the final model from scratch, exactly.
TEST(FloatingRowSolver, RowsAddedInRoundsThenCertifiedMatchSolve) {
  std::mt19937 random(11);
  std::uniform_int_distribution<int> small(1, 9);
  for (int trial = 0; trial < 20; ++trial) {
    const int columns = 3 + trial % 7;
    Model model;
    for (int j = 0; j < columns; ++j) model.add_column(q(small(random), small(random)));
    auto add_random_row = [&] {
      int row = model.add_row(RowSense::less_equal, q(small(random), small(random)));
      for (int j = 0; j < columns; ++j) {
        if (random() % 3 != 0) model.add_entry(row, j, q(small(random), small(random)));
      }
    };
    // Every column bounded from the start: x_j <= 9.
    for (int j = 0; j < columns; ++j) model.add_entry(model.add_row(RowSense::less_equal, 9), j, 1);
    FloatingRowSolver floating(model);
    double previous = std::numeric_limits<double>::infinity();
    for (int round = 0; round < 4; ++round) {
      ASSERT_TRUE(floating.solve()) << floating.message();
      // Adding rows to a maximisation never raises its optimum.
      EXPECT_LE(floating.objective(), previous + 1e-9) << "trial " << trial;
      previous = floating.objective();
      for (int k = 0; k < 1 + trial % 3; ++k) add_random_row();
    }
    const auto certified = floating.certify();
    ASSERT_EQ(certified.status, SolveStatus::optimal) << "trial " << trial << ": " << certified.failure;
    EXPECT_TRUE(check_optimality(model, certified.primal, certified.dual).ok()) << "trial " << trial;
    const auto scratch = solve(model);
    ASSERT_EQ(scratch.status, SolveStatus::optimal);
    EXPECT_EQ(certified.objective, scratch.objective) << "trial " << trial;
    // More rows after certify(): the solver carries on from where it is.
    add_random_row();
    ASSERT_TRUE(floating.solve());
    EXPECT_EQ(floating.certify().objective, solve(model).objective) << "trial " << trial;
  }
}

TEST(SparseRationalLu, SolvesBothSystemsExactly) {
  std::mt19937 random(3);
  for (int trial = 0; trial < 30; ++trial) {
    const int size = 1 + trial % 12;
    std::vector<SparseRationalLu::SparseRow> rows(static_cast<std::size_t>(size));
    std::vector<std::vector<Rational>> dense(static_cast<std::size_t>(size), std::vector<Rational>(static_cast<std::size_t>(size)));
    for (int r = 0; r < size; ++r) {
      for (int c = 0; c < size; ++c) {
        if (r == c || random() % 4 == 0) {
          Rational value = q(static_cast<long>(random() % 19) - 9, 1 + static_cast<long>(random() % 5));
          if (r == c && value == 0) value = 1;
          dense[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] += value;
          rows[static_cast<std::size_t>(r)].emplace_back(c, value);
        }
      }
    }
    auto lu = SparseRationalLu::factor(size, rows);
    if (!lu) continue;  // singular draws are allowed
    std::vector<Rational> rhs(static_cast<std::size_t>(size));
    for (auto& value : rhs) value = q(static_cast<long>(random() % 11) - 5, 1 + static_cast<long>(random() % 3));
    const auto x = lu->solve(rhs);
    const auto y = lu->solve_transposed(rhs);
    for (int r = 0; r < size; ++r) {
      Rational product = 0;
      Rational transposed = 0;
      for (int c = 0; c < size; ++c) {
        product += dense[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] * x[static_cast<std::size_t>(c)];
        transposed += dense[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)] * y[static_cast<std::size_t>(c)];
      }
      EXPECT_EQ(product, rhs[static_cast<std::size_t>(r)]) << "trial " << trial;
      EXPECT_EQ(transposed, rhs[static_cast<std::size_t>(r)]) << "trial " << trial;
    }
  }
}

TEST(SparseRationalLu, ReportsSingularMatrices) {
  std::vector<SparseRationalLu::SparseRow> rows = {{{0, q(1)}, {1, q(2)}}, {{0, q(2)}, {1, q(4)}}};
  EXPECT_FALSE(SparseRationalLu::factor(2, rows).has_value());
}

}  // namespace
}  // namespace hetcoll::lp

namespace hetcoll::lp {
namespace {

TEST(LpCertificate, RoundTripsThroughJsonAndChecksAgainstTheModel) {
  Model model;
  const int x = model.add_column(3, "x");
  const int y = model.add_column(2, "y");
  const int a = model.add_row(RowSense::less_equal, 4, {"capacity", {"a"}});
  const int b = model.add_row(RowSense::less_equal, 6, {"capacity", {"b"}});
  model.add_entry(a, x, 1);
  model.add_entry(a, y, 1);
  model.add_entry(b, x, 1);
  model.add_entry(b, y, 3);
  const auto solution = solve(model);
  ASSERT_EQ(solution.status, SolveStatus::optimal);
  EXPECT_EQ(solution.objective, 12);
  const auto certificate = make_certificate(model, solution, "test");
  EXPECT_EQ(certificate.bound, 12);
  const auto json = certificate_to_json(certificate);
  const auto back = certificate_from_json(json, "plan.json: certificate");
  EXPECT_EQ(back.bound, 12);
  EXPECT_EQ(check_certificate(model, back), "");

  auto weaker = back;
  weaker.bound = 11;  // b^T y is 12: a claimed bound must be exactly it
  EXPECT_NE(check_certificate(model, weaker), "");
  auto wrong = back;
  wrong.duals[0].value = 0;  // no longer dual feasible
  EXPECT_NE(check_certificate(model, wrong), "");
  auto unknown = back;
  unknown.duals.push_back({{"capacity", {"zzz"}}, Rational(1)});
  EXPECT_NE(check_certificate(model, unknown), "");
  EXPECT_THROW(certificate_from_json(nlohmann::json::parse(R"({"formulation": "t", "bound": "x", "duals": []})"), "c"),
               InputError);
}

}  // namespace
}  // namespace hetcoll::lp

namespace hetcoll::lp {
namespace {

// Column generation returns the optimum of the whole model, certified over
// every column, even when it starts from a single column.
TEST(LinearProgram, ColumnGenerationFindsTheWholeModelsOptimum) {
  std::mt19937 random(5);
  for (int trial = 0; trial < 20; ++trial) {
    Model model;
    const int columns = 30;
    const int rows = 8;
    for (int j = 0; j < columns; ++j) model.add_column(Rational(1 + static_cast<long>(random() % 9)));
    for (int i = 0; i < rows; ++i) model.add_row(RowSense::less_equal, Rational(1 + static_cast<long>(random() % 5)));
    for (int j = 0; j < columns; ++j) {
      model.add_entry(j % rows, j, Rational(1 + static_cast<long>(random() % 7)));
      if (random() % 2) model.add_entry(static_cast<int>(random() % rows), j, Rational(1 + static_cast<long>(random() % 7)));
    }
    const auto whole = solve(model);
    SolveOptions generated;
    generated.initial_columns = {0};
    const auto partial = solve(model, generated);
    ASSERT_EQ(whole.status, SolveStatus::optimal);
    ASSERT_EQ(partial.status, SolveStatus::optimal) << partial.failure;
    EXPECT_EQ(whole.objective, partial.objective) << "trial " << trial;
    EXPECT_TRUE(check_optimality(model, partial.primal, partial.dual).ok());
    EXPECT_GT(partial.generation_rounds, 0);
  }
}

}  // namespace
}  // namespace hetcoll::lp
