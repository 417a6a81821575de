// The hetcoll command: wires the subcommands (app/cmd_*.cpp) together and
// maps exceptions to exit codes. No algorithm logic here (STYLE.md):
// planners, verification, pictures and experiments all live in src/hetcoll/.
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli_common.h"
#include "cli_parse_errors.h"
#include "command_deadline.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/hetcoll.h"

namespace {

int run_command(int argc, char** argv) {
  using namespace hetcoll;
  using namespace hetcoll::cli;
  CLI::App app{
      "hetcoll — plan, prove and check collective communications on heterogeneous clusters.\n"
      "One operation, fastest (makespan): broadcast, multicast, reduce, allreduce.\n"
      "A long series, best throughput (steady state): steady scatter, steady gossip, steady reduce, steady "
      "broadcast; tree: a pipelined broadcast along one tree.\n"
      "Every plan is verified against the communication model before it is printed.\n"
      "Exit codes: 0 success; 2 bad input (or a file that cannot be written); 3 no solution exists; 4 a limit "
      "stopped the run or it refused to start (the best plan is still printed); 5 validate: the plan is invalid; "
      "1 internal error.",
      "hetcoll"};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("hetcoll {}", hetcoll::version()), "Print the version and exit");
  set_invocation_name(argc > 0 ? argv[0] : "hetcoll");
  int result = 0;

#ifndef HETCOLL_SMPI
  add_makespan_commands(app, result);
  add_validate_command(app, result);
  add_simulate_command(app, result);
  add_algorithms_command(app, result);
  add_choose_command(app, result);
  add_tune_command(app, result);
  add_experiment_command(app, result);
  add_generate_command(app, result);
  add_demo_command(app, result);
#ifdef HETCOLL_WITH_LP
  add_tree_command(app, result);
  add_steady_broadcast_command(app, result);
  add_steady_commands(app, result);
#endif
#endif
  // The SMPI build (smpicxx, run by smpirun) has only this command.
  add_calibrate_command(app, result);

  remove_partial_output_on_signals();  // no half-written --out or picture (core/files.h)
  // --help, --version and the bare usage print to stdout too: a failed
  // write (/dev/full, a closed pipe) is exit code 2, not success.
  const auto flushed = [](int code) {
    try {
      check_stream(std::cout, "standard output");
    } catch (const InputError& e) {
      std::cerr << "hetcoll: " << e.what() << "\n";
      return static_cast<int>(ExitCode::bad_input);
    }
    return code;
  };
  if (argc <= 1) {  // `hetcoll` alone: the usage, not an error
    std::cout << app.help();
    return flushed(static_cast<int>(ExitCode::success));
  }
  try {
    app.parse(argc, argv);
    // Every command prints to stdout: a failed write (a full disk, a closed
    // pipe) must not pass for success.
    check_stream(std::cout, "standard output");
  } catch (const CLI::CallForHelp& e) {
    return flushed(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return flushed(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return flushed(app.exit(e));
  } catch (const CLI::ParseError& e) {
    report_parse_error(app, e, std::vector<std::string>(argv + 1, argv + argc));
    return static_cast<int>(ExitCode::bad_input);
  } catch (const InputError& e) {
    std::cerr << "hetcoll: " << command_line_message(e) << "\n";
    return static_cast<int>(ExitCode::bad_input);
  } catch (const NoSolutionError& e) {
    std::cerr << "hetcoll: no solution: " << e.what() << "\n";
    return static_cast<int>(ExitCode::no_solution);
  } catch (const LimitError& e) {
    std::cerr << "hetcoll: no plan within the limit: " << e.what() << "\n";
    return static_cast<int>(ExitCode::limit_reached);
  } catch (const std::bad_alloc&) {
    std::cerr << "hetcoll: no plan within the limit: the run needs more memory than the machine gives it\n";
    return static_cast<int>(ExitCode::limit_reached);
  } catch (const std::exception& e) {
    std::cerr << "hetcoll: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::internal_error);
  }
  return result;
}

}  // namespace

// Through finish_process: a thread of abandoned work (command_deadline.h)
// must not run into the static destructors of a normal exit.
int main(int argc, char** argv) { return hetcoll::cli::finish_process(run_command(argc, argv)); }
