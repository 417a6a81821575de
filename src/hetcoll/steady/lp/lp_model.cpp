#include "hetcoll/steady/lp/lp_model.h"

#include <algorithm>
#include <stdexcept>

namespace hetcoll::lp {

namespace {

std::string row_description(const Model& model, int row) {
  const auto& label = model.label(row);
  std::string text = "row " + std::to_string(row);
  if (!label.kind.empty()) {
    text += " (" + label.kind;
    for (const auto& key : label.keys) text += " " + key;
    text += ")";
  }
  return text;
}

}  // namespace

int Model::add_column(const Rational& objective, std::string name) {
  objective_.push_back(objective);
  column_names_.push_back(std::move(name));
  columns_.emplace_back();
  return static_cast<int>(objective_.size()) - 1;
}

int Model::add_row(RowSense sense, const Rational& rhs, RowLabel label) {
  rhs_.push_back(rhs);
  sense_.push_back(sense);
  labels_.push_back(std::move(label));
  return static_cast<int>(rhs_.size()) - 1;
}

void Model::add_entry(int row, int column, const Rational& value) {
  if (row < 0 || row >= row_count() || column < 0 || column >= column_count()) {
    throw std::logic_error("lp::Model::add_entry: index out of range");
  }
  if (value == 0) return;
  auto& entries = columns_[static_cast<std::size_t>(column)];
  // Rows added in increasing order (row generation) keep the column sorted
  // and merged: no normalisation pass over every column later.
  if (!entries.empty() && entries.back().first >= row) normalized_ = false;
  entries.emplace_back(row, value);
}

void Model::normalize() const {
  if (normalized_) return;
  for (auto& entries : columns_) {
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<int, Rational>> merged;
    merged.reserve(entries.size());
    for (auto& entry : entries) {
      if (!merged.empty() && merged.back().first == entry.first) {
        merged.back().second += entry.second;
      } else {
        merged.push_back(std::move(entry));
      }
    }
    std::erase_if(merged, [](const auto& entry) { return entry.second == 0; });
    entries = std::move(merged);
  }
  normalized_ = true;
}

const std::vector<std::pair<int, Rational>>& Model::column(int column) const {
  normalize();
  return columns_[static_cast<std::size_t>(column)];
}

std::size_t Model::nonzero_count() const {
  normalize();
  std::size_t count = 0;
  for (const auto& entries : columns_) count += entries.size();
  return count;
}

namespace {

// Values over one common denominator: value[i] = scaled[i] / denominator,
// exactly. Sums of products then run in integers, without the two gcds
// every rational addition costs (the duals of an exact basis share the
// basis determinant as denominator, so `denominator` stays small).
struct OverCommonDenominator {
  std::vector<BigInteger> scaled;
  BigInteger denominator = 1;
};

OverCommonDenominator over_common_denominator(const std::vector<Rational>& values) {
  OverCommonDenominator result;
  for (const auto& value : values) {
    const auto& den = value.get_den();
    if (den != 1 && sgn(value) != 0 && !mpz_divisible_p(result.denominator.get_mpz_t(), den.get_mpz_t())) {
      result.denominator = lcm(result.denominator, den);
    }
  }
  result.scaled.resize(values.size());
  BigInteger factor;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (sgn(values[i]) == 0) continue;
    mpz_divexact(factor.get_mpz_t(), result.denominator.get_mpz_t(), values[i].get_den_mpz_t());
    result.scaled[i] = values[i].get_num() * factor;
  }
  return result;
}

// Column j's A^T y as sum / (y's denominator x column_scale), in integers.
void column_dot(const Model& model, int j, const OverCommonDenominator& y, BigInteger& sum, BigInteger& column_scale) {
  column_scale = 1;
  const auto& entries = model.column(j);
  for (const auto& [row, value] : entries) {
    const auto& den = value.get_den();
    if (den != 1 && !mpz_divisible_p(column_scale.get_mpz_t(), den.get_mpz_t())) column_scale = lcm(column_scale, den);
  }
  sum = 0;
  BigInteger coefficient;
  for (const auto& [row, value] : entries) {
    const auto& scaled = y.scaled[static_cast<std::size_t>(row)];
    if (sgn(scaled) == 0) continue;
    if (value.get_den() == 1 && column_scale == 1) {
      mpz_addmul(sum.get_mpz_t(), value.get_num_mpz_t(), scaled.get_mpz_t());
    } else {
      mpz_divexact(coefficient.get_mpz_t(), column_scale.get_mpz_t(), value.get_den_mpz_t());
      coefficient *= value.get_num();
      mpz_addmul(sum.get_mpz_t(), coefficient.get_mpz_t(), scaled.get_mpz_t());
    }
  }
}

// A^T y < c for column j, exactly: sum x c.den < c.num x denominator x column_scale.
bool below_objective(const Model& model, int j, const OverCommonDenominator& y, BigInteger& sum,
                     BigInteger& column_scale) {
  column_dot(model, j, y, sum, column_scale);
  const Rational& c = model.objective(j);
  return BigInteger(sum * c.get_den()) < BigInteger(c.get_num() * y.denominator * column_scale);
}

}  // namespace

