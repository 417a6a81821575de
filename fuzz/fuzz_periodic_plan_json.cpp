// libFuzzer target for the steady-state plan reader and its verifier
// (docs/FUZZING.md): what `hetcoll validate --plan FILE` and `hetcoll
// simulate --plan FILE` do with a periodic plan file (steady scatter,
// gossip, reduce and broadcast; messages split across slots or whole).
//
// The platform is fixed (a, b, c, d with four links, costs 1 to 3). Any
// input must either give a plan or throw hetcoll::InputError; a plan that
// was read must then go through verify_periodic_plan() and be written back
// without crashing, whatever it says.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/verify/verify_periodic.h"

namespace {

const hetcoll::Platform& fuzz_platform() {
  static const hetcoll::Platform platform =
      hetcoll::parse_platform_json(
          R"({"model": "graph", "symmetric": true, "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}],
              "edges": [{"from": "a", "to": "b", "cost": 1}, {"from": "a", "to": "c", "cost": 2},
                        {"from": "b", "to": "d", "cost": 3}, {"from": "c", "to": "d", "cost": 1}]})",
          "fuzz-platform.json")
          .graph();
  return platform;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hetcoll::Platform& platform = fuzz_platform();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!hetcoll::looks_like_periodic_plan(text)) return 0;  // validate reads it as a makespan plan (fuzz_plan_json)
  hetcoll::PeriodicPlan plan;
  try {
    plan = hetcoll::parse_periodic_plan_json(text, platform, "fuzz-periodic-plan.json");
  } catch (const hetcoll::InputError&) {
    return 0;  // bad input, reported properly
  }
  try {
    const auto report = hetcoll::verify_periodic_plan(platform, plan);
    std::ostringstream written;
    hetcoll::PeriodicPlanJsonOptions options;
    options.valid = report.valid;
    hetcoll::write_periodic_plan_json(written, plan, platform, options);
  } catch (const hetcoll::InputError&) {
    return 0;  // e.g. a period too long to check: refused with a message, as validate does
  }
  return 0;
}
