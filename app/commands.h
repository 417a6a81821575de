// The hetcoll subcommands. Each app/cmd_*.cpp adds one group of subcommands
// to the command line; main.cpp only wires them together and maps exceptions
// to exit codes. A new command is a new cmd_*.cpp plus one line in main.cpp.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace hetcoll {
struct PeriodicPlan;
class Platform;
}  // namespace hetcoll

namespace hetcoll::cli {

// Each function adds its subcommand(s) to `app`; their callbacks store the
// process exit code in `result`.
void add_makespan_commands(CLI::App& app, int& result);  // broadcast, multicast, reduce, allreduce
void add_validate_command(CLI::App& app, int& result);
void add_simulate_command(CLI::App& app, int& result);
void add_algorithms_command(CLI::App& app, int& result);
void add_choose_command(CLI::App& app, int& result);  // what the MPI drop-in runs for a call
void add_tune_command(CLI::App& app, int& result);    // a tuning file for stock Open MPI / MPICH
void add_experiment_command(CLI::App& app, int& result);
void add_generate_command(CLI::App& app, int& result);
void add_demo_command(CLI::App& app, int& result);
// Pipelined broadcast (built with HETCOLL_WITH_LP): `tree` (cmd_tree.cpp) and
// `steady broadcast` (cmd_steady_broadcast.cpp; joins the `steady` group,
// creating it if no other file has).
void add_tree_command(CLI::App& app, int& result);
void add_steady_broadcast_command(CLI::App& app, int& result);
// --schedule-out of both: the schedule as a periodic-plan JSON file with the
// verifier's verdict (cmd_tree.cpp).
void write_broadcast_schedule(const std::string& path, const PeriodicPlan& schedule, const Platform& platform,
                              bool valid);
void add_calibrate_command(CLI::App& app, int& result);  // under mpirun / smpirun
// Steady-state scatter, gossip and reduce (cmd_steady.cpp; joins the `steady`
// group, creating it if no other file has).
void add_steady_commands(CLI::App& app, int& result);

}  // namespace hetcoll::cli
