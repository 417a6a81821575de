// Writing files so that every failure is reported (a full disk, /dev/full,
// a missing directory): the stream is flushed and closed before success is
// claimed, and a failure is an InputError naming the path (exit code 2).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace hetcoll {

// Writes `text` to `path` (replacing it). `what` names the option or role
// in the message, e.g. "--gantt".
void write_text_file(const std::string& path, std::string_view text, std::string_view what = "output file");

// Opens `path`, lets `write` stream into it, then flushes and closes it.
void write_file_with(const std::string& path, const std::function<void(std::ostream&)>& write,
                     std::string_view what = "output file");

// Flushes `out` (e.g. std::cout) and throws when it failed; `name` is what
// the message calls it ("standard output").
void check_stream(std::ostream& out, std::string_view name);

}  // namespace hetcoll
