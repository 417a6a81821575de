// netbed_delay: one host's link in scripts/netbed (docs/NETBED.md): holds
// every IP packet of a network namespace for the link's latency and, with
// --rate-mbit, for its serialisation at the link's rate.
//
// Why a program: kernels without the netem qdisc (CONFIG_NET_SCH_NETEM off)
// cannot delay packets with tc; iptables can hand them to user space
// (NFQUEUE), which decides when each one goes on. This program binds queue
// Q over raw netlink (no library), asks for the first 20 bytes of each
// packet (the IPv4 header) and GSO packets whole, and accepts each packet
// when it is due. Packets the host sends (hook output) and receives (hook
// prerouting) are two directions of the link, each a FIFO: with a rate B, a
// packet of w bytes on the wire (IP length + Ethernet headers, per segment
// of a GSO packet) finishes serialisation at f = max(arrival, previous f) +
// w / B and is due at f + latency; without one, at arrival + latency. A
// packet that would wait more than --queue-ms for its link (a full
// buffer) is dropped, as a switch port's queue would. Packets forwarded
// (hook forward: a bridge's WAN port, with bridge-nf-call-iptables) are
// one direction too. Packets are accepted in the order of their due times
// (ties: arrival).
//
// Why the rate here and not tc's tbf: tbf releases held packets from a
// timer in softirq context, which a loaded machine defers to ksoftirqd
// (measured on a 2-core machine with a load of 17: 1 MiB at "100 Mbit/s"
// took 140 ms instead of 88); this program runs at real-time priority
// (scripts/netbed starts it with chrt) and the packets it accepts go
// through the stack in its own context.
//
// Bounded: exits after `--max-seconds` (or on SIGTERM/SIGINT); the kernel
// drops what is still queued when the socket closes. Prints "ready" on
// stdout once bound, so the caller can add the nftables rules after it.
//
// Usage: netbed_delay --queue Q --delay-ms L [--rate-mbit B] [--queue-ms M] --max-seconds T
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

namespace {

volatile sig_atomic_t stop_requested = 0;
void on_signal(int) { stop_requested = 1; }

double now_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Appends one netfilter netlink message (header, nfgenmsg, attributes) to `out`.
class Message {
 public:
  Message(uint16_t type, uint16_t queue) {
    buffer_.resize(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nfgenmsg)));
    auto* header = reinterpret_cast<nlmsghdr*>(buffer_.data());
    header->nlmsg_type = static_cast<uint16_t>((NFNL_SUBSYS_QUEUE << 8) | type);
    header->nlmsg_flags = NLM_F_REQUEST;
    auto* generic = reinterpret_cast<nfgenmsg*>(buffer_.data() + NLMSG_HDRLEN);
    generic->nfgen_family = AF_UNSPEC;
    generic->version = NFNETLINK_V0;
    generic->res_id = htons(queue);
  }
  void attribute(uint16_t type, const void* data, size_t length) {
    size_t at = buffer_.size();
    buffer_.resize(at + NLA_ALIGN(NLA_HDRLEN + length), 0);
    auto* attribute = reinterpret_cast<nlattr*>(buffer_.data() + at);
    attribute->nla_type = type;
    attribute->nla_len = static_cast<uint16_t>(NLA_HDRLEN + length);
    std::memcpy(buffer_.data() + at + NLA_HDRLEN, data, length);
  }
  void append_to(std::vector<char>& out) {
    reinterpret_cast<nlmsghdr*>(buffer_.data())->nlmsg_len = static_cast<uint32_t>(buffer_.size());
    out.insert(out.end(), buffer_.begin(), buffer_.end());
  }

 private:
  std::vector<char> buffer_;
};

bool send_all(int socket_fd, const std::vector<char>& data) {
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  return sendto(socket_fd, data.data(), data.size(), 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) ==
         static_cast<ssize_t>(data.size());
}

struct Held {
  double due;
  uint64_t arrival;
  uint32_t id;  // network byte order, as the kernel gave it
  bool operator>(const Held& other) const { return due != other.due ? due > other.due : arrival > other.arrival; }
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr, "netbed_delay: %s\nusage: netbed_delay --queue Q --delay-ms L [--rate-mbit B] [--queue-ms M] "
               "--max-seconds T\n", problem);
  std::exit(2);
}

