// Tuning stock MPI (registry/mpi_tuning.h, report/mpi_tuning_files.h,
// makespan/mpi_algorithms/stock_mpi.h): Open MPI 4.1's fixed decision on
// cases read off coll_tuned_decision_fixed.c, every decision the argmin of
// its predictions, and the written files read back as Open MPI and MPICH
// read them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/stock_mpi.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/registry/mpi_tuning.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/report/mpi_tuning_files.h"
#include "support/nic_cluster.h"

namespace hetcoll {
namespace {

using testing::nic_cluster;

const auto kBcast = Operation::broadcast;
const auto kReduce = Operation::reduce;
const auto kAllreduce = Operation::allreduce;

TEST(OpenMpiFixedDecision, HandReadCases) {
  // ompi_coll_tuned_bcast_intra_dec_fixed
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 2, 16, true), 3);        // p < 4, s < 32: pipeline
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 3, 100, true), 5);       // s < 256: binary tree
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 3, 300, true), 3);       // s < 512
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 4, 63, true), 5);        // 4 <= p < 8, s < 64
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 4, 64, true), 6);        // s < 128: binomial
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 7, 1048575, true), 1);   // s < 1 MiB: linear
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 7, 1048576, true), 2);   // chain
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 8, 4, true), 7);         // 8 <= p < 16, s < 8: knomial
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 8, 100000, true), 1);
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 20, 2000000, true), 8);  // scatter_allgather
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 64, 1, true), 7);
  EXPECT_EQ(openmpi_fixed_algorithm(kBcast, 500, 20000, true), 4);   // split binary tree
  // ompi_coll_tuned_reduce_intra_dec_fixed
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 3, 4, true), 7);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 3, 1000, true), 1);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 5, 8192, true), 2);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 8, 4096, true), 4);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 8, 8192, true), 5);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 64, 1, true), 5);
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 5, 4, false), 1);       // non-commutative
  EXPECT_EQ(openmpi_fixed_algorithm(kReduce, 8, 100, false), 6);
  // ompi_coll_tuned_allreduce_intra_dec_fixed
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 2, 4, true), 4);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 2, 100000, true), 5);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 8, 100, true), 3);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 8, 8192, true), 6);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 20, 32, true), 5);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 3, 200000, false), 1);
  EXPECT_EQ(openmpi_fixed_algorithm(kAllreduce, 200, 4, false), 2);
  EXPECT_THROW(openmpi_fixed_algorithm(Operation::scatter, 4, 4, true), InputError);
  EXPECT_THROW(openmpi_fixed_algorithm(kBcast, 0, 4, true), InputError);
}

TEST(OpenMpiFixedDecision, ModelledDefaultPrograms) {
  EXPECT_EQ(smpi_ompi_selector_program(kBcast, 1), "NTSL");  // SMPI runs its own function for id 1
  EXPECT_EQ(smpi_ompi_selector_program(kAllreduce, 6), "rab_rdb");
  EXPECT_EQ(smpi_ompi_selector_program(kReduce, 7), "ompi_basic_linear");
  EXPECT_EQ(openmpi_program(kBcast, 1), "flattree");
  EXPECT_EQ(openmpi_program(kBcast, 6), "");
  // Open MPI's fixed decision passes segment size 0: the segmented ring is the ring.
  EXPECT_EQ(openmpi_default_program(kAllreduce, 20, 8, 4, true), "lr");
  EXPECT_EQ(openmpi_default_program(kBcast, 2, 4, 4, true), "ompi_pipeline");  // 16 B: one segment
  EXPECT_EQ(openmpi_default_program(kReduce, 8, 25, 4, true), "ompi_binary");  // 100 B under 32 KiB
  EXPECT_EQ(openmpi_default_program(kReduce, 5, 2048, 4, true), "");           // chain: not modelled
  EXPECT_EQ(openmpi_default_program(kBcast, 8, 1, 4, true), "");               // knomial: not modelled
  for (const auto& algorithm : stock_mpi_algorithms()) {
    if (algorithm.library == StockMpi::openmpi && !algorithm.program.empty()) {
      EXPECT_EQ(openmpi_id_of_program(algorithm.operation, algorithm.program), algorithm.id) << algorithm.name;
    }
  }
}

