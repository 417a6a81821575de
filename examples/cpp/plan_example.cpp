// Plans the collectives of docs/LIBRARY.md with the installed hetcoll
// library: a cluster built in code, one read from a file, and a platform
// graph built in code.
//   plan_example [PLATFORM.json]
#include <iostream>
#include <optional>
#include <vector>

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

  // A platform graph built in code: hosts a0 and a1 on a switch (links of
  // cost 1 and 2, each way), host b0 behind a slow link of cost 5.
  std::vector<hetcoll::PlatformNode> nodes = {hetcoll::PlatformNode::host("a0"), hetcoll::PlatformNode::host("a1"),
                                              hetcoll::PlatformNode::forwarder("switch"),
                                              hetcoll::PlatformNode::host("b0")};
  std::vector<hetcoll::PlatformEdge> edges;
  auto link = [&edges](hetcoll::ProcessorIndex a, hetcoll::ProcessorIndex b, double cost) {
    edges.push_back(hetcoll::PlatformEdge::with_cost(a, b, cost));
    edges.push_back(hetcoll::PlatformEdge::with_cost(b, a, cost));
  };
  link(0, 2, 1);
  link(1, 2, 2);
  link(2, 3, 5);
  const hetcoll::Platform graph(nodes, edges, "two-level example");
  const std::optional<hetcoll::Route> route = graph.route(0, 3, graph.edge_costs());
  std::cout << "graph: " << graph.size() << " nodes, " << graph.participants().size() << " participants; a0 -> b0 takes "
            << graph.route_time(*route, std::nullopt) << " over " << route->size() << " links\n";
  // Planned on its sender-speed view: each host's time is its slowest route.
  const hetcoll::Cluster view = hetcoll::sender_speed_view(graph);
  const hetcoll::MakespanPlan on_view = hetcoll::plan_broadcast(view, "a0");
  std::cout << "sender-speed view:";
  for (hetcoll::ProcessorIndex p = 0; p < view.size(); ++p) std::cout << " " << view.id(p) << " t=" << view.transmission_time(p);
  std::cout << "; broadcast from a0: makespan " << on_view.makespan << "\n";

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
