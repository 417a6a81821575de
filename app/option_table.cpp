#include "option_table.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "cli_common.h"
#include "hetcoll/core/limits.h"

namespace hetcoll::cli {
namespace {

// What one command (or several) says instead of the common text, and why.
struct Variant {
  std::vector<std::string_view> commands;  // command paths: "calibrate", "generate grid"
  std::string help;                        // empty: the common help (only the default differs)
  std::string default_value;               // empty: the common default
  std::string_view why;                    // why the meaning differs (for the reader of this table)
};

struct OptionDefinition {
  std::string_view name;
  std::string_view value;                  // shown after the name in --help ("FILE"); empty: CLI11's
  std::function<CLI::Validator()> check;   // empty: none
  std::string help;
  std::string default_value;               // empty: none worth stating
  std::vector<Variant> variants;
};

CLI::Validator any_seed() { return whole_number_in(0, std::numeric_limits<long long>::max()); }

const std::vector<OptionDefinition>& option_table() {
  static const std::vector<OptionDefinition> table = [] {
    std::vector<OptionDefinition> t;
    // --- the platform --------------------------------------------------
    t.push_back({"--platform", "FILE", {},
                 "Platform file: a cluster or platform-graph JSON, or a SimGrid XML platform (.xml); docs/FORMATS.md. "
                 "Commands that plan on a graph take a cluster as its complete graph",
                 "",
                 {{{"choose", "tune"},
                   "Platform graph whose links have latency and bandwidth: SimGrid XML (.xml) or graph JSON",
                   "",
                   "the MPI flow model needs latencies and bandwidths"}}});
    t.push_back({"--times", "T,T,...", {},
                 "Inline cluster: one transmission time per processor, T,T,... (processors p0, p1, ...); commands "
                 "that plan on a graph take its complete graph, c(i,j) = t(i)",
                 "",
                 {}});
    t.push_back({"--message-size", "BYTES", {},
                 "Message size: turns the latency and bandwidth of a platform graph's links into transmission times",
                 "",
                 {{{"simulate", "validate"}, "", "the plan's", ""},
                  {{"tree"},
                   "Whole message: predicts the pipelined broadcast's makespan and, without --slice-size, picks "
                   "the slice size that minimises it",
                   "",
                   "a pipelined message is cut into slices"},
                  {{"steady broadcast"},
                   "Whole message (latency/bandwidth platforms): predicts the makespan of one tree and of the "
                   "multi-tree schedule dealt out in rounds, chooses the slice size and the faster of the two",
                   "",
                   "a pipelined message is cut into slices"},
                  {{"calibrate"},
                   "Message size of the sender-speed cluster's transmission times",
                   "the first of --sizes",
                   "calibrate writes times measured at a size"}}});
    t.push_back({"--slice-size", "BYTES", {},
                 "Slice size: turns the latency and bandwidth of the links into the time of one slice (needed on "
                 "such platforms unless --message-size chooses it)",
                 "",
                 {{{"generate random", "generate tiers"},
                   "Write each node's send_overhead as fixed seconds per slice of this many bytes",
                   "none written: the 0.8 rule of --send-overhead-fraction applies at whatever slice size is "
                   "planned; 1e6 when only --send-overhead-fraction is given",
                   "a generator writes a platform; it plans nothing"}}});
    // --- who takes part ------------------------------------------------
    t.push_back({"--source", "P", {},
                 "The source: a processor's id or index",
                 "the first participant",
                 {}});
    t.push_back({"--root", "P", {},
                 "The root, where the result ends up: a processor's id or index",
                 "the first participant",
                 {{{"allreduce"},
                   "The root of the reduce phase (the broadcast phase starts there): a processor's id or index",
                   "a fastest processor",
                   "all-reduce gives the result to all; the root only joins its two phases"},
                  {{"choose", "tune"},
                   "Root rank of MPI_Bcast and MPI_Reduce (rank r plays the platform's host r)",
                   "0",
                   "an MPI rank, not a processor name"}}});
    t.push_back({"--targets", "P,P,...", {},
                 "The processors that must receive, ids or indices",
                 "",
                 {{{"steady scatter"}, "", "every other participant", ""},
                  {{"steady gossip"}, "", "every participant", ""}}});
    t.push_back({"--participants", "P,P,...", {},
                 "The hosts that take part, ids or indices; every other node only forwards (a router)",
                 "every host",
                 {{{"steady reduce"},
                   "The hosts that take part, in the order of the reduction (the operator need not commute), ids "
                   "or indices; every other node only forwards (a router)",
                   "every host in file order",
                   "the list is also the reduction order"}}});
    // --- limits -------------------------------------------------------
    t.push_back({"--time-limit", "SECONDS|none", {},
                 fmt::format("Wall-clock limit in seconds for searches, DPs and the PTAS (\"none\": no limit). A "
                             "search stops at the limit and prints its best plan; a DP or the PTAS whose predicted "
                             "time exceeds it refuses at once and prints the fallback plan (FNF or SNF). Either way "
                             "the exit code is 4"),
                 fmt::format("{:g}", kDefaultTimeLimitSeconds),
                 {{{"tree"},
                   "With --heuristic optimal: wall-clock limit in seconds of its search (\"none\": no limit); at "
                   "the limit it prints the best tree found, exit code 4. The other heuristics take no limit",
                   fmt::format("{:g}", kDefaultTimeLimitSeconds),
                   "only one tree heuristic searches"},
                  {{"experiment"},
                   "Time limit in seconds of each instance's search",
                   "the experiment's own",
                   "an experiment runs many instances"}}});
    t.push_back({"--node-limit", "N|none", {},
                 "Stop exact searches after exactly N search nodes (a positive integer; \"none\": no limit) and "
                 "print the best plan so far (exit code 4); also under --algo auto",
                 "none",
                 {{{"tree"},
                   "With --heuristic optimal: stop its search after exactly N search nodes (a positive integer; "
                   "\"none\": no limit) and print the best tree so far (exit code 4)",
                   "20000000",
                   "only one tree heuristic searches, and it has its own bound"}}});
    t.push_back({"--threads", "N", [] { return whole_number_in(0, kMaxSearchThreads); },
                 fmt::format("Threads for the exact search (--algo optimal, and auto when it searches): 1 = serial, "
                             "the same plan on every run under --node-limit; N > 1 splits each pass into subproblems "
                             "solved in parallel (same optimum; which optimal plan, the node count and, under a "
                             "limit, the plan and bound may vary from run to run); 0 = one per hardware thread (at "
                             "most {})",
                             kMaxSearchThreads),
                 "1",
                 {{{"experiment"},
                   "search-distinct: threads of the exact broadcast search (1 = serial; 0 = one per hardware "
                   "thread); the reduce search is serial",
                   "1",
                   "an experiment runs many searches"}}});
    // --- what is printed and written ----------------------------------
    t.push_back({"--json", "", {},
                 "Print the result as JSON on stdout instead of text (docs/FORMATS.md)",
                 "",
                 {{{"tune"},
                   "Print every cell's predictions as JSON instead of text (the tuning file is written the same)",
                   "",
                   "the result of tune is a file; --json prints what it is made of"},
                  {{"calibrate"},
                   "Print the measurement as JSON instead of text (names, t, latency and bandwidth matrices)",
                   "",
                   "a measurement, not a plan"}}});
    t.push_back({"--out", "FILE", {},
                 "Write the plan JSON (what --json prints) to this file; hetcoll validate and hetcoll simulate "
                 "read it",
                 "",
                 {{{"tree", "steady broadcast"},
                   "Write the result JSON (what --json prints) to this file (--schedule-out writes the plan that "
                   "validate and simulate read)",
                   "",
                   "the result is a report; its schedule is written by --schedule-out"},
                  {{"generate cluster", "generate grid", "generate random", "generate tiers"},
                   "Write the platform to this file instead of stdout",
                   "",
                   "a generator writes a platform"},
                  {{"calibrate"},
                   "Write the sender-speed cluster (JSON, one t per rank) to this file",
                   "",
                   "calibrate writes platforms"},
                  {{"tune"}, "The tuning file to write", "", "tune writes an MPI library's tuning file"},
                  {{"demo"}, "Directory for the Gantt charts", "hetcoll-demo", "the demo writes several pictures"},
                  {{"experiment"}, "Directory for the CSV and SVG files", "results", "an experiment writes tables"}}});
    t.push_back({"--schedule-out", "FILE", {},
                 "Write the periodic one-port schedule as a steady-state plan JSON (what hetcoll validate and "
                 "hetcoll simulate read)",
                 "",
                 {{{"tree"},
                   "Write the tree's periodic one-port schedule as a steady-state plan JSON (what hetcoll validate "
                   "and hetcoll simulate read); not for trees with routed edges",
                   "",
                   "a tree with routed edges has no schedule of platform edges"}}});
    t.push_back({"--gantt", "FILE", {},
                 "Write a Gantt chart, one row per processor: FILE.svg, or FILE.png / FILE.pdf (converted with "
                 "rsvg-convert)",
                 "",
                 {}});
    t.push_back({"--dot", "FILE", {},
                 "Write the communication tree: Graphviz DOT, or a drawing when FILE ends in .svg (.png, .pdf: "
                 "converted with rsvg-convert); on a platform graph the DOT labels each edge with the links it "
                 "crosses",
                 "",
                 {{{"tree"},
                   "Write the tree as Graphviz DOT (render: dot -Tsvg FILE -o tree.svg): hosts only, each edge "
                   "labelled with the links its slices cross",
                   "",
                   "a pipelined tree has no message times; it is written as DOT only"}}});
    t.push_back({"--quiet", "", {},
                 "Print only the summary: no tree, schedule or progress lines",
                 "",
                 {{{"calibrate"}, "No progress lines on stderr", "", "calibrate prints a measurement, no summary"},
                  {{"tune"}, "Print only where the file went", "", "tune's output is a file"}}});
    t.push_back({"--plan", "FILE", {},
                 "The plan JSON file (written by --out of the planning commands, or by --schedule-out)",
                 "",
                 {{{"validate"},
                   "The plan JSON file (written by --out or --schedule-out). Exit code 0 when it is valid, 5 when "
                   "it was read and is invalid (every violation listed), 2 when it cannot be read",
                   "",
                   "validate's exit code is its answer"}}});
    // --- inputs of several generators and experiments ------------------
    t.push_back({"--seed", "N", any_seed, "Random seed", "1", {}});
    t.push_back({"--nodes,-n", "N", {},
                 "Number of nodes (the paper uses 10..50)",
                 "30",
                 {{{"generate tiers"}, "Preset size: 30 or 65 (the paper's)", "65", "tiers has two preset sizes"}}});
    t.push_back({"--sizes", "LIST", {},
                 "",
                 "",
                 {{{"calibrate"},
                   "Two message sizes in bytes, S1,S2 with S1 < S2: the slope between them gives the bandwidth, "
                   "the rest the latency",
                   "1024,1048576",
                   "message sizes"},
                  {{"experiment"},
                   "Problem sizes to run, comma-separated (search-distinct: processor counts n, e.g. 40; "
                   "steady-scale: platform nodes, e.g. 260,1000)",
                   "the experiment's own",
                   "problem sizes"}}});
    t.push_back({"--operation", "NAME", {},
                 "",
                 "",
                 {{{"choose"}, "The MPI call: bcast, reduce, allreduce or allgather", "bcast", "one MPI call"},
                  {{"experiment"},
                   "search-distinct: the searches to run, broadcast, reduce or both comma-separated; steady-scale: "
                   "any of scatter, gossip, broadcast, reduce",
                   "all of them",
                   "an experiment's series"}}});
    t.push_back({"--element-bytes", "BYTES", [] { return CLI::Validator(CLI::PositiveNumber); },
                 "Bytes per element of the MPI call (its datatype's size)",
                 "4, an int",
                 {}});
    // --- steady state (scatter, gossip, reduce share them) ------------
    t.push_back({"--full-lp", "", {},
                 "Build and solve the whole LP with Clp instead of routing generation (gossip by source: the "
                 "default, a master over shortest-path routings priced by Dijkstra, its certificate the whole LP's; "
                 "a scatter always solves the whole LP). Same exact optimum",
                 "",
                 {{{"steady reduce"},
                   "Solve the paper's LP as printed (every partial result on every edge, every task) with Clp, "
                   "instead of the default reduction-tree pricing (a small LP over trees, priced by a shortest-path "
                   "DP; its certificate is built for, and checked on, the full LP). Same exact optimum; far slower beyond 12 "
                   "participants",
                   "",
                   "reduce's LP is priced by trees, not routings"}}});
    t.push_back({"--exact", "", {},
                 "Print the exact plan instead of a practical one: the exact period (however long) and exact "
                 "rationals in the text, the optimal throughput itself (--json always gives the exact plan unless "
                 "--period-max)",
                 "",
                 {{{"steady broadcast"},
                   "Print the exact schedule instead of a practical one: the exact period (however long), reaching "
                   "the optimal throughput itself (--json always gives it)",
                   "",
                   "steady broadcast has no --period-max"}}});
    t.push_back({"--simplex", "METHOD", {},
                 "Clp's method for the whole LP: dual, primal, presolve (Clp's initialSolve) or barrier (then "
                 "crossover); implies --full-lp; the answer is re-solved exactly either way",
                 "dual",
                 {{{"steady reduce"},
                   "Clp's method for the full LP: dual, primal, presolve (Clp's initialSolve) or barrier (then "
                   "crossover); implies --full-lp unless --column-generation; the answer is re-solved exactly "
                   "either way",
                   "dual",
                   "reduce can also generate the full LP's columns"}}});
    return t;
  }();
  return table;
}

// The first name of a CLI11 name list: "--nodes,-n" -> "--nodes".
std::string_view long_name(std::string_view names) { return names.substr(0, names.find(',')); }

const OptionDefinition& definition_of(std::string_view name) {
  for (const auto& definition : option_table()) {
    if (long_name(definition.name) == long_name(name)) return definition;
  }
  throw std::logic_error(fmt::format("option_table: {} is not defined", name));
}

const Variant* variant_for(const OptionDefinition& definition, const std::string& path) {
  for (const auto& variant : definition.variants) {
    if (std::find(variant.commands.begin(), variant.commands.end(), path) != variant.commands.end()) return &variant;
  }
  return nullptr;
}

}  // namespace

std::string command_path(const CLI::App* command) {
  std::string path;
  for (const CLI::App* app = command; app && app->get_parent(); app = app->get_parent()) {
    path = path.empty() ? app->get_name() : app->get_name() + " " + path;
  }
  return path;
}

std::string option_help(std::string_view name, const CLI::App* command, std::string_view note) {
  const OptionDefinition& definition = definition_of(name);
  const Variant* variant = variant_for(definition, command_path(command));
  const std::string& help = variant && !variant->help.empty() ? variant->help : definition.help;
  if (help.empty()) {
    throw std::logic_error(fmt::format("option_table: {} has no text for \"{}\"", name, command_path(command)));
  }
  const std::string& default_value =
      variant && !variant->default_value.empty() ? variant->default_value : definition.default_value;
  return default_value.empty() ? help + std::string(note)
                               : fmt::format("{}{} (default: {})", help, note, default_value);
}

void apply_table_definition(CLI::Option* option, std::string_view name, const CLI::App* command) {
  (void)command;
  const OptionDefinition& definition = definition_of(name);
  if (!definition.value.empty()) option->type_name(std::string(definition.value));
  if (definition.check) option->check(definition.check());
}

CLI::Option* add_table_flag(CLI::App* command, std::string_view name, bool& target) {
  return command->add_flag(std::string(name), target, option_help(name, command));
}

}  // namespace hetcoll::cli
