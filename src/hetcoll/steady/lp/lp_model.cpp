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
  columns_[static_cast<std::size_t>(column)].emplace_back(row, value);
  normalized_ = false;
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
  Rational reduced;
  for (int j = 0; j < model.column_count(); ++j) {
    reduced = 0;
    for (const auto& [row, value] : model.column(j)) {
      const auto& y = dual[static_cast<std::size_t>(row)];
      if (y != 0) reduced += value * y;
    }
    if (reduced < model.objective(j)) {
      return fail("column " + std::to_string(j) + (model.column_name(j).empty() ? "" : " (" + model.column_name(j) + ")") +
                  ": A^T y = " + hetcoll::to_string(reduced) + " < c = " + hetcoll::to_string(model.objective(j)));
    }
  }
  return true;
}

std::vector<int> dual_infeasible_columns(const Model& model, const std::vector<Rational>& dual, std::size_t limit) {
  std::vector<int> columns;
  Rational reduced;
  for (int j = 0; j < model.column_count() && columns.size() < limit; ++j) {
    reduced = 0;
    for (const auto& [row, value] : model.column(j)) {
      const auto& y = dual[static_cast<std::size_t>(row)];
      if (y != 0) reduced += value * y;
    }
    if (reduced < model.objective(j)) columns.push_back(j);
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
  std::vector<Rational> activity(rows);
  for (std::size_t j = 0; j < columns; ++j) {
    const auto& x = primal[j];
    if (x < 0) {
      check.primal_feasible = false;
      check.failure = "column " + std::to_string(j) + " is negative";
      break;
    }
    if (x == 0) continue;
    for (const auto& [row, value] : model.column(static_cast<int>(j))) activity[static_cast<std::size_t>(row)] += value * x;
    check.primal_objective += model.objective(static_cast<int>(j)) * x;
  }
  for (std::size_t i = 0; i < rows && check.primal_feasible; ++i) {
    const auto row = static_cast<int>(i);
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