double number(const char* text, const char* option, double low, double high) {
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= low && value <= high)) {
    std::fprintf(stderr, "netbed_delay: %s: expected a number in [%g, %g], got '%s'\n", option, low, high, text);
    std::exit(2);
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  int queue = -1;
  double delay = -1, max_seconds = -1, rate = 0, queue_limit = 0.2;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) usage(("option " + arg + " needs a value").c_str());
    const char* value = argv[++i];
    if (arg == "--queue") queue = static_cast<int>(number(value, "--queue", 0, 65535));
    else if (arg == "--delay-ms") delay = number(value, "--delay-ms", 0, 10000) / 1000;
    else if (arg == "--rate-mbit") rate = number(value, "--rate-mbit", 0.001, 100000) * 1e6 / 8;  // bytes/s
    else if (arg == "--queue-ms") queue_limit = number(value, "--queue-ms", 1, 10000) / 1000;
    else if (arg == "--max-seconds") max_seconds = number(value, "--max-seconds", 1, 86400);
    else {
      usage(("unknown option " + arg).c_str());
    }
  }
  if (queue < 0 || delay < 0 || max_seconds < 0) usage("--queue, --delay-ms and --max-seconds are required");

  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
  if (fd < 0) {
    std::perror("netbed_delay: netlink socket");
    return 1;
  }
  int buffer_bytes = 16 << 20, one = 1;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buffer_bytes, sizeof buffer_bytes);
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
    std::perror("netbed_delay: bind");
    return 1;
  }
  {
    std::vector<char> out;
    Message bind_queue(NFQNL_MSG_CONFIG, static_cast<uint16_t>(queue));
    nfqnl_msg_config_cmd command{};
    command.command = NFQNL_CFG_CMD_BIND;
    command.pf = htons(AF_INET);
    bind_queue.attribute(NFQA_CFG_CMD, &command, sizeof command);
    bind_queue.append_to(out);
    Message parameters(NFQNL_MSG_CONFIG, static_cast<uint16_t>(queue));
    nfqnl_msg_config_params copy{};
    copy.copy_range = htonl(20);
    copy.copy_mode = NFQNL_COPY_PACKET;
    parameters.attribute(NFQA_CFG_PARAMS, &copy, sizeof copy);
    uint32_t max_length = htonl(100000);
    parameters.attribute(NFQA_CFG_QUEUE_MAXLEN, &max_length, sizeof max_length);
    uint32_t flags = htonl(NFQA_CFG_F_GSO), mask = htonl(NFQA_CFG_F_GSO);
    parameters.attribute(NFQA_CFG_FLAGS, &flags, sizeof flags);
    parameters.attribute(NFQA_CFG_MASK, &mask, sizeof mask);
    parameters.append_to(out);
    if (!send_all(fd, out)) {
      std::perror("netbed_delay: binding the queue");
      return 1;
    }
  }
  std::printf("ready\n");
  std::fflush(stdout);

  std::priority_queue<Held, std::vector<Held>, std::greater<Held>> held;
  double link_free_at[2] = {0, 0};  // [0]: what the host sends, [1]: what it receives
  uint64_t arrivals = 0, drops = 0;
  double longest_wait = 0;  // for the link, seconds
  const double end = now_seconds() + max_seconds;
  std::vector<char> receive(1 << 20);
  while (!stop_requested && now_seconds() < end) {
    double now = now_seconds();
    std::vector<char> verdicts;
    while (!held.empty() && held.top().due <= now) {
      Message verdict(NFQNL_MSG_VERDICT, static_cast<uint16_t>(queue));
      nfqnl_msg_verdict_hdr header{};
      header.verdict = htonl(NF_ACCEPT);
      header.id = held.top().id;
      verdict.attribute(NFQA_VERDICT_HDR, &header, sizeof header);
      verdict.append_to(verdicts);
      held.pop();
      if (verdicts.size() > 60000) {
        send_all(fd, verdicts);
        verdicts.clear();
      }
    }
    if (!verdicts.empty()) send_all(fd, verdicts);
    double wait = held.empty() ? 0.1 : std::max(0.0, held.top().due - now_seconds());
    wait = std::min(wait, std::max(0.0, end - now_seconds()));
    timespec timeout{static_cast<time_t>(wait), static_cast<long>((wait - static_cast<double>(static_cast<time_t>(wait))) * 1e9)};
    pollfd poll_fd{fd, POLLIN, 0};
    int ready = ppoll(&poll_fd, 1, &timeout, nullptr);
    if (ready < 0 && errno != EINTR) {
      std::perror("netbed_delay: ppoll");
      return 1;
    }
    if (ready <= 0) continue;
    for (int burst = 0; burst < 10000; ++burst) {
      ssize_t length = recv(fd, receive.data(), receive.size(), MSG_DONTWAIT);
      if (length <= 0) break;
      double arrived = now_seconds();
      for (auto* header = reinterpret_cast<nlmsghdr*>(receive.data()); NLMSG_OK(header, static_cast<unsigned>(length));
           header = NLMSG_NEXT(header, length)) {
        if (header->nlmsg_type == NLMSG_ERROR) {
          auto* error = static_cast<nlmsgerr*>(NLMSG_DATA(header));
          if (error->error != 0) std::fprintf(stderr, "netbed_delay: kernel: %s\n", std::strerror(-error->error));
          continue;
        }
        if ((header->nlmsg_type & 0xff) != NFQNL_MSG_PACKET) continue;
        uint32_t id = 0;
        int hook = -1;
        uint32_t captured_length = 0;
        uint16_t ip_length = 0;
        bool have_id = false;
        char* attributes = static_cast<char*>(NLMSG_DATA(header)) + NLMSG_ALIGN(sizeof(nfgenmsg));
        int remaining = static_cast<int>(header->nlmsg_len) - static_cast<int>(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nfgenmsg)));
        for (auto* attribute = reinterpret_cast<nlattr*>(attributes);
             remaining >= static_cast<int>(NLA_HDRLEN) && attribute->nla_len >= NLA_HDRLEN &&
             attribute->nla_len <= remaining;
             remaining -= NLA_ALIGN(attribute->nla_len),
                  attribute = reinterpret_cast<nlattr*>(reinterpret_cast<char*>(attribute) + NLA_ALIGN(attribute->nla_len))) {
          char* data = reinterpret_cast<char*>(attribute) + NLA_HDRLEN;
          int type = attribute->nla_type & NLA_TYPE_MASK;
          if (type == NFQA_PACKET_HDR) {
            nfqnl_msg_packet_hdr packet{};
            std::memcpy(&packet, data, sizeof packet);
            id = packet.packet_id;
            hook = packet.hook;
            have_id = true;
          } else if (type == NFQA_PAYLOAD && attribute->nla_len >= NLA_HDRLEN + 20) {
            std::memcpy(&ip_length, data + 2, sizeof ip_length);
            captured_length = attribute->nla_len - NLA_HDRLEN;
          } else if (type == NFQA_CAP_LEN && attribute->nla_len >= NLA_HDRLEN + 4) {
            std::memcpy(&captured_length, data, sizeof captured_length);
            captured_length = ntohl(captured_length);
          }
        }
        if (!have_id) continue;
        double due = arrived;
        if (rate > 0) {
          // Bytes on the wire: the packet (GSO: one segment of at most 1500
          // bytes each, every one with its own 52 bytes of IP and TCP headers)
          // plus 14 bytes of Ethernet header per segment.
          double bytes = std::max<double>(ntohs(ip_length), captured_length);
          double segments = std::max(1.0, std::ceil((bytes - 52) / 1448));
          double wire = bytes + (segments - 1) * 52 + segments * 14;
          double& free_at = link_free_at[hook == NF_INET_LOCAL_OUT ? 0 : 1];
          double start = std::max(arrived, free_at);
          longest_wait = std::max(longest_wait, std::min(start - arrived, queue_limit));
          if (start - arrived > queue_limit) {
            ++drops;
            Message verdict(NFQNL_MSG_VERDICT, static_cast<uint16_t>(queue));
            nfqnl_msg_verdict_hdr header{htonl(NF_DROP), id};
            verdict.attribute(NFQA_VERDICT_HDR, &header, sizeof header);
            std::vector<char> out;
            verdict.append_to(out);
            send_all(fd, out);
            continue;
          }
          free_at = start + wire / rate;
          due = free_at;
        }
        due += delay;
        held.push(Held{due, arrivals++, id});
      }
    }
  }
  close(fd);
  std::fprintf(stderr, "netbed_delay: %llu packets, %llu dropped (queue over %g ms), longest wait for the link %.1f ms\n",
               static_cast<unsigned long long>(arrivals + drops), static_cast<unsigned long long>(drops),
               queue_limit * 1e3, longest_wait * 1e3);
  return 0;
}
