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
// write that continues a partial or refused one (the socket took fewer
// bytes than offered) is charged neither the latency again nor the bytes
// already held for.
//
// Receives share the rank's link, as on scripts/nic-platform's SimGrid
// platforms (per host an up link of bandwidth B / f and latency f x L, a
// down link of bandwidth B): a message takes the link for bytes / B, and
// messages from different peers that reach a rank at once are delivered one
// after the other. A message alone is not slowed (its bytes flowed during
// its sender's hold). A message is the run of reads from one socket with
// gaps shorter than half the latency (at least 1 ms) between them; it is
// delayed by the time other messages used the link while its own bytes
// flowed (receive() below), and each read is held until then. Without this, concurrent
// receives would be free and a flat tree would reduce any vector in one
// send's time. HETCOLL_EMULATE_RECEIVE=0 turns the receive side off.
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
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Per socket: the send side's state of the message being written, and the
// receive side's state of the message being read.
struct SocketState {
  bool sending = false;       // a write of this message was partial or refused
  size_t held_bytes = 0;      // bytes held for and not yet written
  bool receiving = false;     // a message is being read
  double first_read = 0;      // when its first bytes were read
  double last_read = 0;       // when its last bytes were read
  size_t read_bytes = 0;      // its bytes so far
  std::uint64_t message = 0;  // its number on the link
};

// A message's time on the receive link: [end - bytes / B, end].
struct LinkUse {
  std::uint64_t message = 0;
  double start = 0;
  double end = 0;
};

struct Emulation {
  bool active = false;
  double latency = 0;
  double bandwidth = 1;
  double factor = 1;
  bool spin = false;          // HETCOLL_EMULATE_SPIN=1: hold by spinning, not sleeping
  bool receive_link = true;   // HETCOLL_EMULATE_RECEIVE=0: receives are free
  std::vector<LinkUse> link;  // the receive link's recent messages
  std::uint64_t messages = 0;
  std::vector<SocketState> sockets;

