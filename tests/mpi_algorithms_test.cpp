// MPI libraries' own algorithms as communication programs
// (makespan/mpi_algorithms/): every one is well formed and computes its
// collective (verify_program) over many rank counts, roots and sizes; the
// checker rejects broken programs; predictions on a homogeneous star match
// times worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/verify/verify_program.h"

namespace hetcoll {
namespace {

// Checks one call: refused calls throw InputError with the refusal; others
// are well formed and verified. Returns whether the call was modelled.
bool check_call(const MpiAlgorithm& algorithm, int ranks, int root, std::size_t count, std::size_t element_bytes) {
  const auto context = fmt::format("{} {}: ranks {}, root {}, count {}, {} bytes", to_string(algorithm.operation),
                                   algorithm.name, ranks, root, count, element_bytes);
  SCOPED_TRACE(context);
  const std::string refusal = algorithm.refusal(ranks, count, element_bytes);
  if (!refusal.empty()) {
    EXPECT_THROW(algorithm.generate(ranks, root, count, element_bytes), InputError);
    return false;
  }
  const CommProgram program = algorithm.generate(ranks, root, count, element_bytes);
  EXPECT_EQ(program.ranks, ranks);
  const bool allgather = algorithm.operation == Operation::allgather;  // count: each rank's block
  EXPECT_NO_THROW(check_program(program, allgather ? count * static_cast<std::size_t>(ranks) : count));
  const auto report = verify_program(program, algorithm.operation, root, count);
  EXPECT_TRUE(report.valid) << report.summary();
  return true;
}

std::vector<int> roots_of(const MpiAlgorithm& algorithm, int ranks) {
  if (algorithm.operation == Operation::allreduce || algorithm.operation == Operation::allgather) return {0};
  std::vector<int> roots = {0};
  for (int root : {1, ranks / 2, ranks - 1}) {
    if (root > 0 && root < ranks && std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
  }
  return roots;
}

class EveryAlgorithm : public testing::TestWithParam<std::size_t> {};

TEST_P(EveryAlgorithm, ComputesItsCollective) {
  const MpiAlgorithm& algorithm = mpi_algorithms()[GetParam()];
  std::vector<int> rank_counts;
  for (int p = 1; p <= 17; ++p) rank_counts.push_back(p);
  rank_counts.push_back(32);
  rank_counts.push_back(64);
  int modelled = 0;
  for (int ranks : rank_counts) {
    for (int root : roots_of(algorithm, ranks)) {
      // 4096 elements of 8 bytes: four 8 KiB segments (NTSL, flattree_pipeline).
      for (std::size_t count : {0, 1, 7, 1000, 4096}) {
        // An allgather's buffer holds every rank's block: smaller blocks on many ranks.
        if (algorithm.operation == Operation::allgather && ranks >= 32 && count > 7) count /= 64;
        modelled += check_call(algorithm, ranks, root, count, 8) ? 1 : 0;
      }
      // Byte-cut algorithms are modelled when pieces are whole elements.
      modelled += check_call(algorithm, ranks, root, 64 * static_cast<std::size_t>(ranks), 8) ? 1 : 0;
      modelled += check_call(algorithm, ranks, root, 1000, 1) ? 1 : 0;
    }
  }
  // Large messages, where segmentation and rendezvous kick in.
  for (int ranks : {3, 8, 17}) {
    for (int root : {0, ranks - 1}) {
      if ((algorithm.operation == Operation::allreduce || algorithm.operation == Operation::allgather) && root != 0) {
        continue;
      }
      const std::size_t large = algorithm.operation == Operation::allgather ? 20000 / static_cast<std::size_t>(ranks)
                                                                            : 100000;
      modelled += check_call(algorithm, ranks, root, large, 8) ? 1 : 0;
      modelled += check_call(algorithm, ranks, root, large - 3, 4) ? 1 : 0;
    }
  }
  EXPECT_GT(modelled, 0);
}

INSTANTIATE_TEST_SUITE_P(MpiAlgorithms, EveryAlgorithm, testing::Range<std::size_t>(0, mpi_algorithms().size()),
                         [](const testing::TestParamInfo<std::size_t>& info) {
                           const auto& algorithm = mpi_algorithms()[info.param];
                           return fmt::format("{}_{}", to_string(algorithm.operation), algorithm.name);
                         });

TEST(MpiAlgorithms, SegmentedRingAllreduceBeyondOneSegmentPerRank) {
  // 64 KiB elements: 16 per 1 MiB segment, so a few hundred elements
  // make several phases (below p segments SimGrid runs lr).
  const auto& ring = find_mpi_algorithm(Operation::allreduce, "ompi_ring_segmented");
  for (int ranks : {2, 3, 4, 7, 16, 17}) {
    for (std::size_t count : {std::size_t{16} * static_cast<std::size_t>(ranks), std::size_t{1000}, std::size_t{2501}}) {
      check_call(ring, ranks, 0, count, 65536);
      EXPECT_EQ(ring.generate(ranks, 0, count, 65536).name.find("as lr"), std::string::npos);
    }
  }
}

TEST(MpiAlgorithmTable, NamesAreUniquePerOperationAndLookupListsThem) {
  for (const auto& a : mpi_algorithms()) {
    for (const auto& b : mpi_algorithms()) {
      if (&a != &b) {
        EXPECT_FALSE(a.operation == b.operation && a.name == b.name) << a.name;
      }
    }
  }
  EXPECT_EQ(find_mpi_algorithm(Operation::broadcast, "binomial_tree").generate,
            find_mpi_algorithm(Operation::broadcast, "default").generate);
  try {
    find_mpi_algorithm(Operation::reduce, "nope");
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.parameter(), "algorithm");
    for (const char* name : {"default", "binomial", "flat_tree", "ompi_basic_linear", "scatter_gather",
                             "ompi_pipeline", "ompi_binomial"}) {
      EXPECT_NE(message.find(name), std::string::npos) << message;
    }
  }
  EXPECT_THROW(find_mpi_algorithm(Operation::scatter, "default"), InputError);
  EXPECT_THROW(mpi_algorithm_program(Operation::broadcast, "flattree", 4, 4, 10, 8), InputError);  // root
  EXPECT_THROW(mpi_algorithm_program(Operation::broadcast, "flattree", 0, 0, 10, 8), InputError);  // ranks
}

TEST(VerifyProgram, RejectsADroppedMessage) {
  auto program = mpi_algorithm_program(Operation::broadcast, "flattree", 4, 0, 10, 8);
  ASSERT_TRUE(verify_program(program, Operation::broadcast, 0, 10).valid);
  // Rank 3 no longer receives; the root no longer sends to it.
  program.steps[3].clear();
  auto& root = program.steps[0];
  root.erase(root.begin() + 2);                   // the send to rank 3
  root.back() = ProgramStep::wait_for({0, 1});  // waits for the two others
  const auto report = verify_program(program, Operation::broadcast, 0, 10);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("rank 3 ends with the contributions {3} in element 0, not {0}"), std::string::npos) << report.summary();
}

TEST(VerifyProgram, RejectsADoubleCountedContribution) {
  auto program = mpi_algorithm_program(Operation::reduce, "binomial", 4, 0, 5, 8);
  ASSERT_TRUE(verify_program(program, Operation::reduce, 0, 5).valid);
  // The root combines its last received partial a second time.
  auto& root = program.steps[0];
  ASSERT_EQ(root.back().kind, ProgramStep::Kind::combine);
  root.push_back(root.back());
  const auto report = verify_program(program, Operation::reduce, 0, 5);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("twice"), std::string::npos) << report.summary();
}

