// Errors and exit codes shared by the library and the command-line tool.
//
// Two kinds of failure are kept apart (STYLE.md, HiGHS): an exception means
// "the call failed" — the input is malformed (InputError, exit code 2) or an
// invariant broke (anything else, exit code 1). What a solve *found* (no
// solution, limit reached) is part of its result value, never an exception.
#pragma once

#include <stdexcept>
#include <string>

namespace hetcoll {

enum class ExitCode : int {
  success = 0,
  internal_error = 1,
  bad_input = 2,
  no_solution = 3,
  limit_reached = 4,
};

// Malformed user input. The message names the file, the field or line, and
// what is wrong, e.g. `cluster.json: processors[2].t: must be positive, got -1`.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A well-formed request that has no solution (exit code 3), e.g. a node that
// cannot be reached from the source.
class NoSolutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hetcoll