MpiTuningOptions small_options(StockMpi library) {
  MpiTuningOptions options;
  options.library = library;
  options.message_bytes = {4, 1024, 65536, 1048576};
  options.flow.envelope_bytes = sim::kSmpiEnvelopeBytes;
  options.replace_unmodelled_default = true;
  return options;
}

TEST(MpiTuning, EveryCellIsTheArgminOfItsPredictions) {
  const auto platform = nic_cluster(8, {12.5, 12.5, 12.5, 12.5, 7.8, 7.8, 7.8, 7.8}, 50);
  for (StockMpi library : {StockMpi::openmpi, StockMpi::mpich}) {
    const auto tuning = tune_stock_mpi(platform, small_options(library));
    ASSERT_EQ(tuning.communicator_sizes, (std::vector<int>{2, 4, 8}));
    ASSERT_EQ(tuning.cells.size(), 3u * 3u * 4u);
    for (const auto& cell : tuning.cells) {
      ASSERT_FALSE(cell.predictions.empty());
      double fastest = INFINITY;
      for (const auto& prediction : cell.predictions) fastest = std::min(fastest, prediction.seconds);
      if (library == StockMpi::openmpi && cell.openmpi_id == 0) {  // Open MPI's own decision kept
        EXPECT_EQ(cell.seconds, cell.default_seconds);
        EXPECT_LE(cell.seconds, fastest);
        EXPECT_EQ(cell.program, cell.default_program);
      } else {
        EXPECT_EQ(cell.seconds, fastest);
        if (library == StockMpi::openmpi && !cell.default_program.empty()) {
          EXPECT_LT(cell.seconds, cell.default_seconds);
        }
        bool listed = false;
        for (const auto& prediction : cell.predictions) listed |= prediction.program == cell.program;
        EXPECT_TRUE(listed) << cell.program;
      }
      // Every prediction is the chooser's, recomputed here.
      const auto hosts = platform.graph().participants();
      const std::vector<ProcessorIndex> ranks(hosts.begin(), hosts.begin() + cell.ranks);
      const FlowNetwork network(platform.graph(), ranks);
      CallShape call;
      call.operation = cell.operation;
      call.count = cell.count;
      call.element_bytes = 4;
      const auto& first = cell.predictions.front();
      EXPECT_DOUBLE_EQ(predict_candidate(platform, ranks, network, call, "mpi:" + first.program,
                                         small_options(library).flow),
                       first.seconds);
      if (library == StockMpi::openmpi) {
        if (cell.openmpi_id != 0) {
          EXPECT_EQ(openmpi_program(cell.operation, cell.openmpi_id), cell.program);
        }
        EXPECT_EQ(cell.default_id, openmpi_fixed_algorithm(cell.operation, cell.ranks, cell.message_bytes, true));
        EXPECT_EQ(std::isnan(cell.default_seconds), cell.default_program.empty());
        // Off --commutative-only, no algorithm wrong for non-commutative operations is written.
        for (const auto& algorithm : stock_mpi_algorithms()) {
          if (cell.openmpi_id != 0 && algorithm.library == library && algorithm.program == cell.program &&
              algorithm.operation == cell.operation) {
            EXPECT_FALSE(algorithm.commutative_only) << algorithm.name;
          }
        }
      }
    }
  }
}

TEST(MpiTuning, CommutativeOnlyIsNeverSlowerThanTheModelledDefault) {
  const auto platform = nic_cluster(8, {12.5, 12.5, 7.8}, 50);
  auto options = small_options(StockMpi::openmpi);
  options.commutative_only = true;
  int compared = 0;
  for (const auto& cell : tune_stock_mpi(platform, options).cells) {
    if (cell.default_program.empty()) continue;
    EXPECT_LE(cell.seconds, cell.default_seconds) << cell.program << " " << cell.default_program;
    ++compared;
  }
  EXPECT_GT(compared, 10);
}

