// Prints SimGrid's own routes between hosts of a platform file: the golden
// data that tests/simgrid_routes_test.cpp compares hetcoll's import with.
// Built and run by scripts/simgrid-golden (needs libsimgrid-dev); not part of
// the build.
//
// Output: one line per ordered pair of hosts, "src<TAB>dst<TAB>latency<TAB>
// link,link,...", hosts in the platform's order. With more than
// `max_hosts` hosts, only pairs among every k-th host are printed.
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  simgrid::s4u::Engine engine(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s platform.xml [max_hosts]\n", argv[0]);
    return 2;
  }
  engine.load_platform(argv[1]);
  std::size_t max_hosts = argc > 2 ? std::stoul(argv[2]) : 40;
  std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
  std::size_t step = hosts.size() > max_hosts ? (hosts.size() + max_hosts - 1) / max_hosts : 1;
  for (std::size_t a = 0; a < hosts.size(); a += step) {
    for (std::size_t b = 0; b < hosts.size(); b += step) {
      if (a == b) continue;
      std::vector<simgrid::s4u::Link*> links;
      double latency = 0;
      hosts[a]->route_to(hosts[b], links, &latency);
      std::string names;
      for (const auto* link : links) {
        if (!names.empty()) names += ',';
        names += link->get_name();
      }
      std::printf("%s\t%s\t%.17g\t%s\n", hosts[a]->get_cname(), hosts[b]->get_cname(), latency, names.c_str());
    }
  }
  return 0;
}
