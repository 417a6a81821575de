#include "hetcoll/core/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

[[noreturn]] void fail(std::string_view what, const std::string& path, std::string_view verb) {
  const int error = errno;
  throw InputError(fmt::format("{}: cannot {} \"{}\"{}", what, verb, path,
                               error ? fmt::format(": {}", std::strerror(error)) : std::string()));
}

}  // namespace

void write_file_with(const std::string& path, const std::function<void(std::ostream&)>& write, std::string_view what) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(what, path, "open for writing");
  write(out);
  errno = 0;
  out.flush();
  if (!out) fail(what, path, "write");
  out.close();
  if (!out) fail(what, path, "write");
}

void write_text_file(const std::string& path, std::string_view text, std::string_view what) {
  write_file_with(path, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); },
                  what);
}

void check_stream(std::ostream& out, std::string_view name) {
  errno = 0;
  out.flush();
  if (!out) {
    const int error = errno;
    throw InputError(fmt::format("cannot write to {}{}", name, error ? fmt::format(": {}", std::strerror(error)) : ""));
  }
}

}  // namespace hetcoll
