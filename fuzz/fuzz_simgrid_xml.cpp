// libFuzzer target for the SimGrid XML importer (docs/FUZZING.md).
//
// Any input must either give a platform or throw hetcoll::InputError; any
// other exception, a crash, a sanitizer report or a slow input is a bug. What
// was read is also written as JSON and read back (the CLI's `--out`), and
// turned into the sender-speed view that the makespan planners use; every
// declared route between two hosts must be a path of the graph.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // Small platforms keep every input fast; the host limit itself is tested too.
  hetcoll::SimgridImportOptions options;
  options.max_hosts = 24;
  options.max_elements = 4096;  // topo_parameters can ask for many switches and links
  options.max_vivaldi_members = 64;
  hetcoll::Platform platform;
  try {
    platform = hetcoll::parse_simgrid_xml(text, "fuzz.xml", options);
  } catch (const hetcoll::InputError&) {
    return 0;  // bad input, reported properly
  }
  std::ostringstream written;
  hetcoll::write_platform_json(written, platform);
  // An InputError here escapes on purpose: what was imported must read back.
  hetcoll::LoadedPlatform again = hetcoll::parse_platform_json(written.str(), "round-trip.json");
  if (again.is_cluster() || again.graph().size() != platform.size() ||
      again.graph().edges().size() != platform.edges().size()) {
    std::abort();
  }
  auto hosts = platform.participants();
  if (hosts.size() > 12) hosts.resize(12);  // keeps every input well under the time limit with sanitizers
  for (auto from : hosts) {
    for (auto to : hosts) {
      if (from == to) continue;
      if (auto route = platform.declared_route(from, to)) {
        if (hetcoll::route_problem(platform, from, to, *route)) std::abort();
      }
    }
  }
  try {
    if (platform.participants().size() <= 12) hetcoll::cluster_from_platform(platform, 1e6, "fuzz.xml");
  } catch (const hetcoll::InputError&) {
    // an infinite route time, too many participants: reported properly
  } catch (const hetcoll::NoSolutionError&) {
    // not every pair of hosts is routed: no sender-speed view (exit code 3)
  }
  return 0;
}