TEST(VerifyProgram, RejectsAMissingContribution) {
  auto program = mpi_algorithm_program(Operation::allreduce, "rdb", 4, 0, 5, 8);
  ASSERT_TRUE(verify_program(program, Operation::allreduce, 0, 5).valid);
  // Rank 1 drops the first partial it receives instead of combining it.
  auto& steps = program.steps[1];
  *std::find_if(steps.begin(), steps.end(), [](const ProgramStep& s) { return s.kind == ProgramStep::Kind::combine; }) =
      ProgramStep::copy_of({0, 0, 0}, {0, 0, 0});
  const auto report = verify_program(program, Operation::allreduce, 0, 5);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("contributions"), std::string::npos) << report.summary();
}

TEST(VerifyProgram, RejectsDataReadBeforeItArrived) {
  // Rank 1 receives into scratch and combines before waiting.
  CommProgram program(2, "early read");
  const auto scratch = program.add_buffer(3);
  program.blocking_send(0, 1, {0, 0, 3});
  const auto receive = program.add(1, ProgramStep::receive_of(0, {scratch, 0, 3}));
  program.add(1, ProgramStep::combine_of({scratch, 0, 3}, {0, 0, 3}));
  program.add(1, ProgramStep::wait_for({receive}));
  const auto report = verify_program(program, Operation::allreduce, 0, 3);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("before the receive of step 0 has completed"), std::string::npos)
      << report.summary();
}

