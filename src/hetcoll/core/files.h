// Writing files so that every failure is reported (a full disk, /dev/full,
// a missing directory) and no run leaves a partial file behind: a regular
// file is written to a temporary file in the same directory (".NAME.XXXXXX"),
// flushed, closed and renamed over the final path, so the path holds either
// its old content or the complete new one — also when the run is killed
// (the temporary file is removed on SIGINT, SIGTERM and SIGHUP once the
// command installs remove_partial_output_on_signals()). Paths that exist and
// are not regular files (/dev/stdout, /dev/full, a pipe) are written in
// place. A failure is an InputError naming the path (exit code 2).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace hetcoll {

// Writes `text` to `path` (replacing it). `what` names the option or role
// in the message, e.g. "--gantt".
void write_text_file(const std::string& path, std::string_view text, std::string_view what = "output file");

// Opens a temporary file next to `path`, lets `write` stream into it, then
// flushes, closes and renames it to `path`.
void write_file_with(const std::string& path, const std::function<void(std::ostream&)>& write,
                     std::string_view what = "output file");

// For files made by another program (rsvg-convert): `produce` creates the
// file at the temporary path it is given (and throws when it fails); the
// result is then renamed to `path`.
void replace_file_with(const std::string& path, const std::function<void(const std::string& temporary)>& produce,
                       std::string_view what = "output file");

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the
// temporary file being written, then die of the signal as before. For
// programs (the hetcoll command), not for the library's callers.
void remove_partial_output_on_signals();

// Flushes `out` (e.g. std::cout) and throws when it failed; `name` is what
// the message calls it ("standard output").
void check_stream(std::ostream& out, std::string_view name);

}  // namespace hetcoll