bool dual_feasible(const Model& model, const std::vector<Rational>& dual, std::string* failure) {
  const auto fail = [&](std::string text) {
    if (failure) *failure = std::move(text);
    return false;
  };
  if (dual.size() != static_cast<std::size_t>(model.row_count())) return fail("dual has the wrong length");
  for (int i = 0; i < model.row_count(); ++i) {
    const auto& y = dual[static_cast<std::size_t>(i)];
    if (model.sense(i) == RowSense::less_equal && y < 0) return fail("dual of " + row_description(model, i) + " is negative");
    if (model.sense(i) == RowSense::greater_equal && y > 0) return fail("dual of " + row_description(model, i) + " is positive");
  }
  const auto y = over_common_denominator(dual);
  BigInteger sum, column_scale;
  for (int j = 0; j < model.column_count(); ++j) {
    if (below_objective(model, j, y, sum, column_scale)) {
      Rational reduced(sum, BigInteger(y.denominator * column_scale));
      reduced.canonicalize();
      return fail("column " + std::to_string(j) + (model.column_name(j).empty() ? "" : " (" + model.column_name(j) + ")") +
                  ": A^T y = " + hetcoll::to_string(reduced) + " < c = " + hetcoll::to_string(model.objective(j)));
    }
  }
  return true;
}

std::vector<int> dual_infeasible_columns(const Model& model, const std::vector<Rational>& dual, std::size_t limit) {
  std::vector<int> columns;
  const auto y = over_common_denominator(dual);
  BigInteger sum, column_scale;
  for (int j = 0; j < model.column_count() && columns.size() < limit; ++j) {
    if (below_objective(model, j, y, sum, column_scale)) columns.push_back(j);
  }
  return columns;
}

OptimalityCheck check_optimality(const Model& model, const std::vector<Rational>& primal,
                                 const std::vector<Rational>& dual) {
  OptimalityCheck check;
  const auto rows = static_cast<std::size_t>(model.row_count());
  const auto columns = static_cast<std::size_t>(model.column_count());
  if (primal.size() != columns) {
    check.failure = "primal has the wrong length";
    return check;
  }
  // Primal: x >= 0 and every row.
  check.primal_feasible = true;
  // activity = whole / x.denominator + fractional: integer entries times
  // x over its common denominator add up without gcds; other entries go
  // through rationals.
  const auto x_scaled = over_common_denominator(primal);
  std::vector<BigInteger> whole(rows);
  std::vector<Rational> fractional(rows);
  std::vector<char> has_fractional(rows, 0);
  for (std::size_t j = 0; j < columns; ++j) {
    const auto& x = primal[j];
    if (x < 0) {
      check.primal_feasible = false;
      check.failure = "column " + std::to_string(j) + " is negative";
      break;
    }
    if (x == 0) continue;
    for (const auto& [row, value] : model.column(static_cast<int>(j))) {
      const auto i = static_cast<std::size_t>(row);
      if (value.get_den() == 1) {
        mpz_addmul(whole[i].get_mpz_t(), value.get_num_mpz_t(), x_scaled.scaled[j].get_mpz_t());
      } else {
        fractional[i] += value * x;
        has_fractional[i] = 1;
      }
    }
    check.primal_objective += model.objective(static_cast<int>(j)) * x;
  }
  std::vector<Rational> activity(rows);
  for (std::size_t i = 0; i < rows && check.primal_feasible; ++i) {
    const auto row = static_cast<int>(i);
    activity[i] = Rational(whole[i], x_scaled.denominator);
    activity[i].canonicalize();
    if (has_fractional[i]) activity[i] += fractional[i];
    const bool satisfied = model.sense(row) == RowSense::less_equal   ? activity[i] <= model.rhs(row)
                           : model.sense(row) == RowSense::equal      ? activity[i] == model.rhs(row)
                                                                      : activity[i] >= model.rhs(row);
    if (!satisfied) {
      check.primal_feasible = false;
      check.failure = row_description(model, row) + " is violated: " + hetcoll::to_string(activity[i]) + " against " +
                      hetcoll::to_string(model.rhs(row));
    }
  }
  std::string dual_failure;
  check.dual_feasible = dual_feasible(model, dual, &dual_failure);
  if (check.dual_feasible) {
    for (std::size_t i = 0; i < rows; ++i) check.dual_objective += model.rhs(static_cast<int>(i)) * dual[i];
  } else if (check.failure.empty()) {
    check.failure = dual_failure;
  }
  check.objectives_equal = check.primal_feasible && check.dual_feasible && check.primal_objective == check.dual_objective;
  if (check.primal_feasible && check.dual_feasible && !check.objectives_equal) {
    check.failure = "objectives differ: primal " + hetcoll::to_string(check.primal_objective) + ", dual " +
                    hetcoll::to_string(check.dual_objective);
  }
  return check;
}

}  // namespace hetcoll::lp