TEST(VerifyProgram, RejectsOverwritingTheSliceOfAPendingSend) {
  // Rank 0 combines into the slice it is still sending (before its wait).
  CommProgram program(2, "early overwrite");
  const auto scratch = program.add_buffer(2);
  program.blocking_send(1, 0, {0, 0, 2});
  program.blocking_receive(0, 1, {scratch, 0, 2});
  const auto send = program.add(0, ProgramStep::send_of(1, {0, 0, 2}));
  program.add(0, ProgramStep::combine_of({scratch, 0, 2}, {0, 0, 2}));
  program.add(0, ProgramStep::wait_for({send}));
  program.blocking_receive(1, 0, {0, 0, 2});
  const auto report = verify_program(program, Operation::allreduce, 0, 2);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("while the send of step 2 still uses them"), std::string::npos) << report.summary();
}

TEST(VerifyProgram, AcceptsAHandWrittenExchangeAllreduce) {
  // Two ranks swap vectors (MPI_Sendrecv) and combine: the smallest all-reduce.
  CommProgram program(2, "exchange");
  const auto scratch = program.add_buffer(3);
  for (int rank = 0; rank < 2; ++rank) {
    program.send_receive(rank, 1 - rank, {0, 0, 3}, 1 - rank, {scratch, 0, 3});
    program.add(rank, ProgramStep::combine_of({scratch, 0, 3}, {0, 0, 3}));
  }
  EXPECT_TRUE(verify_program(program, Operation::allreduce, 0, 3).valid);
  EXPECT_TRUE(verify_program(program, Operation::reduce, 1, 3).valid);
  EXPECT_FALSE(verify_program(program, Operation::broadcast, 0, 3).valid);
  EXPECT_THROW(verify_program(program, Operation::scatter, 0, 3), InputError);
}

TEST(VerifyProgram, RejectsAMessageIntoTheWrongPlace) {
  // A broadcast that lands element 0 of the root in element 1.
  CommProgram program(2, "shifted");
  program.blocking_send(0, 1, {0, 0, 1});
  program.blocking_receive(1, 0, {0, 1, 1});
  const auto report = verify_program(program, Operation::broadcast, 0, 2);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("rank 1 ends with the contributions {1} in element 0, not {0}"), std::string::npos) << report.summary();
}

TEST(VerifyProgram, RejectsADeadlock) {
  // Both ranks receive before they send, with blocking calls.
  CommProgram program(2, "deadlock");
  program.blocking_receive(0, 1, {0, 0, 1});
  program.blocking_send(0, 1, {0, 0, 1});
  program.blocking_receive(1, 0, {0, 0, 1});
  program.blocking_send(1, 0, {0, 0, 1});
  const auto report = verify_program(program, Operation::allreduce, 0, 1);
  ASSERT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("deadlock"), std::string::npos) << report.summary();
}

