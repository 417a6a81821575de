// Plans a broadcast on a cluster built in code and a reduce on a platform
// file, with the installed hetcoll library (docs/LIBRARY.md).
#include <iostream>

#include <hetcoll/makespan/registry.h>
#include <hetcoll/model/platform_io.h>
#include <hetcoll/verify/verify.h>

int main(int argc, char** argv) {
  // Liu 2002, Fig. 2: one fast source, one medium and five slow processors.
  hetcoll::Cluster cluster = hetcoll::Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
  hetcoll::MakespanRequest request;
  request.operation = hetcoll::Operation::broadcast;
  request.root = 0;
  hetcoll::MakespanPlan plan = hetcoll::plan_makespan(cluster, request);
  std::cout << "broadcast: makespan " << plan.makespan << ", lower bound " << plan.lower_bound << ", "
            << plan.transfers.size() << " messages, valid " << hetcoll::verify(cluster, plan).valid << "\n";
  if (argc > 1) {
    hetcoll::LoadedPlatform platform = hetcoll::load_platform_file(argv[1]);
    request.operation = hetcoll::Operation::reduce;
    plan = hetcoll::plan_makespan(platform.cluster(), request);
    std::cout << "reduce on " << argv[1] << ": makespan " << plan.makespan << "\n";
  }
  return 0;
}
