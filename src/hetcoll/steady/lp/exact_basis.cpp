#include "hetcoll/steady/lp/exact_basis.h"

#include <algorithm>
#include <limits>

namespace hetcoll::lp {

namespace {

using Entry = std::pair<int, Rational>;

bool by_column(const Entry& a, const Entry& b) { return a.first < b.first; }

const Rational* find_entry(const std::vector<Entry>& row, int column) {
  auto it = std::lower_bound(row.begin(), row.end(), column,
                             [](const Entry& entry, int value) { return entry.first < value; });
  if (it == row.end() || it->first != column) return nullptr;
  return &it->second;
}

}  // namespace

std::optional<SparseRationalLu> SparseRationalLu::factor(int size, std::vector<SparseRow> rows) {
  SparseRationalLu lu;
  lu.size_ = size;
  const auto k = static_cast<std::size_t>(size);
  if (rows.size() != k) return std::nullopt;

  // Active rows sorted by column, duplicates merged, zeros dropped.
  std::vector<int> column_count(k, 0);
  std::vector<std::vector<int>> column_rows(k);
  for (std::size_t r = 0; r < k; ++r) {
    auto& row = rows[r];
    std::sort(row.begin(), row.end(), by_column);
    std::vector<Entry> merged;
    for (auto& entry : row) {
      if (entry.first < 0 || entry.first >= size) return std::nullopt;
      if (!merged.empty() && merged.back().first == entry.first) {
        merged.back().second += entry.second;
      } else {
        merged.push_back(std::move(entry));
      }
    }
    std::erase_if(merged, [](const Entry& entry) { return entry.second == 0; });
    row = std::move(merged);
    for (const auto& entry : row) {
      ++column_count[static_cast<std::size_t>(entry.first)];
      column_rows[static_cast<std::size_t>(entry.first)].push_back(static_cast<int>(r));
    }
  }
  std::vector<char> row_active(k, 1);
  std::vector<char> column_active(k, 1);
  lu.steps_.reserve(k);

  for (std::size_t step = 0; step < k; ++step) {
    // Pivot choice (see header): the smallest Markowitz cost.
    int best_row = -1;
    int best_column = -1;
    long long best_cost = std::numeric_limits<long long>::max();
    int shortest = std::numeric_limits<int>::max();
    for (std::size_t c = 0; c < k; ++c) {
      if (column_active[c] && column_count[c] < shortest) shortest = column_count[c];
    }
    if (shortest == 0 || shortest == std::numeric_limits<int>::max()) return std::nullopt;
    if (shortest == 1) {
      for (std::size_t c = 0; c < k && best_row < 0; ++c) {
        if (!column_active[c] || column_count[c] != 1) continue;
        for (int r : column_rows[c]) {
          if (row_active[static_cast<std::size_t>(r)] && find_entry(rows[static_cast<std::size_t>(r)], static_cast<int>(c))) {
            best_row = r;
            best_column = static_cast<int>(c);
            break;
          }
        }
      }
    } else {
      // A row singleton eliminates without fill-in too.
      for (std::size_t r = 0; r < k && best_row < 0; ++r) {
        if (row_active[r] && rows[r].size() == 1) {
          best_row = static_cast<int>(r);
          best_column = rows[r][0].first;
        }
      }
      if (best_row < 0) {
        int examined = 0;
        for (int length = shortest; length <= size && examined < 4; ++length) {
          for (std::size_t c = 0; c < k && examined < 4; ++c) {
            if (!column_active[c] || column_count[c] != length) continue;
            ++examined;
            for (int r : column_rows[c]) {
              const auto& row = rows[static_cast<std::size_t>(r)];
              if (!row_active[static_cast<std::size_t>(r)] || !find_entry(row, static_cast<int>(c))) continue;
              const long long cost = static_cast<long long>(row.size() - 1) * (length - 1);
              if (cost < best_cost || (cost == best_cost && r < best_row)) {
                best_cost = cost;
                best_row = r;
                best_column = static_cast<int>(c);
              }
            }
          }
        }
      }
    }
    if (best_row < 0) return std::nullopt;

    const auto pivot_row_index = static_cast<std::size_t>(best_row);
    const auto pivot_column_index = static_cast<std::size_t>(best_column);
    Step record;
    record.row = best_row;
    record.column = best_column;
    std::vector<Entry> pivot_row = std::move(rows[pivot_row_index]);
    rows[pivot_row_index].clear();
    row_active[pivot_row_index] = 0;
    column_active[pivot_column_index] = 0;
    for (auto& entry : pivot_row) {
      --column_count[static_cast<std::size_t>(entry.first)];
      if (entry.first == best_column) {
        record.pivot = entry.second;
      }
    }

    // Eliminate the pivot column from every other active row.
    std::vector<int> targets;
    for (int r : column_rows[pivot_column_index]) {
      if (r != best_row && row_active[static_cast<std::size_t>(r)]) targets.push_back(r);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int r : targets) {
      auto& row = rows[static_cast<std::size_t>(r)];
      const Rational* value = find_entry(row, best_column);
      if (!value) continue;
      Rational factor = *value / record.pivot;
      std::vector<Entry> updated;
      updated.reserve(row.size() + pivot_row.size());
      std::size_t a = 0;
      std::size_t b = 0;
      while (a < row.size() || b < pivot_row.size()) {
        if (b == pivot_row.size() || (a < row.size() && row[a].first < pivot_row[b].first)) {
          updated.push_back(std::move(row[a]));
          ++a;
        } else if (a == row.size() || pivot_row[b].first < row[a].first) {
          const int column = pivot_row[b].first;
          if (column != best_column) {
            updated.emplace_back(column, -factor * pivot_row[b].second);
            ++column_count[static_cast<std::size_t>(column)];
            column_rows[static_cast<std::size_t>(column)].push_back(r);
            ++lu.fill_entries_;
          }
          ++b;
        } else {
          const int column = row[a].first;
          if (column == best_column) {
            --column_count[static_cast<std::size_t>(column)];
          } else {
            Rational combined = row[a].second - factor * pivot_row[b].second;
            if (combined == 0) {
              --column_count[static_cast<std::size_t>(column)];
            } else {
              updated.emplace_back(column, std::move(combined));
            }
          }
          ++a;
          ++b;
        }
      }
      row = std::move(updated);
      record.eliminated.emplace_back(r, std::move(factor));
    }
    column_rows[pivot_column_index].clear();
    column_rows[pivot_column_index].shrink_to_fit();
    for (auto& entry : pivot_row) {
      if (entry.first != best_column) record.upper.push_back(std::move(entry));
    }
    lu.steps_.push_back(std::move(record));
  }
  return lu;
}

std::vector<Rational> SparseRationalLu::solve(std::vector<Rational> rhs) const {
  // E rhs, then back substitution through U.
  for (const auto& step : steps_) {
    const Rational& pivot_value = rhs[static_cast<std::size_t>(step.row)];
    if (pivot_value == 0) continue;
    for (const auto& [row, factor] : step.eliminated) rhs[static_cast<std::size_t>(row)] -= factor * pivot_value;
  }
  std::vector<Rational> x(static_cast<std::size_t>(size_));
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    Rational value = rhs[static_cast<std::size_t>(it->row)];
    for (const auto& [column, coefficient] : it->upper) {
      const Rational& known = x[static_cast<std::size_t>(column)];
      if (known != 0) value -= coefficient * known;
    }
    x[static_cast<std::size_t>(it->column)] = value / it->pivot;
  }
  return x;
}

std::vector<Rational> SparseRationalLu::solve_transposed(std::vector<Rational> rhs) const {
  // U^T z = rhs in pivot order, then y^T = z^T E (elementary operations in
  // reverse order).
  std::vector<Rational> y(static_cast<std::size_t>(size_));
  for (const auto& step : steps_) {
    Rational value = rhs[static_cast<std::size_t>(step.column)] / step.pivot;
    if (value != 0) {
      for (const auto& [column, coefficient] : step.upper) rhs[static_cast<std::size_t>(column)] -= coefficient * value;
    }
    y[static_cast<std::size_t>(step.row)] = std::move(value);
  }
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    Rational& target = y[static_cast<std::size_t>(it->row)];
    for (const auto& [row, factor] : it->eliminated) {
      const Rational& other = y[static_cast<std::size_t>(row)];
      if (other != 0) target -= factor * other;
    }
  }
  return y;
}

}  // namespace hetcoll::lp