TEST(MpiTuning, UnmodelledOpenMpiDefaultsAreKeptUnlessAsked) {
  const auto platform = nic_cluster(8, {12.5, 7.8}, 50);
  auto options = small_options(StockMpi::openmpi);
  options.replace_unmodelled_default = false;
  const auto kept = tune_stock_mpi(platform, options);
  options.replace_unmodelled_default = true;
  const auto replaced = tune_stock_mpi(platform, options);
  ASSERT_EQ(kept.cells.size(), replaced.cells.size());
  int unmodelled = 0;
  for (std::size_t i = 0; i < kept.cells.size(); ++i) {
    if (!kept.cells[i].default_program.empty()) {
      EXPECT_EQ(kept.cells[i].program, replaced.cells[i].program);
      continue;
    }
    ++unmodelled;
    EXPECT_EQ(kept.cells[i].openmpi_id, 0);
    EXPECT_NE(replaced.cells[i].openmpi_id, 0);
    EXPECT_FALSE(openmpi_rules_lookup(openmpi_rules_file(kept), openmpi_collective_id(kept.cells[i].operation),
                                      kept.cells[i].ranks, kept.cells[i].message_bytes)
                     .has_value());
  }
  EXPECT_GT(unmodelled, 0);
}

TEST(MpiTuning, OpenMpiRulesFileReadsBackAsOpenMpiReadsIt) {
  const auto platform = nic_cluster(8, {12.5, 7.8}, 50);
  auto options = small_options(StockMpi::openmpi);
  options.commutative_only = true;
  const auto tuning = tune_stock_mpi(platform, options);
  const std::string rules = openmpi_rules_file(tuning);
  std::set<std::string> runs_checked;
  for (const auto& cell : tuning.cells) {
    const int collective = openmpi_collective_id(cell.operation);
    // At the class's size and just below the next class: the cell's rule.
    for (std::size_t bytes : {cell.message_bytes, cell.message_bytes * 2 - 1}) {
      const auto rule = openmpi_rules_lookup(rules, collective, cell.ranks, bytes);
      if (cell.openmpi_id == 0) {  // Open MPI's fixed decision
        EXPECT_FALSE(rule.has_value());
        continue;
      }
      ASSERT_TRUE(rule.has_value());
      EXPECT_EQ(rule->algorithm, cell.openmpi_id) << to_string(cell.operation) << " " << cell.ranks << " " << bytes;
      if (bytes == cell.message_bytes) {
        EXPECT_EQ(rule->segment_bytes, static_cast<long>(cell.parameters.segment_bytes));
        EXPECT_EQ(rule->fanout, cell.parameters.fanout);
      }
    }
    // A communicator between two tuned sizes takes the smaller one's rules.
    if (cell.ranks == 4) {
      const auto rule = openmpi_rules_lookup(rules, collective, 7, cell.message_bytes);
      EXPECT_EQ(rule ? rule->algorithm : 0, cell.openmpi_id);
    }
  }
  EXPECT_FALSE(openmpi_rules_lookup(rules, /*GATHER*/ 9, 8, 4).has_value());
  EXPECT_THROW(openmpi_rules_lookup("1 7 1 2 1 16 3 0 0", 7, 2, 4), InputError);  // first size not 0
  EXPECT_THROW(openmpi_rules_lookup("1 7 1 2 1 0 3 0", 7, 2, 4), InputError);     // truncated
  EXPECT_THROW(openmpi_rules_lookup("1 7 x", 7, 2, 4), InputError);
  const auto rule = openmpi_rules_lookup("# c\n1 # one\n7 1 2 2 0 3 0 0 64 1 0 0\n", 7, 2, 100);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->algorithm, 1);
}

