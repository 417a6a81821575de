// libFuzzer target for the plan readers and the verifiers (docs/FUZZING.md):
// what `hetcoll validate --plan FILE` does with any file a user gives it.
//
// The cluster is fixed (p0..p4, times 1, 1, 2, 3, 0.5). Any input must either
// give a plan or throw hetcoll::InputError; a plan that was read must then go
// through verify() and be written back without crashing, whatever it says.
// A program plan (a top-level "program") is read on the cluster's complete
// graph, its steps checked (check_program, verify_program) and written back.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/program_plan_json.h"
#include "hetcoll/verify/verify.h"
#include "hetcoll/verify/verify_program.h"

namespace {

void program_plan(std::string_view text, const hetcoll::Cluster& cluster) {
  static const hetcoll::Platform platform = hetcoll::Platform::from_cluster(cluster);
  hetcoll::ProgramPlan plan;
  try {
    plan = hetcoll::parse_program_plan_json(text, platform, "fuzz-plan.json");
    hetcoll::check_program(plan.program, plan.element_count);
  } catch (const hetcoll::InputError&) {
    return;  // bad input, reported properly
  }
  // The symbolic run holds every element: keep the fuzzer's inputs small.
  if (plan.element_count * plan.participants.size() <= (1u << 16)) {
    (void)hetcoll::verify_program(plan.program, plan.operation, plan.root, plan.element_count);
  }
  std::ostringstream written;
  hetcoll::write_program_plan_json(written, plan, platform);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const hetcoll::Cluster cluster = hetcoll::Cluster::from_times({1, 1, 2, 3, 0.5});
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (hetcoll::looks_like_program_plan(text)) {
    program_plan(text, cluster);
    return 0;
  }
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
