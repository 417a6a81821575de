// QSopt_ex, the exact rational simplex (Applegate, Cook, Dash, Espinoza):
// the fallback when Clp's basis is not exactly optimal. Its C header must be
// included inside extern "C"; QSexactStart() and QSexact_set_precision()
// must run before any problem is built. The solver's status, not only its
// return code, decides the outcome. gmp.h is included first, as C++: inside
// extern "C" its C++ overloads would not compile.
#include <gmp.h>
#include <cstdio>
extern "C" {
#include <qsopt_ex/QSopt_ex.h>
}

#include <cstdlib>
#include <mutex>

#include "hetcoll/steady/lp/backends_internal.h"

namespace hetcoll::lp::detail {

namespace {

struct GmpAllocator {
  void* (*allocate)(size_t) = nullptr;
  void* (*reallocate)(void*, size_t, size_t) = nullptr;
  void (*release)(void*, size_t) = nullptr;

  static GmpAllocator current() {
    GmpAllocator allocator;
    mp_get_memory_functions(&allocator.allocate, &allocator.reallocate, &allocator.release);
    return allocator;
  }
  void install() const { mp_set_memory_functions(allocate, reallocate, release); }
};

// QSexactStart() installs EGlib's allocator as GMP's memory functions, and
// memory from one allocator cannot be freed by the other (a crash in
// mpq_clear). So the program keeps GMP's own allocator, and QSopt_ex runs
// with EGlib's: `QsoptScope` switches to it for the duration of a call and
// back afterwards. Values cross between the two only by copying (reading
// memory of either allocator is fine). GMP's memory functions are global,
// so QSopt_ex calls are serialised and must not overlap other GMP use on
// another thread (the steady-state layer is single-threaded).
std::mutex qsopt_mutex;
GmpAllocator program_allocator;
GmpAllocator qsopt_allocator;

void start_qsopt_ex() {
  static std::once_flag started;
  std::call_once(started, [] {
    program_allocator = GmpAllocator::current();
    QSexactStart();
    QSexact_set_precision(128);
    qsopt_allocator = GmpAllocator::current();
    program_allocator.install();
  });
}

class QsoptScope {
 public:
  QsoptScope() : lock_(qsopt_mutex) { qsopt_allocator.install(); }
  ~QsoptScope() { program_allocator.install(); }
  QsoptScope(const QsoptScope&) = delete;
  QsoptScope& operator=(const QsoptScope&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
};

// Runs `body` with the program's allocator (to build mpq_class results).
template <typename Body>
void with_program_allocator(Body&& body) {
  program_allocator.install();
  body();
  qsopt_allocator.install();
}

// mpq_t arrays owned for the duration of a call.
class MpqArray {
 public:
  explicit MpqArray(std::size_t size) : values_(size) {
    for (auto& value : values_) mpq_init(value);
  }
  ~MpqArray() {
    for (auto& value : values_) mpq_clear(value);
  }
  MpqArray(const MpqArray&) = delete;
  MpqArray& operator=(const MpqArray&) = delete;
  mpq_t* data() { return values_.data(); }
  mpq_t& operator[](std::size_t i) { return values_[i]; }

