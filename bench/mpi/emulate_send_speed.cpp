// libhetcoll_emulate.so: heterogeneous send speeds for MPI ranks on one
// machine (LD_PRELOAD), for hetcoll's plans and the MPI library's own
// algorithms alike.
//
// Each rank of sender-speed factor f holds every message it sends for
//     f x (latency + bytes / bandwidth)
// before the message leaves: the sender-speed model's t (Liu, Kuo, Wang
// 2009, sec. 2), as on a cluster whose slow machines process their sends
// slowly. It works below MPI, on the socket writes of Open MPI's TCP
// transport (run with --mca btl tcp,self --mca btl_tcp_if_include lo, so
// every message between ranks is a socket write), so Open MPI's tuned
// collectives are slowed exactly like hetcoll's point-to-point messages. A
// write that continues a partial one (the socket took fewer bytes than
// offered) is charged its bytes only, not the latency again.
//
// Environment: HETCOLL_EMULATE="LATENCY_S,BANDWIDTH_BPS,F0,F1,..." (factor
// of world rank r = F_r; ranks beyond the list use the last factor), the
// rank from OMPI_COMM_WORLD_RANK (or PMI_RANK). Unset: no delay.
// Delays sleep (clock_nanosleep with a 1 ns timer slack), so waiting ranks
// leave the cores to the others; HETCOLL_EMULATE_SPIN=1 spins instead, for
// a loaded machine where a sleeping process may wait milliseconds for a core.
#include <dlfcn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Emulation {
  bool active = false;
  double latency = 0;
  double bandwidth = 1;
  double factor = 1;
  bool spin = false;  // HETCOLL_EMULATE_SPIN=1: hold by spinning, not sleeping
  std::vector<char> partial;  // per fd: the last write was partial
};

Emulation& emulation() {
  static Emulation state = [] {
    Emulation e;
    const char* spec = std::getenv("HETCOLL_EMULATE");
    const char* rank_text = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank_text) rank_text = std::getenv("PMI_RANK");
    if (!spec || !rank_text) return e;
    std::vector<double> values;
    std::string text(spec);
    size_t start = 0;
    while (start <= text.size()) {
      auto comma = text.find(',', start);
      values.push_back(std::strtod(text.substr(start, comma - start).c_str(), nullptr));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (values.size() < 3 || values[1] <= 0) return e;
    long rank = std::strtol(rank_text, nullptr, 10);
    e.latency = values[0];
    e.bandwidth = values[1];
    size_t index = 2 + static_cast<size_t>(rank);
    e.factor = index < values.size() ? values[index] : values.back();
    e.active = true;
    const char* spin = std::getenv("HETCOLL_EMULATE_SPIN");
    e.spin = spin && std::string(spin) == "1";
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    return e;
  }();
  return state;
}

// TCP sockets only: Open MPI's transport between ranks. Unix-domain
// sockets and pipes (the event loop's wake-ups, the launcher) are left alone.
bool is_tcp_socket(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISSOCK(info.st_mode)) return false;
  struct sockaddr_storage address;
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<struct sockaddr*>(&address), &length) != 0) return false;
  if (address.ss_family != AF_INET && address.ss_family != AF_INET6) return false;
  int type = 0;
  socklen_t type_length = sizeof type;
  return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_length) == 0 && type == SOCK_STREAM;
}

void hold(int fd, size_t bytes) {
  auto& e = emulation();
  if (!e.active || bytes == 0 || fd < 0 || !is_tcp_socket(fd)) return;
  if (static_cast<size_t>(fd) >= e.partial.size()) e.partial.resize(static_cast<size_t>(fd) + 1, 0);
  double seconds = e.factor * ((e.partial[static_cast<size_t>(fd)] ? 0 : e.latency) + static_cast<double>(bytes) / e.bandwidth);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double end = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 + seconds;
  struct timespec until;
  until.tv_sec = static_cast<time_t>(end);
  until.tv_nsec = std::min(999'999'999L, static_cast<long>((end - static_cast<double>(until.tv_sec)) * 1e9));
  if (e.spin) {
    // Busy, as a CPU that processes its sends is; wakes on time even when
    // the machine is loaded (a sleeping process may wait for a core).
    do {
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec < until.tv_sec || (now.tv_sec == until.tv_sec && now.tv_nsec < until.tv_nsec));
    return;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) != 0) {
  }
}

void note_result(int fd, size_t offered, ssize_t written) {
  auto& e = emulation();
  if (!e.active || fd < 0 || static_cast<size_t>(fd) >= e.partial.size()) return;
  e.partial[static_cast<size_t>(fd)] = written >= 0 && static_cast<size_t>(written) < offered ? 1 : 0;
}

template <typename Function>
Function real(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

ssize_t writev(int fd, const struct iovec* vector, int count) {
  static auto next = real<ssize_t (*)(int, const struct iovec*, int)>("writev");
  size_t bytes = 0;
  for (int i = 0; i < count; ++i) bytes += vector[i].iov_len;
  hold(fd, bytes);
  ssize_t written = next(fd, vector, count);
  note_result(fd, bytes, written);
  return written;
}

ssize_t write(int fd, const void* buffer, size_t bytes) {
  static auto next = real<ssize_t (*)(int, const void*, size_t)>("write");
  hold(fd, bytes);
  ssize_t written = next(fd, buffer, bytes);
  note_result(fd, bytes, written);
  return written;
}

ssize_t send(int fd, const void* buffer, size_t bytes, int flags) {
  static auto next = real<ssize_t (*)(int, const void*, size_t, int)>("send");
  hold(fd, bytes);
  ssize_t written = next(fd, buffer, bytes, flags);
  note_result(fd, bytes, written);
  return written;
}

ssize_t sendmsg(int fd, const struct msghdr* message, int flags) {
  static auto next = real<ssize_t (*)(int, const struct msghdr*, int)>("sendmsg");
  size_t bytes = 0;
  for (size_t i = 0; i < message->msg_iovlen; ++i) bytes += message->msg_iov[i].iov_len;
  hold(fd, bytes);
  ssize_t written = next(fd, message, flags);
  note_result(fd, bytes, written);
  return written;
}

}  // extern "C"
