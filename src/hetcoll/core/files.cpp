#include "hetcoll/core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

[[noreturn]] void fail(std::string_view what, const std::string& path, std::string_view verb, int error) {
  throw InputError(fmt::format("{}: cannot {} \"{}\"{}", what, verb, path,
                               error ? fmt::format(": {}", std::strerror(error)) : std::string()));
}

// The temporary files being written (a picture's SVG inside its PNG's),
// for the signal handlers: fixed buffers (no allocation in a handler), each
// published by an atomic flag.
constexpr int kPendingSlots = 4;
char pending_path[kPendingSlots][4096];
std::atomic<bool> pending[kPendingSlots];

void remove_pending_and_die(int signal_number) {
  for (int slot = 0; slot < kPendingSlots; ++slot) {
    if (pending[slot].load()) unlink(pending_path[slot]);
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

bool is_existing_non_regular(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
}

// Creates ".NAME.XXXXXX" next to `path`, readable as a new file would be.
std::string make_temporary(const std::string& path, std::string_view what) {
  const std::size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temporary = directory + "." + name + ".XXXXXX";
  if (temporary.size() >= sizeof pending_path[0]) fail(what, path, "open for writing", ENAMETOOLONG);
  const int fd = mkstemp(temporary.data());
  if (fd < 0) fail(what, path, "open for writing", errno);
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  close(fd);
  for (int slot = 0; slot < kPendingSlots; ++slot) {
    if (pending[slot].load()) continue;
    std::memcpy(pending_path[slot], temporary.c_str(), temporary.size() + 1);
    pending[slot].store(true);
    break;
  }
  return temporary;
}

void forget_temporary(const std::string& temporary, bool remove) {
  for (int slot = 0; slot < kPendingSlots; ++slot) {
    if (pending[slot].load() && temporary == pending_path[slot]) pending[slot].store(false);
  }
  if (remove) unlink(temporary.c_str());
}

void write_stream(const std::string& path, const std::string& shown_path,
                  const std::function<void(std::ostream&)>& write, std::string_view what) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(what, shown_path, "open for writing", errno);
  write(out);
  errno = 0;
  out.flush();
  if (!out) fail(what, shown_path, "write", errno);
  out.close();
  if (!out) fail(what, shown_path, "write", errno);
}

}  // namespace

void replace_file_with(const std::string& path, const std::function<void(const std::string& temporary)>& produce,
                       std::string_view what) {
  const std::string temporary = make_temporary(path, what);
  try {
    produce(temporary);
  } catch (...) {
    forget_temporary(temporary, true);
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    forget_temporary(temporary, true);
    fail(what, path, "write", error);
  }
  forget_temporary(temporary, false);
}

void write_file_with(const std::string& path, const std::function<void(std::ostream&)>& write, std::string_view what) {
  if (is_existing_non_regular(path)) {
    write_stream(path, path, write, what);
    return;
  }
  replace_file_with(path, [&](const std::string& temporary) { write_stream(temporary, path, write, what); }, what);
}

void write_text_file(const std::string& path, std::string_view text, std::string_view what) {
  write_file_with(path, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); },
                  what);
}

void remove_partial_output_on_signals() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal_number, remove_pending_and_die);
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
