#include "cli_parse_errors.h"

#include <algorithm>
#include <iostream>
#include <regex>

#include <fmt/format.h>

namespace hetcoll::cli {

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions
// and swaps of two neighbouring letters ("brodcast", "broadcsat") cost 1.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// The command the arguments select, following nested subcommands
// ("generate cluster"), and the first word that is not a command where one
// was expected.
struct CommandPosition {
  const CLI::App* command = nullptr;
  std::string path;          // "hetcoll generate"
  std::string unknown_word;  // where a command name was expected
  std::size_t first_argument = 0;
};

CommandPosition locate_command(const CLI::App& app, const std::vector<std::string>& arguments) {
  CommandPosition position{&app, app.get_name(), "", 0};
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& word = arguments[i];
    if (word.empty() || word[0] == '-') break;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : position.command->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->check_name(word)) next = sub;
    }
    if (!next) {
      if (position.command->get_require_subcommand_min() > 0) position.unknown_word = word;
      break;
    }
    position.command = next;
    position.path += " " + next->get_name();
    position.first_argument = i + 1;
  }
  return position;
}

std::vector<std::string> command_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
  std::string nearest = nearest_name(typed, known);
  return nearest.empty() ? "" : fmt::format("; did you mean {}?", nearest);
}

// A word that is no command here but names one a level further down
// ("hetcoll scatter" -> "hetcoll steady scatter"): that command's full path.
std::string nested_command(const CLI::App& command, const std::string& path, const std::string& word) {
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    for (const CLI::App* nested : sub->get_subcommands([](const CLI::App*) { return true; })) {
      if (nested->check_name(word)) return fmt::format("{} {} {}", path, sub->get_name(), nested->get_name());
    }
  }
  return "";
}

}  // namespace

std::string nearest_name(std::string_view typed, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, typed.size() / 3) + 1;
  for (const auto& name : known) {
    std::size_t distance = edit_distance(typed, name);
    if (distance < best_distance) {
      best_distance = distance;
      best = name;
    }
  }
  return best;
}

void report_parse_error(const CLI::App& app, const CLI::ParseError& error, const std::vector<std::string>& arguments) {
  const CommandPosition position = locate_command(app, arguments);
  const std::string help_hint = fmt::format("Run `{} --help` for the {}.", position.path,
                                            !position.unknown_word.empty() ? "commands" : "options");
  if (!position.unknown_word.empty()) {
    const std::string nested = nested_command(*position.command, position.path, position.unknown_word);
    std::cerr << fmt::format("{}: unknown command \"{}\"{}\n{}\n", position.path, position.unknown_word,
                             nested.empty() ? did_you_mean(position.unknown_word, command_names(*position.command))
                                            : fmt::format("; did you mean `{}`?", nested),
                             help_hint);
    return;
  }
  // Options the command does not know ("--sorce"): name each, with the nearest known one.
  std::string unknown;
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    for (std::size_t i = position.first_argument; i < arguments.size(); ++i) {
      const std::string& word = arguments[i];
      if (word.size() < 2 || word[0] != '-' || (word[1] >= '0' && word[1] <= '9') || word[1] == '.') continue;
      const std::string name = word.substr(0, word.find('='));
      if (position.command->get_option_no_throw(name)) continue;
      unknown += fmt::format("{}: unknown option {}{}\n", position.path, name,
                             did_you_mean(name, option_names(*position.command)));
    }
  }
  if (!unknown.empty()) {
    std::cerr << unknown << help_hint << "\n";
    return;
  }
  // "--source: At Most 1 required but received 2" (CLI11) for a repeated option.
  static const std::regex repeated(R"(^(\S+): At Most 1 required but received (\d+)$)");
  std::smatch match;
  const std::string message = error.what();
  if (std::regex_match(message, match, repeated)) {
    std::cerr << fmt::format("{}: {} given {} times; give it once\n{}\n", position.path, match[1].str(),
                             match[2].str(), help_hint);
    return;
  }
  // CLI::PositiveNumber / NonNegativeNumber say "Value -1 not in range
  // 0.000000 to 1797693...(300 digits)".
  static const std::regex open_range(R"(^(\S+): Value (\S+) not in range (-?[0-9.e+-]+) to [0-9]{30,}\.0+$)");
  if (std::regex_match(message, match, open_range)) {
    // Only a positive-number option refuses 0; both refuse negative values.
    const bool negative = !match[2].str().empty() && match[2].str()[0] == '-';
    std::cerr << fmt::format("{}: {}: must be {}, got {}\n{}\n", position.path, match[1].str(),
                             negative ? "a number, not negative" : "greater than 0", match[2].str(), help_hint);
    return;
  }
  std::cerr << fmt::format("{}: {}\n{}\n", position.path, message, help_hint);
}

}  // namespace hetcoll::cli