// p hosts, each with a private SHARED link (latency 1 ms, 100 MB/s) to a
// crossbar: host i -> host j crosses link i then link j.
FlowNetwork star(int hosts, Platform& platform) {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  for (int i = 0; i < hosts; ++i) {
    xml += fmt::format(R"(<host id="h{}" speed="1Gf"/><link id="l{}" bandwidth="100MBps" latency="1ms"/>)", i, i);
  }
  for (int i = 0; i < hosts; ++i) {
    for (int j = 0; j < hosts; ++j) {
      if (i != j) {
        xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="l{}"/><link_ctn id="l{}"/>)"
                           "</route>",
                           i, j, i, j);
      }
    }
  }
  xml += "</zone></platform>";
  platform = parse_simgrid_xml(xml, "star.xml");
  std::vector<ProcessorIndex> members;
  for (int i = 0; i < hosts; ++i) members.push_back(*platform.find(fmt::format("h{}", i)));
  return FlowNetwork(platform, members);
}

constexpr double kLatency = 2e-3;     // a route: two links of 1 ms
constexpr double kBandwidth = 100e6;  // bytes per second

TEST(MpiAlgorithmPrediction, BinomialBroadcastOfASmallMessageTakesThreeHopsOnEightRanks) {
  Platform platform;
  const auto network = star(8, platform);
  const auto program = mpi_algorithm_program(Operation::broadcast, "binomial_tree", 8, 0, 1, 8);
  const auto timing = sim::predict_program(program, network, 8);
  ASSERT_TRUE(timing.completed());
  // Eager sends: the root's three messages leave at once and share its
  // link; 8 bytes take 0.08 µs alone, at most 3 times that shared.
  EXPECT_GE(timing.makespan, 3 * (kLatency + 8 / kBandwidth) - 1e-12);
  EXPECT_LE(timing.makespan, 3 * (kLatency + 3 * 8 / kBandwidth) + 1e-12);
}

TEST(MpiAlgorithmPrediction, FlatTreeOfALargeMessageSharesTheRootsLink) {
  Platform platform;
  const auto network = star(5, platform);
  const std::size_t count = 250000;  // 1 MB of 4-byte elements
  const auto program = mpi_algorithm_program(Operation::broadcast, "flattree", 5, 0, count, 4);
  const auto timing = sim::predict_program(program, network, 4);
  ASSERT_TRUE(timing.completed());
  // Four 1 MB messages leave together and share link 0: each gets 25 MB/s.
  EXPECT_NEAR(timing.makespan, kLatency + 4 * 1e6 / kBandwidth, 1e-9);
}

TEST(MpiAlgorithmPrediction, BinomialBroadcastOfALargeMessageUsesRendezvous) {
  // 1 MB messages (rendezvous): a blocking send waits for its message, so
  // the root's three sends are sequential: rank 7 (0 -> 4 -> 6 -> 7)
  // receives after 3 sequential hops, rank 1 after the root's third send
  // (one hop: latency + 1 MB / 100 MB/s, alone on both links).
  Platform platform;
  const auto network = star(8, platform);
  const auto program = mpi_algorithm_program(Operation::broadcast, "binomial_tree", 8, 0, 125000, 8);
  const auto timing = sim::predict_program(program, network, 8);
  ASSERT_TRUE(timing.completed());
  const double hop = kLatency + 1e6 / kBandwidth;
  EXPECT_NEAR(timing.rank_finish[1], 3 * hop, 1e-9);  // the root's third send
  EXPECT_NEAR(timing.rank_finish[7], 3 * hop, 1e-9);  // 0 -> 4 -> 6 -> 7
  EXPECT_NEAR(timing.rank_finish[0], 3 * hop, 1e-9);  // three sequential sends
  EXPECT_NEAR(timing.makespan, 3 * hop, 1e-9);
}

TEST(MpiAlgorithmPrediction, EveryModelledProgramCompletesOnTheStar) {
  Platform platform;
  const auto network = star(6, platform);
  for (const auto& algorithm : mpi_algorithms()) {
    for (std::size_t count : {1, 1000, 100000}) {
      if (!algorithm.refusal(6, count, 8).empty()) continue;
      const auto timing = sim::predict_program(algorithm.generate(6, 2, count, 8), network, 8);
      EXPECT_TRUE(timing.completed()) << algorithm.name << " " << count;
      EXPECT_GT(timing.makespan, 0) << algorithm.name << " " << count;
    }
  }
}

}  // namespace
}  // namespace hetcoll
