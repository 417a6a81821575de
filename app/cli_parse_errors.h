// Plain messages for command-line mistakes: a mistyped command or option gets
// the nearest known name ("did you mean broadcast?"), a repeated option says
// so, and everything else keeps CLI11's message. Presentation only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace hetcoll::cli {

// The known name closest to `typed` (Damerau-Levenshtein distance, at most
// a third of the name's length, at least 2), or "" when none is close.
std::string nearest_name(std::string_view typed, const std::vector<std::string>& known);

// Prints the message for a parse error of `app` on `arguments` (argv
// without the program name) to stderr, ending with how to get help.
void report_parse_error(const CLI::App& app, const CLI::ParseError& error, const std::vector<std::string>& arguments);

}  // namespace hetcoll::cli