 private:
  std::vector<mpq_t> values_;
};

}  // namespace

ExactResult solve_with_qsopt_ex(const Model& model, SimplexAlgorithm algorithm, const FloatingResult* start) {
  start_qsopt_ex();
  ExactResult result;
  QsoptScope scope;
  // Everything below allocates with EGlib's allocator, except the results.
  const auto columns = static_cast<std::size_t>(model.column_count());
  const auto rows = static_cast<std::size_t>(model.row_count());

  // Column-major load in one call (mpq_QSload_prob).
  std::vector<int> counts(columns);
  std::vector<int> starts(columns);
  std::vector<int> indices;
  std::size_t nonzeros = 0;
  for (std::size_t j = 0; j < columns; ++j) nonzeros += model.column(static_cast<int>(j)).size();
  MpqArray values(nonzeros == 0 ? 1 : nonzeros);
  indices.reserve(nonzeros);
  std::size_t position = 0;
  for (std::size_t j = 0; j < columns; ++j) {
    starts[j] = static_cast<int>(position);
    const auto& entries = model.column(static_cast<int>(j));
    counts[j] = static_cast<int>(entries.size());
    for (const auto& [row, value] : entries) {
      indices.push_back(row);
      mpq_set(values[position], value.get_mpq_t());
      ++position;
    }
  }
  MpqArray objective(columns == 0 ? 1 : columns);
  MpqArray lower(columns == 0 ? 1 : columns);
  MpqArray upper(columns == 0 ? 1 : columns);
  for (std::size_t j = 0; j < columns; ++j) {
    mpq_set(objective[j], model.objective(static_cast<int>(j)).get_mpq_t());
    mpq_set_ui(lower[j], 0, 1);
    mpq_set(upper[j], mpq_ILL_MAXDOUBLE);
  }
  MpqArray rhs(rows == 0 ? 1 : rows);
  std::vector<char> sense(rows == 0 ? 1 : rows);
  for (std::size_t i = 0; i < rows; ++i) {
    mpq_set(rhs[i], model.rhs(static_cast<int>(i)).get_mpq_t());
    switch (model.sense(static_cast<int>(i))) {
      case RowSense::less_equal: sense[i] = 'L'; break;
      case RowSense::equal: sense[i] = 'E'; break;
      case RowSense::greater_equal: sense[i] = 'G'; break;
    }
  }
  mpq_QSprob problem =
      mpq_QSload_prob("hetcoll", static_cast<int>(columns), static_cast<int>(rows), counts.data(), starts.data(),
                      indices.data(), values.data(), QS_MAX, objective.data(), rhs.data(), sense.data(),
                      lower.data(), upper.data(), nullptr, nullptr);
  if (!problem) {
    result.message = "QSopt_ex could not load the model";
    return result;
  }
  // The solution is read afterwards with mpq_QSget_x_array / _pi_array: the
  // arrays QSexact_solver fills itself are sized for its internal form.
  MpqArray x(columns == 0 ? 1 : columns);
  MpqArray y(rows == 0 ? 1 : rows);
  int status = 0;
  // A starting basis in QSopt_ex's codes; its arrays are plain malloc'ed
  // chars (QSopt_ex may write the final basis into them).
  QSbasis basis{static_cast<int>(columns), static_cast<int>(rows), nullptr, nullptr};
  const bool warm = start && start->column_status.size() == columns && start->row_status.size() == rows;
  if (warm) {
    basis.cstat = static_cast<char*>(std::malloc(columns + 1));
    basis.rstat = static_cast<char*>(std::malloc(rows + 1));
    for (std::size_t j = 0; j < columns; ++j) {
      basis.cstat[j] = start->column_status[j] == BasisStatus::basic ? QS_COL_BSTAT_BASIC : QS_COL_BSTAT_LOWER;
    }
    for (std::size_t i = 0; i < rows; ++i) {
      basis.rstat[i] = start->row_status[i] == BasisStatus::basic ? QS_ROW_BSTAT_BASIC : QS_ROW_BSTAT_LOWER;
    }
  }
  const int code = QSexact_solver(problem, nullptr, nullptr, warm ? &basis : nullptr,
                                  algorithm == SimplexAlgorithm::primal ? PRIMAL_SIMPLEX : DUAL_SIMPLEX, &status);
  std::free(basis.cstat);
  std::free(basis.rstat);
  if (code != 0) {
    result.message = "QSopt_ex failed (return code " + std::to_string(code) + ")";
  } else if (status == QS_LP_OPTIMAL && (mpq_QSget_x_array(problem, x.data()) != 0 ||
                                         mpq_QSget_pi_array(problem, y.data()) != 0)) {
    result.message = "QSopt_ex reported an optimum but no solution vectors";
  } else if (status == QS_LP_OPTIMAL) {
    result.outcome = ExactResult::Outcome::optimal;
    with_program_allocator([&] {
      result.primal.resize(columns);
      result.dual.resize(rows);
      for (std::size_t j = 0; j < columns; ++j) result.primal[j] = Rational(x[j]);
      for (std::size_t i = 0; i < rows; ++i) result.dual[i] = Rational(y[i]);
    });
  } else if (status == QS_LP_INFEASIBLE) {
    result.outcome = ExactResult::Outcome::infeasible;
    result.message = "QSopt_ex: infeasible";
  } else if (status == QS_LP_UNBOUNDED) {
    result.outcome = ExactResult::Outcome::unbounded;
    result.message = "QSopt_ex: unbounded";
  } else {
    result.message = "QSopt_ex ended with status " + std::to_string(status);
  }
  mpq_QSfree_prob(problem);
  return result;
}

}  // namespace hetcoll::lp::detail
