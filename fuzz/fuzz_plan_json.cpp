// libFuzzer target for the plan reader and the verifier (docs/FUZZING.md):
// what `hetcoll validate --plan FILE` does with any file a user gives it.
//
// The cluster is fixed (p0..p4, times 1, 1, 2, 3, 0.5). Any input must either
// give a plan or throw hetcoll::InputError; a plan that was read must then go
// through verify() and be written back without crashing, whatever it says.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const hetcoll::Cluster cluster = hetcoll::Cluster::from_times({1, 1, 2, 3, 0.5});
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hetcoll::MakespanPlan plan;
  try {
    plan = hetcoll::parse_plan_json(text, cluster, "fuzz-plan.json");
  } catch (const hetcoll::InputError&) {
    return 0;  // bad input, reported properly
  }
  hetcoll::VerifyReport report = hetcoll::verify(cluster, plan);
  std::ostringstream written;
  hetcoll::write_plan_json(written, plan, cluster, {report.valid, true});
  return 0;
}
