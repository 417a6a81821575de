// libnetbed_idle.so: makes an idle MPI rank sleep instead of spin, for
// scripts/netbed (docs/NETBED.md), preloaded into every rank.
//
// Why: scripts/netbed runs one rank per emulated host, eight of them on a
// machine of two cores. Open MPI's TCP transport waits by polling; with
// --mca mpi_yield_when_idle 1 each empty poll calls sched_yield(), which
// leaves the rank runnable, so eight polling ranks (and whatever else the
// machine runs) share the cores and a rank whose message has arrived waits
// its turn: milliseconds on a loaded machine, more than the links' own
// latencies. This library replaces sched_yield() by a sleep of
// NETBED_IDLE_SLEEP_US microseconds (default 50; timer slack set to 1 ns),
// so an idle rank gives its core up and, woken, is scheduled at once. A
// message then waits at most that long for its rank to look, and the ranks
// together use a fraction of a core. It changes no MPI semantics: a rank
// that yields has nothing to do.
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <cstdlib>

namespace {

long sleep_nanoseconds = 50000;

__attribute__((constructor)) void configure() {
  if (const char* text = std::getenv("NETBED_IDLE_SLEEP_US")) {
    char* end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && value >= 0 && value <= 100000) sleep_nanoseconds = value * 1000;
  }
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

}  // namespace

extern "C" int sched_yield(void) {
  timespec pause{0, sleep_nanoseconds};
  nanosleep(&pause, nullptr);
  return 0;
}
