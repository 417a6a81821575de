// Errors and exit codes shared by the library and the command-line tool.
//
// Two kinds of failure are kept apart (STYLE.md, HiGHS): an exception means
// "the call failed" — the input is malformed (InputError, exit code 2) or an
// invariant broke (anything else, exit code 1). What a solve *found* (no
// solution, limit reached) is part of its result value, never an exception.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace hetcoll {

// The exit codes of the hetcoll command (docs/FORMATS.md, docs/USAGE.md).
enum class ExitCode : int {
  success = 0,
  internal_error = 1,  // a bug: an invariant broke (never a user's mistake)
  bad_input = 2,       // malformed input, or a file that cannot be written
  no_solution = 3,     // a well-formed request without a solution (NoSolutionError)
  limit_reached = 4,   // a limit stopped the run or it refused to start: best plan printed
  invalid_plan = 5,    // validate: the plan was read and breaks the model (2: it could not be read)
};

// Malformed user input. The message names the file, the field or line, and
// what is wrong, e.g. `cluster.json: processors[2].t: must be positive, got -1`.
//
// An error about one argument of a library call carries its name
// (`parameter()`: "source", "algorithm", "eps", ...), and what() starts with
// it: `source: no processor "x" (give an id or an index 0..6)`. The command
// line maps parameter names to its flags; errors about a file name the file
// instead and have an empty parameter().
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  InputError(std::string parameter, const std::string& problem)
      : std::runtime_error(parameter + ": " + problem), parameter_(std::move(parameter)) {}

  const std::string& parameter() const noexcept { return parameter_; }

 private:
  std::string parameter_;
};

// A well-formed request that has no solution (exit code 3), e.g. a node that
// cannot be reached from the source.
class NoSolutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A limit refuses a run before any plan exists (exit code 4): its predicted
// memory or time exceeds what the run may take, e.g. a route table of a
// billion hops. The message gives the estimate and the limit.
class LimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hetcoll