  SocketState& socket(int fd) {
    if (static_cast<size_t>(fd) >= sockets.size()) sockets.resize(static_cast<size_t>(fd) + 1);
    return sockets[static_cast<size_t>(fd)];
  }
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
    const char* receive = std::getenv("HETCOLL_EMULATE_RECEIVE");
    e.receive_link = !(receive && std::string(receive) == "0");
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

double now_seconds() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Sleeps until `end` on the monotonic clock, or spins (HETCOLL_EMULATE_SPIN=1:
// busy, as a CPU that processes its sends is; wakes on time even when the
// machine is loaded, where a sleeping process may wait for a core).
void wait_until(double end) {
  if (end <= now_seconds()) return;
  struct timespec until;
  until.tv_sec = static_cast<time_t>(end);
  until.tv_nsec = std::min(999'999'999L, static_cast<long>((end - static_cast<double>(until.tv_sec)) * 1e9));
  if (emulation().spin) {
    while (now_seconds() < end) {
    }
    return;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) != 0) {
  }
}

// Before a write of `bytes`: the rank of factor f holds them for
// f x (latency + bytes / bandwidth), the latency once per message and the
// bytes once, however many writes the socket needs to take them.
void hold(int fd, size_t bytes) {
  auto& e = emulation();
  if (!e.active || bytes == 0 || fd < 0 || !is_tcp_socket(fd)) return;
  auto& socket = e.socket(fd);
  size_t new_bytes = bytes > socket.held_bytes ? bytes - socket.held_bytes : 0;
  double seconds = e.factor * ((socket.sending ? 0 : e.latency) + static_cast<double>(new_bytes) / e.bandwidth);
  socket.held_bytes = std::max(socket.held_bytes, bytes);
  wait_until(now_seconds() + seconds);
}

// After the write: what the socket took is no longer held for; a message
// continues while the socket takes fewer bytes than offered.
void note_written(int fd, size_t offered, ssize_t written) {
  auto& e = emulation();
  if (!e.active || fd < 0 || static_cast<size_t>(fd) >= e.sockets.size()) return;
  auto& socket = e.sockets[static_cast<size_t>(fd)];
  size_t taken = written > 0 ? static_cast<size_t>(written) : 0;
  socket.held_bytes = socket.held_bytes > taken ? socket.held_bytes - taken : 0;
  socket.sending = taken < offered;
  if (!socket.sending) socket.held_bytes = 0;
}

// After a read of `bytes`: holds it until its message's end on the link.
// The message flowed at bandwidth B until it arrived, so alone it is on the
// link during [first read - bytes / B, first read]; every other message on
// the link in that window delays it by their overlap, and the window grows
// with the delay (a fixed point: three messages arriving at once end one,
// two and three link times after their bytes began to flow).
void receive(int fd, ssize_t bytes) {
  auto& e = emulation();
  if (!e.active || !e.receive_link || bytes <= 0 || fd < 0 || !is_tcp_socket(fd)) return;
  auto& socket = e.socket(fd);
  const double now = now_seconds();
  const double gap = std::max(0.5 * e.latency, 1e-3);
  if (!socket.receiving || now - socket.last_read > gap) {
    socket.receiving = true;
    socket.first_read = now;
    socket.read_bytes = 0;
    socket.message = ++e.messages;
  }
  socket.read_bytes += static_cast<size_t>(bytes);
  const double transfer = static_cast<double>(socket.read_bytes) / e.bandwidth;
  const double start = socket.first_read - transfer;
  double end = socket.first_read;
  for (int round = 0; round < 64; ++round) {
    double overlap = 0;
    for (const auto& use : e.link) {
      if (use.message == socket.message) continue;
      overlap += std::max(0.0, std::min(use.end, end) - std::max(use.start, start));
    }
    const double next = socket.first_read + overlap;
    if (next <= end + 1e-9) break;
    end = next;
  }
  // Record the message's link use; forget what ended long ago.
  std::erase_if(e.link, [&](const LinkUse& use) { return use.message == socket.message || use.end < now - 10.0; });
  if (e.link.size() >= 4096) e.link.erase(e.link.begin(), e.link.begin() + 1024);
  e.link.push_back({socket.message, end - transfer, end});
  wait_until(end);
  socket.last_read = now_seconds();
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
  note_written(fd, bytes, written);
  return written;
}

ssize_t write(int fd, const void* buffer, size_t bytes) {
  static auto next = real<ssize_t (*)(int, const void*, size_t)>("write");
  hold(fd, bytes);
  ssize_t written = next(fd, buffer, bytes);
  note_written(fd, bytes, written);
  return written;
}

ssize_t send(int fd, const void* buffer, size_t bytes, int flags) {
  static auto next = real<ssize_t (*)(int, const void*, size_t, int)>("send");
  hold(fd, bytes);
  ssize_t written = next(fd, buffer, bytes, flags);
  note_written(fd, bytes, written);
  return written;
}

ssize_t sendmsg(int fd, const struct msghdr* message, int flags) {
  static auto next = real<ssize_t (*)(int, const struct msghdr*, int)>("sendmsg");
  size_t bytes = 0;
  for (size_t i = 0; i < message->msg_iovlen; ++i) bytes += message->msg_iov[i].iov_len;
  hold(fd, bytes);
  ssize_t written = next(fd, message, flags);
  note_written(fd, bytes, written);
  return written;
}

ssize_t readv(int fd, const struct iovec* vector, int count) {
  static auto next = real<ssize_t (*)(int, const struct iovec*, int)>("readv");
  ssize_t got = next(fd, vector, count);
  receive(fd, got);
  return got;
}

ssize_t read(int fd, void* buffer, size_t bytes) {
  static auto next = real<ssize_t (*)(int, void*, size_t)>("read");
  ssize_t got = next(fd, buffer, bytes);
  receive(fd, got);
  return got;
}

ssize_t recv(int fd, void* buffer, size_t bytes, int flags) {
  static auto next = real<ssize_t (*)(int, void*, size_t, int)>("recv");
  ssize_t got = next(fd, buffer, bytes, flags);
  if (!(flags & MSG_PEEK)) receive(fd, got);
  return got;
}

ssize_t recvmsg(int fd, struct msghdr* message, int flags) {
  static auto next = real<ssize_t (*)(int, struct msghdr*, int)>("recvmsg");
  ssize_t got = next(fd, message, flags);
  if (!(flags & MSG_PEEK)) receive(fd, got);
  return got;
}

}  // extern "C"
