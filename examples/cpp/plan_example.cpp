// Plans the collectives of docs/LIBRARY.md with the installed hetcoll
// library: a cluster built in code, then one read from a file.
//   plan_example [PLATFORM.json]
#include <iostream>

#include <hetcoll/hetcoll.h>

int main(int argc, char** argv) try {
  // Liu 2002, Fig. 2: a fast source p0, a medium processor and five slow ones.
  hetcoll::Cluster cluster = hetcoll::Cluster::from_times({1, 3, 3, 2, 3, 3, 3});

  hetcoll::MakespanPlan broadcast = hetcoll::plan_broadcast(cluster, "p0");
  std::cout << "broadcast from p0: makespan " << broadcast.makespan << ", lower bound " << broadcast.lower_bound
            << ", guarantee " << broadcast.guarantee.text << ", optimal " << (broadcast.optimal ? "yes" : "no")
            << "\n";
  for (const hetcoll::Transfer& transfer : broadcast.transfers) {
    std::cout << "  " << cluster.id(transfer.from) << " -> " << cluster.id(transfer.to) << "  " << transfer.start
              << ".." << transfer.end << "\n";
  }

  // The greedy algorithm alone, for comparison: its guarantee is a ratio.
  hetcoll::PlanOptions fnf;
  fnf.algorithm = "fnf";
  hetcoll::MakespanPlan greedy = hetcoll::plan_broadcast(cluster, "p0", fnf);
  std::cout << "fnf alone: makespan " << greedy.makespan << " (" << greedy.guarantee.text << ")\n";

  if (argc > 1) {
    hetcoll::Cluster from_file = hetcoll::read_cluster(argv[1]);
    hetcoll::MakespanPlan reduce = hetcoll::plan_reduce(from_file);
    std::cout << "reduce on " << argv[1] << " into " << from_file.id(reduce.root) << ": makespan " << reduce.makespan
              << ", algorithm " << reduce.algorithm << "\n";
    hetcoll::MakespanPlan allreduce = hetcoll::plan_allreduce(from_file);
    std::cout << "all-reduce: makespan " << allreduce.makespan << ", " << allreduce.transfers.size()
              << " messages\n";
  }

  // Errors name the parameter.
  try {
    hetcoll::plan_broadcast(cluster, "p9");
  } catch (const hetcoll::InputError& error) {
    std::cout << "error: parameter \"" << error.parameter() << "\": " << error.what() << "\n";
  }
  return 0;
} catch (const std::exception& error) {
  std::cerr << "plan_example: " << error.what() << "\n";
  return 1;
}