TEST(MpiTuning, MpichJsonHasMpichStructureAndSelectsEachCell) {
  const auto platform = nic_cluster(8, {12.5, 7.8}, 50);
  const auto tuning = tune_stock_mpi(platform, small_options(StockMpi::mpich));
  const std::string text = mpich_selection_json(tuning);
  const auto json = nlohmann::ordered_json::parse(text);
  std::set<std::string> algorithms;
  for (const auto& algorithm : stock_mpi_algorithms()) {
    if (algorithm.library == StockMpi::mpich) algorithms.insert(std::string(algorithm.name));
  }
  // maint/tuning/coll/mpir/generic.json's shape: collective, comm_type, then
  // conditions, each leaf one "algorithm=NAME": {}.
  std::function<void(const nlohmann::ordered_json&, int)> check = [&](const nlohmann::ordered_json& node, int depth) {
    ASSERT_TRUE(node.is_object());
    for (const auto& [key, value] : node.items()) {
      if (key.starts_with("algorithm=")) {
        EXPECT_EQ(node.size(), 1u);
        EXPECT_TRUE(value.is_object() && value.empty());
        const std::string name = key.substr(10);
        EXPECT_TRUE(algorithms.contains(name) || name.find("_inter_") != std::string::npos) << name;
      } else {
        EXPECT_NE(key.find_first_of("=<"), std::string::npos) << key;
        check(value, depth + 1);
      }
    }
  };
  for (const auto& [collective, body] : json.items()) {
    EXPECT_TRUE(collective == "collective=bcast" || collective == "collective=reduce" ||
                collective == "collective=allreduce")
        << collective;
    EXPECT_TRUE(body.contains("comm_type=intra"));
    EXPECT_TRUE(body.contains("comm_type=inter"));
    check(body, 1);
  }
  for (const auto& cell : tuning.cells) {
    const std::string collective = cell.operation == kBcast ? "bcast" : cell.operation == kReduce ? "reduce" : "allreduce";
    for (std::size_t bytes : {cell.message_bytes, cell.message_bytes * 2 - 1}) {
      EXPECT_EQ(mpich_json_lookup(text, collective, cell.ranks, bytes, bytes / 4), cell.library_name)
          << collective << " " << cell.ranks << " " << bytes;
    }
  }
  // Merged into a base file: other collectives kept, the tuned ones replaced.
  const std::string base = R"({"collective=barrier": {"comm_type=intra": {"algorithm=MPIR_Barrier_intra_k_dissemination": {}}},
                               "collective=bcast": {"comm_type=intra": {"algorithm=MPIR_Bcast_intra_smp": {}}}})";
  const auto merged = nlohmann::ordered_json::parse(mpich_selection_json(tuning, base));
  EXPECT_TRUE(merged.contains("collective=barrier"));
  EXPECT_EQ(merged["collective=bcast"], json["collective=bcast"]);
  EXPECT_THROW(mpich_selection_json(tuning, std::string("[1]")), InputError);
  EXPECT_THROW(mpich_selection_json(tuning, std::string("{")), InputError);
}

TEST(MpiTuning, BadInputNamesTheParameter) {
  const auto platform = nic_cluster(4, {12.5}, 50);
  auto expect_parameter = [&](MpiTuningOptions options, const std::string& parameter) {
    try {
      tune_stock_mpi(platform, options);
      ADD_FAILURE() << "no error for " << parameter;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(parameter), std::string::npos) << error.what();
    }
  };
  auto options = small_options(StockMpi::openmpi);
  options.communicator_sizes = {5};
  expect_parameter(options, "communicator_sizes");
  options.communicator_sizes = {1};
  expect_parameter(options, "communicator_sizes");
  options = small_options(StockMpi::openmpi);
  options.message_bytes = {6};
  expect_parameter(options, "message_bytes");
  options = small_options(StockMpi::openmpi);
  options.root = 2;
  options.communicator_sizes = {2, 4};
  expect_parameter(options, "root");
  options = small_options(StockMpi::openmpi);
  options.operations = {Operation::scatter};
  expect_parameter(options, "operation");
}

TEST(MpiTuning, ChooserPredictsOpenMpisDefaultWhereModelled) {
  const auto platform = nic_cluster(8, {12.5, 7.8}, 50);
  const auto hosts = platform.graph().participants();
  ChooserOptions options;
  options.library = MpiLibrary::openmpi;
  options.flow.envelope_bytes = sim::kSmpiEnvelopeBytes;
  CallShape call;
  call.operation = kAllreduce;
  call.count = 25;  // 100 B on 8 ranks: recursive doubling (3)
  const auto choice = choose_program(platform, hosts, call, options);
  const FlowNetwork network(platform.graph(), hosts);
  EXPECT_DOUBLE_EQ(choice.default_seconds, predict_candidate(platform, hosts, network, call, "mpi:rdb", options.flow));
  call.operation = kBcast;
  call.count = 1;  // 4 B on 8 ranks: knomial (7), not modelled
  EXPECT_TRUE(std::isnan(choose_program(platform, hosts, call, options).default_seconds));
}

}  // namespace
}  // namespace hetcoll
