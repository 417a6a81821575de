// The command-line options that more than one command takes, each defined
// once (app/option_table.cpp): its name, the kind of value it takes (shown in
// --help), its check, its help text and its default. Every command adds them
// from the table, so `--out` or `--quiet` reads the same in every command's
// --help; where the meaning really differs (calibrate's --out writes a
// cluster, not a plan), the table holds a variant for that command with its
// own text. A different default alone is not a variant of the text.
// tests/cli/check_option_help.py compares every command's --help and fails on
// two texts for one option that are not listed there as intended.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace hetcoll::cli {

// The command's path below `hetcoll`, e.g. "broadcast", "steady reduce".
std::string command_path(const CLI::App* command);

// The --help text of option `name` ("--out") in `command`: the table's help
// (or `command`'s variant), `note`, then "(default: X)" when there is a
// default. std::logic_error for a name the table does not define.
std::string option_help(std::string_view name, const CLI::App* command, std::string_view note = "");

// Adds option `name` to `command` with the table's help, value name and
// check. `names` may add a short form ("--processors,-n"); empty = `name`.
template <class T>
CLI::Option* add_table_option(CLI::App* command, std::string_view name, T& target, const std::string& names = "");
CLI::Option* add_table_flag(CLI::App* command, std::string_view name, bool& target);

// The table's value name and check for `name` on an option added some other
// way (a byte size's transform, a vector); called by add_table_option.
void apply_table_definition(CLI::Option* option, std::string_view name, const CLI::App* command);

template <class T>
CLI::Option* add_table_option(CLI::App* command, std::string_view name, T& target, const std::string& names) {
  CLI::Option* option =
      command->add_option(names.empty() ? std::string(name) : names, target, option_help(name, command));
  apply_table_definition(option, name, command);
  return option;
}

}  // namespace hetcoll::cli
