// predict_mpi_algorithm PLATFORM.xml RANKS OPERATION NAME COUNT ROOT ELEMENT_BYTES
// Prints the predicted makespan (seconds) of SMPI's algorithm NAME
// (makespan/mpi_algorithms/) for the call, rank r on host "h<r>" of the
// SimGrid platform. Exit 3 when the algorithm refuses the call (the reason
// on stderr), 2 on bad input. For tests/smpi_algorithms/.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/sim/program_simulation.h"

int main(int argc, char** argv) {
  using namespace hetcoll;
  if (argc != 8) {
    std::fprintf(stderr, "usage: predict_mpi_algorithm PLATFORM.xml RANKS OPERATION NAME COUNT ROOT ELEMENT_BYTES\n");
    return 2;
  }
  try {
    std::FILE* file = std::fopen(argv[1], "r");
    if (file == nullptr) throw InputError(fmt::format("{}: cannot be read", argv[1]));
    std::string xml;
    char chunk[65536];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;) xml.append(chunk, n);
    std::fclose(file);
    const Platform platform = parse_simgrid_xml(xml, argv[1]);
    const int ranks = std::atoi(argv[2]);
    const auto operation =
        std::string(argv[3]) == "allgather" ? std::optional<Operation>(Operation::allgather) : operation_from_string(argv[3]);
    if (!operation) throw InputError("operation", argv[3]);
    const std::size_t count = std::strtoul(argv[5], nullptr, 10);
    const std::size_t element_bytes = std::strtoul(argv[7], nullptr, 10);
    const MpiAlgorithm& algorithm = find_mpi_algorithm(*operation, argv[4]);
    if (auto why = algorithm.refusal(ranks, count, element_bytes); !why.empty()) {
      std::fprintf(stderr, "refused: %s\n", why.c_str());
      return 3;
    }
    std::vector<ProcessorIndex> members;
    for (int rank = 0; rank < ranks; ++rank) {
      const auto host = platform.find(fmt::format("h{}", rank));
      if (!host) throw InputError(fmt::format("{}: no host h{}", argv[1], rank));
      members.push_back(*host);
    }
    const FlowNetwork network(platform, members);
    const CommProgram program = algorithm.generate(ranks, std::atoi(argv[6]), count, element_bytes);
    const auto timing = sim::predict_program(program, network, element_bytes);
    if (!timing.completed()) throw std::runtime_error("the program deadlocks");
    std::printf("%.9f\n", timing.makespan);
    return 0;
  } catch (const InputError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
}
