// libFuzzer target for the JSON platform reader (docs/FUZZING.md).
//
// Any input must either give a platform or throw hetcoll::InputError; any
// other exception, a crash, a sanitizer report or a slow input is a bug. A
// platform that was read must also survive being written back and read again
// with the same size, since `hetcoll --out` writes what the reader accepted.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"

namespace {

void check_round_trip(const hetcoll::LoadedPlatform& loaded) {
  std::ostringstream written;
  if (loaded.is_cluster()) {
    hetcoll::write_cluster_json(written, loaded.cluster());
  } else {
    hetcoll::write_platform_json(written, loaded.graph());
  }
  // An InputError here escapes on purpose: what was read must read back.
  hetcoll::LoadedPlatform again = hetcoll::parse_platform_json(written.str(), "round-trip.json");
  bool same_size = loaded.is_cluster() ? again.is_cluster() && again.cluster().size() == loaded.cluster().size()
                                       : !again.is_cluster() && again.graph().size() == loaded.graph().size() &&
                                             again.graph().edges().size() == loaded.graph().edges().size();
  if (!same_size) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hetcoll::LoadedPlatform loaded;
  try {
    loaded = hetcoll::parse_platform_json(text, "fuzz.json");
  } catch (const hetcoll::InputError&) {
    return 0;  // bad input, reported properly
  }
  check_round_trip(loaded);
  return 0;
}
