// The MPI runtime under a real MPI (Open MPI: `mpirun -np 8`, see
// tests/mpi/run_mpi_test.sh): hetcoll::mpi's reduce, allreduce, bcast,
// multicast, pipelined and split broadcasts and split all-reduces give the same results as MPI_Reduce,
// MPI_Allreduce and MPI_Bcast, for predefined and user-defined operations
// (commutative and not), several datatypes (derived ones with holes too),
// counts 1..4096, every root, plans computed in-process or read from a plan
// file, rank mappings by order, explicit and on a sub-communicator; and
// mismatches are errors on every rank.
//
// Usage: mpi_runtime_test SUITE PLATFORM_DIR WORK_DIR
//   SUITE: results | pipeline | split | programs | mismatch | timeout-transfer | timeout-prepare
// Prints "PASS name" / "FAIL name: why" (rank 0) and exits 0 only when every
// check passed on every rank.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hetcoll/registry/registry.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/collectives.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include "hetcoll/mpi/pipelined_reduce.h"
#include "hetcoll/mpi/program_executor.h"
#include "hetcoll/mpi/runtime.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/makespan/split/split_allreduce.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/split_program.h"
#include "hetcoll/makespan/split/split_allreduce_nic.h"
#include "hetcoll/model/nic_network.h"
#include "support/eager_support.h"
#include "hetcoll/plan/plan_json.h"

namespace {

using namespace hetcoll;
using namespace hetcoll::mpi;

// A split plan's program (plan/split_program.h) run by the program executor
// on `comm`, called like the other executables below.
using hetcoll::mpi::allreduce;
using hetcoll::mpi::bcast;
using hetcoll::mpi::reduce;
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const CommProgram& program) {
  return hetcoll::mpi::bcast(buffer, count, datatype, root, program, comm, comm, {});
}
int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const CommProgram& program) {
  return hetcoll::mpi::reduce(sendbuf, recvbuf, count, datatype, op, root, program, comm, comm, {});
}
int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const CommProgram& program) {
  return hetcoll::mpi::allreduce(sendbuf, recvbuf, count, datatype, op, program, comm, comm, {});
}

int world_rank = 0;
int world_size = 1;
int failures = 0;
int checks = 0;
// Who takes part in the checks (a sub-communicator for platforms of fewer
// hosts than ranks; world rank 0 is always in it).
MPI_Comm report_comm = MPI_COMM_WORLD;

// Every rank of report_comm reports; rank 0 prints one line per check.
void report(const std::string& name, bool ok, const std::string& why = "") {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, report_comm);
  if (!ok) std::fprintf(stderr, "rank %d: FAIL %s: %s\n", world_rank, name.c_str(), why.c_str());
  ++checks;
  if (!all) ++failures;
  if (world_rank == 0 && !all) std::printf("FAIL %s\n", name.c_str());
  if (world_rank == 0 && all && std::getenv("HETCOLL_TEST_VERBOSE")) std::printf("PASS %s\n", name.c_str());
}

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Greatest common divisor, elementwise (commutative, user-defined).
void gcd_int_function(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::gcd(a[i], b[i]);
}
void gcd_long_long_function(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<long long*>(in);
  auto* b = static_cast<long long*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::gcd(a[i], b[i]);
}

// Affine maps x -> a x + b modulo 2^32, composed left then right: not
// commutative. One element = two uint32 (a derived contiguous datatype).
void compose_affine(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* left = static_cast<std::uint32_t*>(in);
  auto* right = static_cast<std::uint32_t*>(inout);
  for (int i = 0; i < *len; ++i) {
    std::uint32_t a1 = left[2 * i], b1 = left[2 * i + 1], a2 = right[2 * i], b2 = right[2 * i + 1];
    right[2 * i] = a1 * a2;
    right[2 * i + 1] = a2 * b1 + b2;
  }
}

// One element = ints at offsets 0 and 2 of a 4-int extent (holes at 1, 3):
// a derived datatype with holes; the operation sums the two ints.
constexpr int kStridedExtentInts = 4;
void sum_strided_function(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) {
    b[kStridedExtentInts * i] += a[kStridedExtentInts * i];
    b[kStridedExtentInts * i + 2] += a[kStridedExtentInts * i + 2];
  }
}

struct Datatypes {
  MPI_Datatype affine = MPI_DATATYPE_NULL;   // 2 x uint32, contiguous
  MPI_Datatype strided = MPI_DATATYPE_NULL;  // ints 0 and 2 of 4
  MPI_Op gcd_int = MPI_OP_NULL, gcd_long_long = MPI_OP_NULL, compose = MPI_OP_NULL, sum_strided = MPI_OP_NULL;

  Datatypes() {
    MPI_Type_contiguous(2, MPI_UINT32_T, &affine);
    MPI_Type_commit(&affine);
    MPI_Datatype vector;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vector);
    MPI_Type_create_resized(vector, 0, kStridedExtentInts * static_cast<MPI_Aint>(sizeof(int)), &strided);
    MPI_Type_commit(&strided);
    MPI_Type_free(&vector);
    MPI_Op_create(gcd_int_function, 1, &gcd_int);
    MPI_Op_create(gcd_long_long_function, 1, &gcd_long_long);
    MPI_Op_create(compose_affine, 0, &compose);
    MPI_Op_create(sum_strided_function, 1, &sum_strided);
  }
};

// A case: a datatype, an operation, how to fill one rank's buffer, and how
// many bytes make one element's data (for comparisons through holes).
struct Case {
  std::string name;
  MPI_Datatype datatype;
  MPI_Op op;
  std::function<void(std::vector<unsigned char>&, int count, int rank, int salt)> fill;
  std::function<bool(const std::vector<unsigned char>&, const std::vector<unsigned char>&, int count)> equal;
  std::size_t extent;
};

template <typename T>
Case make_case(std::string name, MPI_Datatype datatype, MPI_Op op, std::function<T(std::uint32_t)> value) {
  Case c;
  c.name = std::move(name);
  c.datatype = datatype;
  c.op = op;
  c.extent = sizeof(T);
  c.fill = [value](std::vector<unsigned char>& buffer, int count, int rank, int salt) {
    buffer.assign(static_cast<size_t>(count) * sizeof(T), 0);
    auto* data = reinterpret_cast<T*>(buffer.data());
    for (int i = 0; i < count; ++i) data[i] = value(mix(static_cast<std::uint32_t>(rank * 7919 + i * 31 + salt * 131)));
  };
  c.equal = [](const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, int count) {
    return std::memcmp(a.data(), b.data(), static_cast<size_t>(count) * sizeof(T)) == 0;
  };
  return c;
}

std::vector<Case> cases(const Datatypes& types) {
  std::vector<Case> all;
  all.push_back(make_case<int>("sum/int", MPI_INT, MPI_SUM, [](std::uint32_t x) { return static_cast<int>(x % 2001) - 1000; }));
  // Small integers in doubles: every order of summation gives the same result.
  all.push_back(make_case<double>("sum/double", MPI_DOUBLE, MPI_SUM, [](std::uint32_t x) { return static_cast<double>(x % 1001) - 500.0; }));
  all.push_back(make_case<long long>("max/long long", MPI_LONG_LONG, MPI_MAX, [](std::uint32_t x) { return static_cast<long long>(x) * 977 - (1LL << 40); }));
  all.push_back(make_case<int>("max/int", MPI_INT, MPI_MAX, [](std::uint32_t x) { return static_cast<int>(x); }));
  all.push_back(make_case<double>("max/double", MPI_DOUBLE, MPI_MAX, [](std::uint32_t x) { return static_cast<double>(x) / 7.0; }));
  all.push_back(make_case<int>("gcd/int", MPI_INT, types.gcd_int, [](std::uint32_t x) { return static_cast<int>(12 * (1 + x % 50)); }));
  all.push_back(make_case<long long>("gcd/long long", MPI_LONG_LONG, types.gcd_long_long, [](std::uint32_t x) { return 30LL * (1 + x % 97); }));
  {
    Case c;
    c.name = "affine composition (non-commutative)/2 x uint32";
    c.datatype = types.affine;
    c.op = types.compose;
    c.extent = 2 * sizeof(std::uint32_t);
    c.fill = [](std::vector<unsigned char>& buffer, int count, int rank, int salt) {
      buffer.assign(static_cast<size_t>(count) * 8, 0);
      auto* data = reinterpret_cast<std::uint32_t*>(buffer.data());
      for (int i = 0; i < 2 * count; ++i) data[i] = mix(static_cast<std::uint32_t>(rank * 104729 + i * 17 + salt)) | 1u;
    };
    c.equal = [](const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, int count) {
      return std::memcmp(a.data(), b.data(), static_cast<size_t>(count) * 8) == 0;
    };
    all.push_back(c);
  }
  {
    Case c;
    c.name = "sum of a strided type with holes (user op)";
    c.datatype = types.strided;
    c.op = types.sum_strided;
    c.extent = kStridedExtentInts * sizeof(int);
    c.fill = [](std::vector<unsigned char>& buffer, int count, int rank, int salt) {
      buffer.assign(static_cast<size_t>(count) * kStridedExtentInts * sizeof(int), 0);
      auto* data = reinterpret_cast<int*>(buffer.data());
      for (int i = 0; i < count * kStridedExtentInts; ++i) {
        // The holes (odd offsets) hold a marker that must survive untouched.
        data[i] = i % 2 ? -7 : static_cast<int>(mix(static_cast<std::uint32_t>(rank * 31 + i + salt)) % 1000);
      }
    };
    c.equal = [](const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, int count) {
      const auto* x = reinterpret_cast<const int*>(a.data());
      const auto* y = reinterpret_cast<const int*>(b.data());
      for (int i = 0; i < count * kStridedExtentInts; i += 2) {
        if (x[i] != y[i]) return false;
      }
      for (int i = 1; i < count * kStridedExtentInts; i += 2) {
        if (y[i] != -7) return false;  // hetcoll's buffer: holes untouched
      }
      return true;
    };
    all.push_back(c);
  }
  return all;
}

const std::vector<int> kCounts = {1, 2, 3, 17, 64, 1000, 4096};

// Reduce and all-reduce through `runtime`, against MPI_Reduce / MPI_Allreduce.
void check_reductions(Runtime& runtime, MPI_Comm comm, const std::vector<Case>& all, const std::string& label,
                      const std::vector<int>& counts, bool every_root, bool with_allreduce = true) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (const auto& c : all) {
    bool ok = true;
    std::string why;
    for (int count : counts) {
      std::vector<unsigned char> mine, ours, theirs;
      c.fill(mine, count, rank, count);
      for (int root = 0; root < size; ++root) {
        if (!every_root && root != (count % size)) continue;
        ours.assign(mine.size(), 0);
        theirs.assign(mine.size(), 0);
        c.fill(ours, count, -1, 0);  // recv buffers start as garbage of the right shape
        // Holes of the strided type must keep what the buffer had.
        if (c.datatype != MPI_INT && c.extent == kStridedExtentInts * sizeof(int)) {
          auto* data = reinterpret_cast<int*>(ours.data());
          for (int i = 1; i < count * kStridedExtentInts; i += 2) data[i] = -7;
        }
        runtime.reduce(mine.data(), ours.data(), count, c.datatype, c.op, root);
        MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, comm);
        if (rank == root && !c.equal(theirs, ours, count)) {
          ok = false;
          why = fmt::format("reduce count {} root {} differs from MPI_Reduce", count, root);
        }
      }
      // MPI_IN_PLACE at the root.
      int root = count % size;
      ours = mine;
      theirs.assign(mine.size(), 0);
      runtime.reduce(rank == root ? MPI_IN_PLACE : mine.data(), ours.data(), count, c.datatype, c.op, root);
      MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, comm);
      if (rank == root && !c.equal(theirs, ours, count)) {
        ok = false;
        why = fmt::format("reduce MPI_IN_PLACE count {} root {}", count, root);
      }
      if (!with_allreduce) continue;
      // All-reduce, plain and in place.
      ours.assign(mine.size(), 0);
      if (c.extent == kStridedExtentInts * sizeof(int)) {
        auto* data = reinterpret_cast<int*>(ours.data());
        for (int i = 1; i < count * kStridedExtentInts; i += 2) data[i] = -7;
      }
      theirs.assign(mine.size(), 0);
      runtime.allreduce(mine.data(), ours.data(), count, c.datatype, c.op);
      MPI_Allreduce(mine.data(), theirs.data(), count, c.datatype, c.op, comm);
      if (!c.equal(theirs, ours, count)) {
        ok = false;
        why = fmt::format("allreduce count {}", count);
      }
      ours = mine;
      runtime.allreduce(MPI_IN_PLACE, ours.data(), count, c.datatype, c.op);
      if (!c.equal(theirs, ours, count)) {
        ok = false;
        why = fmt::format("allreduce MPI_IN_PLACE count {}", count);
      }
    }
    report(fmt::format("{}: reduce{}, {}", label, with_allreduce ? " + allreduce" : "", c.name), ok, why);
  }
}

void check_broadcasts(Runtime& runtime, MPI_Comm comm, const std::vector<Case>& all, const std::string& label) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (const auto& c : all) {
    if (c.op != MPI_SUM && c.op != MPI_MAX && c.extent != kStridedExtentInts * sizeof(int) && c.extent != 8) continue;
    bool ok = true;
    std::string why;
    for (int count : kCounts) {
      for (int root = 0; root < size; ++root) {
        std::vector<unsigned char> ours, theirs;
        c.fill(ours, count, rank == root ? 1000 : rank, 5);
        c.fill(theirs, count, rank == root ? 1000 : rank, 5);
        runtime.bcast(ours.data(), count, c.datatype, root);
        MPI_Bcast(theirs.data(), count, c.datatype, root, comm);
        if (ours != theirs) {
          ok = false;
          why = fmt::format("bcast count {} root {}", count, root);
        }
      }
    }
    report(fmt::format("{}: bcast, {}", label, c.name), ok, why);
  }
}

std::string platform_path(const std::string& dir) { return dir + "/liu-kuo-wang-sec6.1.json"; }

void suite_results(const std::string& platform_dir, const std::string& work_dir) {
  Datatypes types;
  auto all = cases(types);
  auto platform = load_platform_file(platform_path(platform_dir));
  const auto& cluster = platform.cluster();

  // 1. Plans computed in-process, ranks by order, every root.
  {
    Runtime runtime(MPI_COMM_WORLD, platform_path(platform_dir));
    check_reductions(runtime, MPI_COMM_WORLD, all, "in-process plans, by order", kCounts, true);
    check_broadcasts(runtime, MPI_COMM_WORLD, all, "in-process plans, by order");
  }
  // 2. An explicit mapping (ranks play the processors in reverse, interleaving
  //    fast and slow) and the binomial algorithm for contrast.
  {
    std::vector<std::string> reversed;
    for (int r = 0; r < world_size; ++r) reversed.emplace_back(cluster.id(static_cast<ProcessorIndex>(world_size - 1 - r)));
    PlanningOptions planning;
    planning.reduce_algorithm = "snf";
    planning.broadcast_algorithm = "fnf";
    Runtime runtime(MPI_COMM_WORLD, platform_path(platform_dir), RankMapping::explicit_list(reversed), {}, planning);
    check_reductions(runtime, MPI_COMM_WORLD, all, "snf/fnf, ranks in reverse", {1, 64, 4096}, true);
    check_broadcasts(runtime, MPI_COMM_WORLD, {all[0]}, "snf/fnf, ranks in reverse");
  }
  // 3. A sub-communicator (odd and even ranks), mapped by order onto the
  //    processors the ranks of the world play.
  {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    int half_size = 0;
    MPI_Comm_size(half, &half_size);
    std::vector<std::string> ids;
    for (int r = world_rank % 2; r < world_size; r += 2) ids.emplace_back(cluster.id(static_cast<ProcessorIndex>(r)));
    Runtime runtime(half, platform_path(platform_dir), RankMapping::explicit_list(ids));
    check_reductions(runtime, half, {all[1], all[5], all[7]}, "sub-communicator", {1, 100}, true);
    MPI_Comm_free(&half);
  }
  // 4. A plan read from a plan file (written by rank 0 as `hetcoll reduce
  //    --json` would), run with ExecutablePlan directly.
  for (auto operation : {Operation::reduce, Operation::allreduce, Operation::broadcast}) {
    std::string path = fmt::format("{}/plan-{}.json", work_dir, to_string(operation));
    int root = 3;
    if (world_rank == 0) {
      auto plan = plan_for_cluster(cluster, operation, operation == Operation::allreduce ? kNoProcessor : root, "");
      std::ofstream out(path);
      write_plan_json(out, plan, cluster);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    auto plan = ExecutablePlan::from_files(MPI_COMM_WORLD, path, platform_path(platform_dir));
    bool ok = true;
    for (int count : {1, 333}) {
      for (const auto& c : {all[0], all[5], all[7]}) {
        std::vector<unsigned char> mine, ours, theirs;
        c.fill(mine, count, world_rank, 9);
        ours.assign(mine.size(), 0);
        theirs.assign(mine.size(), 0);
        if (operation == Operation::reduce) {
          reduce(mine.data(), ours.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD, plan);
          MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD);
          if (world_rank == root) ok = ok && c.equal(theirs, ours, count);
        } else if (operation == Operation::allreduce) {
          allreduce(mine.data(), ours.data(), count, c.datatype, c.op, MPI_COMM_WORLD, plan);
          MPI_Allreduce(mine.data(), theirs.data(), count, c.datatype, c.op, MPI_COMM_WORLD);
          ok = ok && c.equal(theirs, ours, count);
        } else {
          ours = mine;
          theirs = mine;
          bcast(ours.data(), count, c.datatype, root, MPI_COMM_WORLD, plan);
          MPI_Bcast(theirs.data(), count, c.datatype, root, MPI_COMM_WORLD);
          ok = ok && ours == theirs;
        }
      }
    }
    report(fmt::format("plan file: {} (algorithm {})", to_string(operation), plan.algorithm()), ok);
  }
  // 6. Plans of the graph planners on SimGrid's small_platform.xml (7 hosts
  //    of a WAN, ranks 0..6 in the file's order), a plan per size class:
  //    the same results as MPI's, every root.
  {
    MPI_Comm seven;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < 7 ? 0 : MPI_UNDEFINED, world_rank, &seven);
    if (seven != MPI_COMM_NULL) {
      report_comm = seven;
      PlanningOptions planning;
      planning.model = PlanModel::platform_graph;
      planning.choose = false;  // the graph planners' plans, not the chooser's pick
      auto hosts = RankMapping::explicit_list(
          std::vector<std::string>{"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin", "Boivin"});
      Runtime runtime(seven, platform_dir + "/small_platform.xml", hosts, {}, planning);
      check_reductions(runtime, seven, {all[0], all[5], all[7]}, "graph plans on small_platform.xml", {1, 100, 4096},
                       true);
      check_broadcasts(runtime, seven, {all[0], all[5]}, "graph plans on small_platform.xml");
      // What ran is the graph planners' plan (its makespan is the graph
      // model's), not the sender-speed view's.
      const auto& prepared = runtime.program_for(Operation::broadcast, 2, 64, 1, true);
      auto graph_plan = plan_for_ranks(load_platform_file(platform_dir + "/small_platform.xml"),
                                       runtime.processor_of_rank(), Operation::broadcast, 2, 64, "",
                                       PlanModel::platform_graph);
      report("graph plans on small_platform.xml: the graph planner's plan", prepared.predicted_seconds == graph_plan.makespan &&
                 graph_plan.model == PlanModel::platform_graph,
             fmt::format("prepared plan predicts {}, the graph plan {}", prepared.predicted_seconds, graph_plan.makespan));
      // The eager model's broadcasts (paced standard sends): MPI's results,
      // every root; a reduce is refused on every rank.
      PlanningOptions eager_planning;
      eager_planning.model = PlanModel::eager;
      eager_planning.choose = false;
      Runtime eager(seven, platform_dir + "/small_platform.xml", hosts, {}, eager_planning);
      check_broadcasts(eager, seven, {all[0], all[5]}, "eager plans on small_platform.xml");
      report("eager plans on small_platform.xml: paced standard sends",
             eager.program_for(Operation::broadcast, 0, 64, 1, true).model == PlanModel::eager);
      // Eager reduces (all receives posted at once, paced sends): MPI's
      // results for sum, max, a user gcd and a non-commutative composition,
      // every root, several counts; an all-reduce is refused on every rank.
      check_reductions(eager, seven, {all[0], all[3], all[5], all[7]}, "eager plans on small_platform.xml",
                       {1, 3, 100, 4096}, true, /*with_allreduce=*/false);
      // The same with every send paced to its planned start (the model's
      // schedule; RuntimeOptions::eager_pacing always).
      RuntimeOptions paced_options;
      paced_options.eager_pacing = RuntimeOptions::EagerPacing::always;
      Runtime paced(seven, platform_dir + "/small_platform.xml", hosts, paced_options, eager_planning);
      check_reductions(paced, seven, {all[0], all[7]}, "paced eager plans on small_platform.xml", {3, 100}, true,
                       /*with_allreduce=*/false);
      check_broadcasts(paced, seven, {all[0]}, "paced eager plans on small_platform.xml");
      const auto& eager_reduce = eager.program_for(Operation::reduce, 3, 64, 1, true);
      report("eager plans on small_platform.xml: a reduce runs the eager plan",
             eager_reduce.model == PlanModel::eager && eager_reduce.name == "eager-auto");
      bool refused = false;
      try {
        std::vector<int> value(4, 1), result(4, 0);
        eager.allreduce(value.data(), result.data(), 4, MPI_INT, MPI_SUM);
      } catch (const MismatchError& error) {
        refused = std::string(error.what()).find("broadcasts and reduces only") != std::string::npos;
      }
      report("eager plans on small_platform.xml: an all-reduce is refused on every rank", refused);
      // The default mapping: rank r plays the r-th host of the file (not
      // the link named "r"), and plans are made for each call's exact size.
      Runtime by_order(seven, platform_dir + "/small_platform.xml");
      const auto loaded = load_platform_file(platform_dir + "/small_platform.xml");
      std::vector<std::string> played;
      for (auto p : by_order.processor_of_rank()) played.push_back(loaded.graph().id(p));
      report("small_platform.xml by default: rank r plays the r-th host",
             played == std::vector<std::string>{"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin",
                                                "Boivin"},
             fmt::format("ranks play {}", fmt::join(played, ",")));
      check_reductions(by_order, seven, {all[0], all[5]}, "default mapping on small_platform.xml", {1, 1000, 200000},
                       true);
      bool exact = true;
      std::string why;
      // The whole-message plans of the same Runtime, the chooser off (it
      // would pick among all candidates; these are the plans it would run
      // without it).
      PlanningOptions plans_only;
      plans_only.choose = false;
      Runtime by_order_plans(seven, platform_dir + "/small_platform.xml", {}, {}, plans_only);
      // (Programs address whole elements: 1004 bytes, not 1001, is the size next to 1000.)
      for (std::size_t bytes : {std::size_t{4}, std::size_t{1000}, std::size_t{1004}, std::size_t{800000}}) {
        const double predicted =
            by_order_plans.program_for(Operation::allreduce, -1, static_cast<int>(bytes / 4), 4, true).predicted_seconds;
        const double expected = plan_for_ranks(loaded, by_order_plans.processor_of_rank(), Operation::allreduce, -1,
                                               static_cast<double>(bytes), "", PlanModel::sender_speed)
                                    .makespan;
        if (predicted != expected) {
          exact = false;
          why += fmt::format("{} bytes: the cached plan predicts {}, the plan for the size {}; ", bytes, predicted,
                             expected);
        }
      }
      const double small = by_order_plans.program_for(Operation::allreduce, -1, 1, 4, true).predicted_seconds;
      const double large = by_order_plans.program_for(Operation::allreduce, -1, 200000, 4, true).predicted_seconds;
      report("small_platform.xml: each all-reduce runs the plan made for its exact size", exact, why);
      report("small_platform.xml: the 4-byte plan is not reused for 800 kB", large > 10 * small,
             fmt::format("predicted {} s for 4 bytes, {} s for 800 kB", small, large));
      // The key holds the datatype size too: 1000 bytes of 4-byte and of
      // 8-byte elements are two plans; the same call again is none.
      const auto before = by_order_plans.cached_programs();
      by_order_plans.program_for(Operation::allreduce, -1, 125, 8, true);
      by_order_plans.program_for(Operation::allreduce, -1, 125, 8, true);
      report("small_platform.xml: plans are cached per datatype size", by_order_plans.cached_programs() == before + 1,
             fmt::format("{} plans before, {} after", before, by_order_plans.cached_programs()));
      report_comm = MPI_COMM_WORLD;
      MPI_Comm_free(&seven);
    }
  }
  // 5. Multicast: targets receive the source's buffer, helpers and others keep theirs.
  {
    MakespanRequest request;
    request.operation = Operation::multicast;
    request.root = 4;
    request.targets = {5, 6, 7};
    auto plan = plan_makespan(Cluster::from_times({1, 1, 1, 1, 8, 8, 8, 8}), request, "");
    auto executable = ExecutablePlan::prepare(MPI_COMM_WORLD, plan, Cluster::from_times({1, 1, 1, 1, 8, 8, 8, 8}).ids());
    std::vector<int> buffer(100, world_rank), expected(100, world_rank);
    if (world_rank >= 4) std::fill(expected.begin(), expected.end(), 4);
    multicast(buffer.data(), 100, MPI_INT, 4, MPI_COMM_WORLD, executable);
    bool helpers_used = plan.helpers.size() > 0;
    report(fmt::format("multicast to 5,6,7 from 4 ({} helpers)", plan.helpers.size()), buffer == expected,
           fmt::format("rank {} got {}", world_rank, buffer[0]));
    (void)helpers_used;
  }
}

void suite_pipeline(const std::string& platform_dir) {
  (void)platform_dir;
  Datatypes types;
  std::vector<std::string> ids;
  for (int r = 0; r < world_size; ++r) ids.push_back(fmt::format("p{}", r));
  std::vector<ProcessorIndex> others;
  struct Family {
    std::string name;
    PipelinedBroadcastPlan plan;
  };
  // Three roots: the first, a middle and the last (every root is covered by
  // the results suite's plain broadcasts; this is about the pipeline).
  for (int root : {0, world_size / 2 + 1, world_size - 1}) {
    std::vector<ProcessorIndex> order;
    for (int p = 0; p < world_size; ++p) {
      if (p != root) order.push_back(p);
    }
    std::vector<ProcessorIndex> reversed(order.rbegin(), order.rend());
    std::vector<Family> families;
    families.push_back({"binomial tree, 400-byte slices", {{{1.0, PipelineTree::binomial(world_size, root)}}, 400, "binomial"}});
    families.push_back({"chain, 12-byte slices", {{{1.0, PipelineTree::chain(root, order)}}, 12, "chain"}});
    families.push_back({"three trees weighted 1:2:3, 200-byte slices",
                        {{{1.0, PipelineTree::binomial(world_size, root)},
                          {2.0, PipelineTree::chain(root, order)},
                          {3.0, PipelineTree::chain(root, reversed)}},
                         200,
                         "multi-tree"}});
    for (const auto& family : families) {
      auto executable = ExecutablePipeline::prepare(MPI_COMM_WORLD, family.plan, ids);
      bool ok = true;
      std::string why;
      for (int count : {1, 100, family.plan.slice_bytes < 100 ? 300 : 20000}) {
        std::vector<int> ours(static_cast<size_t>(count)), theirs;
        for (int i = 0; i < count; ++i) ours[static_cast<size_t>(i)] = world_rank == root ? i * 3 + root : -1;
        theirs = ours;
        bcast(ours.data(), count, MPI_INT, root, MPI_COMM_WORLD, executable);
        MPI_Bcast(theirs.data(), count, MPI_INT, root, MPI_COMM_WORLD);
        if (ours != theirs) {
          ok = false;
          why = fmt::format("count {}", count);
        }
      }
      // A datatype with holes, sliced by elements.
      {
        int count = 300;
        std::vector<int> ours(static_cast<size_t>(count * kStridedExtentInts), -7), theirs;
        for (int i = 0; i < count * kStridedExtentInts; i += 2) ours[static_cast<size_t>(i)] = world_rank == root ? i : -1;
        theirs = ours;
        bcast(ours.data(), count, types.strided, root, MPI_COMM_WORLD, executable);
        MPI_Bcast(theirs.data(), count, types.strided, root, MPI_COMM_WORLD);
        if (ours != theirs) {
          ok = false;
          why = "strided datatype";
        }
      }
      if (root == 0 || root == world_size - 1) report(fmt::format("pipelined bcast, {}, root {}", family.name, root), ok, why);
      else if (!ok) report(fmt::format("pipelined bcast, {}, root {}", family.name, root), ok, why);
    }
  }
}

// A sum of 333 ints reduced with MPI_IN_PLACE at the root by `executable`
// (any plan hetcoll::mpi::reduce runs) equals MPI_Reduce's (at the root).
template <typename Executable>
bool in_place_reduce_matches(const Case& sum_int, int root, const Executable& executable) {
  std::vector<unsigned char> mine, ours, theirs;
  sum_int.fill(mine, 333, world_rank, 5);
  ours = mine;
  theirs.assign(mine.size(), 0);
  reduce(world_rank == root ? MPI_IN_PLACE : mine.data(), ours.data(), 333, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD,
         executable);
  MPI_Reduce(mine.data(), theirs.data(), 333, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  return world_rank != root || ours == theirs;
}

// Segmented reduces along one tree (pipelined_reduce.h) give MPI_Reduce's
// results: three trees, segments of a fraction of an element up to the whole
// vector, commutative predefined and user operations, a datatype with holes,
// MPI_IN_PLACE at the root.
void suite_segmented_reduce() {
  Datatypes types;
  auto all = cases(types);
  std::vector<std::string> ids;
  for (int r = 0; r < world_size; ++r) ids.push_back(fmt::format("p{}", r));
  auto cluster = Cluster::from_times({1, 1, 1, 1, 1.6, 1.6, 1.6, 1.6});
  for (int root : {0, world_size - 1}) {
    std::vector<ProcessorIndex> order;
    for (int p = 0; p < world_size; ++p) {
      if (p != root) order.push_back(p);
    }
    std::vector<PipelinedReducePlan> plans = {
        {PipelineTree::binomial(world_size, root), 12, "binomial tree, 12-byte segments"},
        {PipelineTree::chain(root, order), 400, "chain, 400-byte segments"},
        {reduce_tree_from_plan(plan_for_cluster(cluster, Operation::reduce, root, "snf"), world_size), 1 << 20,
         "snf plan's tree, one segment"}};
    for (const auto& plan : plans) {
      auto executable = ExecutablePipeline::prepare(MPI_COMM_WORLD, as_pipeline(plan), ids);
      bool ok = true;
      std::string why;
      for (int count : {1, 100, 1000}) {
        for (const auto& c : {all[0], all[4], all[6], all[8]}) {
          std::vector<unsigned char> mine, ours, theirs;
          c.fill(mine, count, world_rank, count + root);
          c.fill(ours, count, -1, 0);  // the receive buffer's holes hold the marker, which must survive
          theirs.assign(mine.size(), 0);
          reduce(mine.data(), ours.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD, executable);
          MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD);
          if (world_rank == root && !c.equal(theirs, ours, count)) {
            ok = false;
            why = fmt::format("{}, count {}", c.name, count);
          }
        }
      }
      // MPI_IN_PLACE at the root.
      if (!in_place_reduce_matches(all[0], root, executable)) {
        ok = false;
        why = "MPI_IN_PLACE";
      }
      report(fmt::format("segmented reduce, {}, root {}", plan.algorithm, root), ok, why);
    }
  }
}

// A split plan of the header's structure built by hand (every time 0):
// the elements cut into near-equal pieces for `spreaders`, `chunks` chunks
// each; covers the source spreading its own piece and empty chunks.
SplitBroadcastPlan hand_split_plan(int members, int source, int elements, std::size_t chunks,
                                   const std::vector<int>& spreaders) {
  SplitBroadcastPlan plan;
  for (int m = 0; m < members; ++m) plan.members.push_back(m);
  plan.source = static_cast<std::size_t>(source);
  plan.elements = static_cast<std::size_t>(elements);
  plan.chunks = chunks;
  std::size_t first = 0;
  for (std::size_t i = 0; i < spreaders.size(); ++i) {
    auto [offset, count] = split_chunk_range(plan.elements, spreaders.size(), i);
    (void)offset;
    if (count > 0) plan.pieces.push_back({static_cast<std::size_t>(spreaders[i]), first, count});
    first += count;
  }
  auto add = [&](std::size_t piece, std::size_t chunk, int from, int to) {
    plan.transfers.push_back({piece, chunk, static_cast<std::size_t>(from), static_cast<std::size_t>(to), 0, 0});
  };
  for (std::size_t c = 0; c < chunks; ++c) {
    for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      int spreader = static_cast<int>(plan.pieces[p].spreader);
      if (spreader == source) {
        for (int to = 0; to < members; ++to) if (to != source) add(p, c, source, to);
      } else {
        add(p, c, source, spreader);
      }
    }
  }
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    int spreader = static_cast<int>(plan.pieces[p].spreader);
    if (spreader == source) continue;
    for (std::size_t c = 0; c < chunks; ++c) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      for (int step = 1; step < members; ++step) {
        int to = (spreader + step) % members;
        if (to != source) add(p, c, spreader, to);
      }
    }
  }
  return plan;
}

// Split broadcasts (split_broadcast.h) give MPI_Bcast's results: plans made
// by hand on 8 ranks (the source spreading a piece or not, chunks that
// leave some empty, a datatype with holes), and the planner's own plans on
// small_platform.xml's 7 hosts, for several roots and counts.
void suite_split_broadcast(const std::string& platform_dir) {
  Datatypes types;
  std::vector<std::string> ids;
  for (int r = 0; r < world_size; ++r) ids.push_back(fmt::format("p{}", r));
  auto run = [&](MPI_Comm comm, const CommProgram& executable, int root, int count, MPI_Datatype type,
                 int ints_per_element) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::vector<int> ours(static_cast<size_t>(count * ints_per_element), -7), theirs;
    for (int i = 0; i < count * ints_per_element; ++i) {
      if (ints_per_element == 1 || i % 2 == 0) ours[static_cast<size_t>(i)] = rank == root ? i * 5 + root : -1;
    }
    theirs = ours;
    bcast(ours.data(), count, type, root, comm, executable);
    MPI_Bcast(theirs.data(), count, type, root, comm);
    return ours == theirs;
  };
  for (int root : {0, 3, world_size - 1}) {
    std::vector<int> all, others;
    for (int r = 0; r < world_size; ++r) {
      all.push_back(r);
      if (r != root) others.push_back(r);
    }
    struct Case {
      std::string name;
      std::vector<int> spreaders;
      std::size_t chunks;
    };
    for (const auto& c : {Case{"every other rank spreads, 3 chunks", others, 3},
                          Case{"every rank spreads, the source too, 5 chunks", all, 5},
                          Case{"the source alone (flat tree), 1 chunk", {root}, 1}}) {
      bool ok = true;
      std::string why;
      for (int count : {1, 7, 100, 4097}) {
        auto executable = program_of_split_broadcast(hand_split_plan(world_size, root, count, c.chunks, c.spreaders));
        if (!run(MPI_COMM_WORLD, executable, root, count, MPI_INT, 1)) {
          ok = false;
          why = fmt::format("count {}", count);
        }
      }
      auto strided = program_of_split_broadcast(hand_split_plan(world_size, root, 300, c.chunks, c.spreaders));
      if (!run(MPI_COMM_WORLD, strided, root, 300, types.strided, kStridedExtentInts)) {
        ok = false;
        why = "strided datatype";
      }
      report(fmt::format("split bcast, {}, root {}", c.name, root), ok, why);
    }
  }
  // The planner's plans on small_platform.xml (7 hosts, ranks 0..6 in the file's host order).
  if (world_size < 7) return;
  MPI_Comm seven;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank < 7 ? 0 : MPI_UNDEFINED, world_rank, &seven);
  if (seven != MPI_COMM_NULL) {
    report_comm = seven;
    auto platform = load_platform_file(platform_dir + "/small_platform.xml");
    const auto& graph = platform.graph();
    auto costs = SplitCosts::of(graph, graph.participants());
    std::vector<std::string> hosts;
    for (auto p : graph.participants()) hosts.push_back(graph.id(p));
    for (int root : {0, 6}) {
      bool ok = true;
      std::string why;
      for (int count : {1, 64, 4096}) {
        auto plan = plan_split_broadcast(costs, static_cast<std::size_t>(root), static_cast<std::size_t>(count), 4, 16);
        auto executable = program_of_split_broadcast(plan);
        if (!run(seven, executable, root, count, MPI_INT, 1)) {
          ok = false;
          why = fmt::format("count {} ({})", count, plan.algorithm);
        }
      }
      report(fmt::format("split bcast planned on small_platform.xml, root {}", root), ok, why);
    }
    report_comm = MPI_COMM_WORLD;
    MPI_Comm_free(&seven);
  }
}

// Split reduces (split_reduce.h) give MPI_Reduce's results: every root,
// counts from below the number of pieces to 4096 (not multiples of it),
// commutative predefined and user operations, a datatype with holes,
// MPI_IN_PLACE at the root; plans made on a network of 4 fast and 4 slow
// processors (Fast Ethernet, x1.6) and on one where the first processor is
// the slowest; a non-commutative operation gets MPI_Reduce's result.
void suite_split_reduce() {
  Datatypes types;
  auto all = cases(types);
  std::vector<NicNetwork> networks(2);
  for (int r = 0; r < world_size; ++r) {
    const double f = r < world_size / 2 ? 1.0 : 1.6;
    networks[0].latency.push_back(5e-5 * f);
    networks[0].up_bandwidth.push_back(1.25e7 / f);
    networks[0].down_bandwidth.push_back(1.25e7);
    const double g = 1.0 + static_cast<double>((world_size - r) % 3);
    networks[1].latency.push_back(2e-5 * g);
    networks[1].up_bandwidth.push_back(1.25e8 / g);
    networks[1].down_bandwidth.push_back(1.25e8);
  }
  networks[0].envelope_bytes = 16;
  for (std::size_t which = 0; which < networks.size(); ++which) {
    for (int root = 0; root < world_size; ++root) {
      bool ok = true;
      std::string why;
      SplitReduceOptions quick;
      quick.max_work = 200000;  // about 60 simulations: the sizes matter little here, the plans' structure does
      for (int count : {1, 2, 3, 7, 17, 100, 1001, 4096}) {
        auto plan = plan_split_reduce(networks[which], root, static_cast<std::size_t>(count), 4.0, quick);
        auto executable = program_of_split_reduce(plan);
        for (const auto& c : {all[0], all[3], all[5], all[1], all[8]}) {
          std::vector<unsigned char> mine, ours, theirs;
          c.fill(mine, count, world_rank, count + root);
          c.fill(ours, count, -1, 0);  // the receive buffer's holes hold the marker, which must survive
          theirs.assign(mine.size(), 0);
          reduce(mine.data(), ours.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD, executable);
          MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD);
          if (world_rank == root && !c.equal(theirs, ours, count)) {
            ok = false;
            why = fmt::format("{}, count {} ({} pieces)", c.name, count, plan.pieces.size());
          }
        }
      }
      // MPI_IN_PLACE at the root.
      auto plan = plan_split_reduce(networks[which], root, 333, sizeof(int), quick);
      auto executable = program_of_split_reduce(plan);
      if (!in_place_reduce_matches(all[0], root, executable)) {
        ok = false;
        why = "MPI_IN_PLACE";
      }
      report(fmt::format("split reduce, network {}, root {}", which, root), ok, why);
    }
  }
  // Through the Runtime (PlanningOptions::split_reduces) on a graph of the
  // same 4 fast + 4 slow ranks: the split reduce is chosen where its
  // prediction wins, and the results are MPI_Reduce's.
  {
    std::string graph = R"({"model": "graph", "symmetric": false, "nodes": [)";
    for (int r = 0; r < world_size; ++r) graph += fmt::format(R"({}{{"id": "p{}"}})", r ? ", " : "", r);
    graph += R"(], "edges": [)";
    bool first = true;
    for (int u = 0; u < world_size; ++u) {
      for (int v = 0; v < world_size; ++v) {
        if (u == v) continue;
        const double f = u < world_size / 2 ? 1.0 : 1.6;
        graph += fmt::format(R"({}{{"from": "p{}", "to": "p{}", "latency": {}, "bandwidth": {}}})", first ? "" : ", ", u,
                             v, 5e-5 * f, 1.25e7 / f);
        first = false;
      }
    }
    graph += "]}";
    for (bool enabled : {true, false}) {
      PlanningOptions planning;
      planning.split_reduces = enabled;
      planning.envelope_bytes = 16;
      Runtime runtime(MPI_COMM_WORLD, [&] { return parse_platform_json(graph, "split test graph"); }, RankMapping::by_order(),
                      {}, planning);
      const bool chosen = runtime.split_reduce_for(world_size - 1, 1000, 4) != nullptr;
      report(fmt::format("Runtime {} the split reduce of 1000 ints (split_reduces = {})", enabled ? "chooses" : "never chooses",
                         enabled),
             chosen == enabled, chosen ? "split chosen" : "not chosen");
      bool ok = true;
      std::string why;
      for (int root : {0, world_size - 1}) {
        for (int count : {1, 5, 1000}) {
          for (const auto& c : {all[0], all[3], all[5], all[7]}) {
            std::vector<unsigned char> mine, ours, theirs;
            c.fill(mine, count, world_rank, count + root);
            c.fill(ours, count, -1, 0);
            theirs.assign(mine.size(), 0);
            runtime.reduce(mine.data(), ours.data(), count, c.datatype, c.op, root);
            MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD);
            if (world_rank == root && !c.equal(theirs, ours, count)) {
              ok = false;
              why = fmt::format("{}, count {}, root {}", c.name, count, root);
            }
          }
        }
      }
      report(fmt::format("Runtime::reduce with split_reduces = {} gives MPI_Reduce's results", enabled), ok, why);
    }
  }
}

// Split all-reduces (split_allreduce.h) give MPI_Allreduce's results on
// every rank: plans made by the planner on Liu, Kuo, Wang's 8 hosts and
// rescheduled with other chunk counts, counts from below the number of
// pieces to 4097, commutative predefined and user operations, MPI_IN_PLACE;
// a non-commutative operation is refused on every rank.
void suite_split_allreduce() {
  Datatypes types;
  auto all = cases(types);
  std::vector<std::string> ids;
  for (int r = 0; r < world_size; ++r) ids.push_back(fmt::format("p{}", r));
  if (world_size != 8) return;
  auto platform = hetcoll::testing::liu_kuo_wang_sender_speed_graph();
  auto costs = SplitCosts::of(platform, platform.participants());
  // The program's results equal MPI_Allreduce's for an int sum, an int max
  // and a user gcd (4-byte elements: the plans are made for them; any size
  // runs, these are enough); `why` names the first that differs.
  auto check_predefined_and_user_ops = [&](const CommProgram& executable, int count, bool& ok, std::string& why) {
    for (const auto& c : {all[0], all[3], all[5]}) {
      if (c.extent != 4) continue;
      std::vector<unsigned char> mine, ours, theirs;
      c.fill(mine, count, world_rank, count);
      ours.assign(mine.size(), 0);
      theirs.assign(mine.size(), 0);
      allreduce(mine.data(), ours.data(), count, c.datatype, c.op, MPI_COMM_WORLD, executable);
      MPI_Allreduce(mine.data(), theirs.data(), count, c.datatype, c.op, MPI_COMM_WORLD);
      if (!c.equal(theirs, ours, count)) {
        ok = false;
        why = fmt::format("{}, count {}", c.name, count);
      }
    }
  };
  for (std::size_t chunks : {0, 1, 3}) {  // 0: the planner's own choice
    bool ok = true;
    std::string why, description;
    for (int count : {1, 5, 100, 4097}) {
      auto plan = plan_split_allreduce(costs, static_cast<std::size_t>(count), 4, 16);
      if (chunks > 0) {
        plan.chunks = chunks;
        schedule_split_allreduce(plan, costs);
      }
      description = fmt::format("{} pieces, {} chunks", plan.pieces.size(), plan.chunks);
      auto executable = program_of_split_allreduce(plan);
      check_predefined_and_user_ops(executable, count, ok, why);
      // MPI_IN_PLACE.
      std::vector<unsigned char> mine, theirs;
      all[0].fill(mine, count, world_rank, 3);
      theirs.assign(mine.size(), 0);
      MPI_Allreduce(mine.data(), theirs.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      allreduce(MPI_IN_PLACE, mine.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD, executable);
      if (mine != theirs) {
        ok = false;
        why = fmt::format("MPI_IN_PLACE, count {}", count);
      }
    }
    report(fmt::format("split allreduce, {} chunks ({} at 4097 ints)", chunks == 0 ? "the planner's" : std::to_string(chunks),
                       description),
           ok, why);
  }
  // Plans of the NIC fluid model (split_allreduce_nic.h), each pacing.
  const auto network = nic_network_from_platform(platform, 16);
  for (double pace : {1.0, 0.0, -1.0}) {
    bool ok = true;
    std::string why;
    for (int count : {1, 5, 100, 4097}) {
      const auto count_elements = static_cast<std::size_t>(count);
      std::vector<std::size_t> sizes(8, 0);
      for (std::size_t e = 0; e < count_elements; ++e) ++sizes[e % 5];  // three ranks without a piece
      auto plan = make_split_allreduce_nic(network, count_elements, 4, sizes, count > 8 ? 3 : 1, pace);
      auto executable = program_of_split_allreduce(plan);
      check_predefined_and_user_ops(executable, count, ok, why);
    }
    report(fmt::format("split allreduce planned in the NIC fluid model, pace {}", pace), ok, why);
  }
}

// Each case must throw MismatchError on every rank (and nothing may hang).
void expect_mismatch_everywhere(const std::string& name, const std::string& expected_text,
                                const std::function<void()>& action) {
  std::string message;
  bool thrown = false;
  try {
    action();
  } catch (const MismatchError& error) {
    thrown = true;
    message = error.what();
  }
  bool ok = thrown && message.find(expected_text) != std::string::npos;
  report("mismatch: " + name, ok, thrown ? "message: " + message : "no MismatchError");
  if (world_rank == 0 && std::getenv("HETCOLL_TEST_VERBOSE")) std::printf("  rank 0 said: %s\n", message.c_str());
}

void suite_mismatch(const std::string& platform_dir, const std::string& work_dir) {
  auto platform = load_platform_file(platform_path(platform_dir));
  const auto& cluster = platform.cluster();
  auto reduce_plan = plan_for_cluster(cluster, Operation::reduce, 0, "snf");
  auto six = Cluster::from_times({1, 1, 1, 2, 2, 2});
  expect_mismatch_everywhere("plan for 6 processors on 8 ranks", "the plan has 6 processors but the communicator 8 ranks", [&] {
    ExecutablePlan::prepare(MPI_COMM_WORLD, plan_for_cluster(six, Operation::reduce, 0, ""), six.ids());
  });
  expect_mismatch_everywhere("segmented reduce with a non-commutative operation", "needs a commutative operation", [&] {
    Datatypes types;
    auto affine = cases(types)[7];
    std::vector<std::string> ids;
    for (int r = 0; r < world_size; ++r) ids.push_back(fmt::format("p{}", r));
    auto executable = ExecutablePipeline::prepare(
        MPI_COMM_WORLD, as_pipeline({PipelineTree::binomial(world_size, 0), 64, "binomial"}), ids);
    std::vector<unsigned char> mine, result;
    affine.fill(mine, 10, world_rank, 1);
    result = mine;
    reduce(mine.data(), result.data(), 10, affine.datatype, affine.op, 0, MPI_COMM_WORLD, executable);
  });
  expect_mismatch_everywhere("rank 3 holds another plan", "the ranks hold different plans", [&] {
    auto plan = world_rank == 3 ? plan_for_cluster(cluster, Operation::reduce, 1, "snf") : reduce_plan;
    ExecutablePlan::prepare(MPI_COMM_WORLD, plan, cluster.ids());
  });
  expect_mismatch_everywhere("unknown processor in the mapping (rank 2's view)", "no such processor", [&] {
    std::vector<std::string> ids = cluster.ids();
    if (world_rank == 2) ids[5] = "no-such-host";
    ExecutablePlan::prepare(MPI_COMM_WORLD, reduce_plan, cluster.ids(), RankMapping::explicit_list(ids));
  });
  expect_mismatch_everywhere("processor played twice", "both play processor", [&] {
    std::vector<std::string> ids = cluster.ids();
    ids[1] = ids[0];
    ExecutablePlan::prepare(MPI_COMM_WORLD, reduce_plan, cluster.ids(), RankMapping::explicit_list(ids));
  });
  expect_mismatch_everywhere("a reduce where a processor sends twice", "already sent its partial result", [&] {
    auto broken = reduce_plan;
    auto extra = broken.transfers.front();
    extra.start += 100;
    extra.end += 100;
    extra.to = extra.to == 0 ? 1 : 0;
    broken.transfers.push_back(extra);
    ExecutablePlan::prepare(MPI_COMM_WORLD, broken, cluster.ids());
  });
  expect_mismatch_everywhere("plan file missing on rank 5 only", "rank 5 reports", [&] {
    std::string path = work_dir + "/mismatch-plan.json";
    if (world_rank == 0) {
      std::ofstream out(path);
      write_plan_json(out, reduce_plan, cluster);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    ExecutablePlan::from_files(MPI_COMM_WORLD, world_rank == 5 ? path + ".missing" : path, platform_path(platform_dir));
  });
  // A rank map naming a link of small_platform.xml ("145": SimGrid's
  // link ids are numbers, none an index of its 7 hosts) is refused, naming it.
  {
    MPI_Comm seven;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < 7 ? 0 : MPI_UNDEFINED, world_rank, &seven);
    if (seven != MPI_COMM_NULL) {
      report_comm = seven;
      expect_mismatch_everywhere("a rank map naming a link", "\"145\" is a network link, not a host", [&] {
        Runtime runtime(seven, platform_dir + "/small_platform.xml",
                        RankMapping::parse("Tremblay,Jupiter,Fafard,145,Bourassa,Jacquelin,Boivin"));
      });
      report_comm = MPI_COMM_WORLD;
      MPI_Comm_free(&seven);
    }
  }
  expect_mismatch_everywhere("platform with fewer processors than ranks (Runtime)", "ranks but the platform only", [&] {
    std::string path = work_dir + "/four.json";
    if (world_rank == 0) std::ofstream(path) << R"({"model": "cluster", "processors": [{"id": "a", "t": 1}, {"id": "b", "t": 2}, {"id": "c", "t": 1}, {"id": "d", "t": 3}]})";
    MPI_Barrier(MPI_COMM_WORLD);
    Runtime runtime(MPI_COMM_WORLD, path);
  });
  {
    auto plan = ExecutablePlan::prepare(MPI_COMM_WORLD, reduce_plan, cluster.ids());
    int value = 1, result = 0;
    expect_mismatch_everywhere("reduce called with another root than the plan's", "but the plan's root is rank 0", [&] {
      reduce(&value, &result, 1, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, plan);
    });
    expect_mismatch_everywhere("a reduce plan used for a bcast", "the plan is for a reduce, not a broadcast", [&] {
      bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, plan);
    });
    MPI_Comm copy;
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &copy);
    expect_mismatch_everywhere("another communicator", "prepared on another communicator", [&] {
      reduce(&value, &result, 1, MPI_INT, MPI_SUM, 0, copy, plan);
    });
    MPI_Comm_free(&copy);
    // And the plan still works after all that.
    reduce(&value, &result, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, plan);
    report("plan usable after the refused calls", world_rank != 0 || result == world_size);
  }
}

// Rank 0, the source, skips a broadcast; the others must abort after their
// timeout with a message (checked by run_mpi_test.sh), not hang. With
// `prepared`, the plan was prepared by everyone before, so the others wait
// for a message; without, they wait for rank 0 to join the preparation.
void suite_timeout_victim(const std::string& platform_dir, bool prepared) {
  RuntimeOptions options;
  options.timeout_seconds = 2;
  Runtime runtime(MPI_COMM_WORLD, platform_path(platform_dir), {}, options);
  if (prepared) runtime.program_for(Operation::broadcast, 0, 1, sizeof(int), true);
  int value = 1;
  if (world_rank != 0) runtime.bcast(&value, 1, MPI_INT, 0);
  if (world_rank == 0) {
    // Wait for the others to give up (they abort the job).
    double start = MPI_Wtime();
    while (MPI_Wtime() - start < 30) {
      struct timespec pause{0, 50'000'000};
      nanosleep(&pause, nullptr);
    }
  }
  std::printf("rank %d: not aborted\n", world_rank);
  std::fflush(stdout);
}


// Every program the chooser can pick (registry/program_chooser.h: MPI
// libraries' algorithms and hetcoll's plans lowered to programs), run by the
// program executor (program_executor.h), gives MPI_Bcast's, MPI_Reduce's and
// MPI_Allreduce's results: commutative operations, predefined and derived
// datatypes (with holes), MPI_IN_PLACE, several counts and roots; and the
// Runtime's default (the chooser) on the same platform and on a
// sub-communicator.
void suite_programs() {
  Datatypes types;
  auto all = cases(types);
  std::vector<Case> commutative;
  for (const auto& c : all) {
    // sum/int, sum/double, gcd/int, the strided type: predefined and user
    // operations, a derived datatype with holes.
    if (c.name == "sum/int" || c.name == "sum/double" || c.name == "gcd/int" || c.extent == kStridedExtentInts * sizeof(int)) {
      commutative.push_back(c);
    }
  }
  // A NIC cluster of the world's ranks: hosts of three speeds.
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  for (int i = 0; i < world_size; ++i) xml += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
  for (int i = 0; i < world_size; ++i) {
    xml += fmt::format(R"(<link id="h{}_up" bandwidth="{}MBps" latency="20us"/><link id="h{}_down" bandwidth="100MBps" latency="0us"/>)",
                       i, i % 3 == 0 ? 100 : i % 3 == 1 ? 25 : 10, i);
  }
  for (int i = 0; i < world_size; ++i) {
    for (int j = 0; j < world_size; ++j) {
      if (i != j) xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="h{}_up"/><link_ctn id="h{}_down"/></route>)", i, j, i, j);
    }
  }
  xml += "</zone></platform>";
  const LoadedPlatform platform{parse_simgrid_xml(xml, "programs.xml"), "programs.xml"};
  // The same hosts in two sites (the first half and the rest) joined by a
  // 5 ms, 12.5 MB/s WAN link per direction: where hetcoll:sites applies.
  std::string two_sites = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  for (int i = 0; i < world_size; ++i) two_sites += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
  for (int i = 0; i < world_size; ++i) {
    two_sites += fmt::format(R"(<link id="h{}_up" bandwidth="{}MBps" latency="20us"/><link id="h{}_down" bandwidth="100MBps" latency="0us"/>)",
                             i, i % 3 == 0 ? 100 : i % 3 == 1 ? 25 : 10, i);
  }
  two_sites += R"(<link id="wan_0_1" bandwidth="12.5MBps" latency="5ms"/><link id="wan_1_0" bandwidth="12.5MBps" latency="5ms"/>)";
  for (int i = 0; i < world_size; ++i) {
    for (int j = 0; j < world_size; ++j) {
      const int site_i = 2 * i / world_size, site_j = 2 * j / world_size;
      const std::string wan = site_i == site_j ? "" : fmt::format(R"(<link_ctn id="wan_{}_{}"/>)", site_i, site_j);
      if (i != j) two_sites += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="h{}_up"/>{}<link_ctn id="h{}_down"/></route>)", i, j, i, wan, j);
    }
  }
  two_sites += "</zone></platform>";
  const LoadedPlatform two_site_platform{parse_simgrid_xml(two_sites, "two-sites.xml"), "two-sites.xml"};
  MPI_Comm private_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &private_comm);
  const std::vector<int> counts = {1, 1000, 20000};
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    std::vector<std::string> names;
    for (const auto& algorithm : mpi_algorithms()) {
      if (algorithm.operation == operation) names.push_back(fmt::format("mpi:{}", algorithm.name));
    }
    names.emplace_back("hetcoll:graph");
    names.emplace_back("hetcoll:sender-speed");
    if (operation != Operation::allreduce) names.emplace_back("hetcoll:eager");
    names.emplace_back("hetcoll:sites");  // on the two-site platform
    for (const auto& name : names) {
      const LoadedPlatform& program_platform = name == "hetcoll:sites" ? two_site_platform : platform;
      const auto program_members = program_platform.graph().participants();
      bool ok = true;
      std::string why;
      int ran = 0;
      for (const auto& c : commutative) {
        if (operation == Operation::broadcast && c.op != MPI_SUM && c.extent != kStridedExtentInts * sizeof(int)) continue;
        for (int count : counts) {
          for (int root : {0, world_size - 1}) {
            CallShape call;
            call.operation = operation;
            call.root = root;
            call.count = static_cast<std::size_t>(count);
            int type_size = 0;
            MPI_Type_size(c.datatype, &type_size);
            call.element_bytes = static_cast<std::size_t>(type_size);
            std::unique_ptr<CommProgram> program;
            try {
              program = std::make_unique<CommProgram>(candidate_program(program_platform, program_members, call, name));
            } catch (const InputError&) {
              continue;  // not a candidate for this call (the chooser refuses it too)
            }
            ++ran;
            std::vector<unsigned char> mine, ours, theirs;
            c.fill(mine, count, world_rank, count + root);
            const bool holes = c.extent == kStridedExtentInts * sizeof(int);
            auto garbage = [&](std::vector<unsigned char>& buffer) {
              c.fill(buffer, count, -1, 0);
              if (holes) {
                auto* data = reinterpret_cast<int*>(buffer.data());
                for (int i = 1; i < count * kStridedExtentInts; i += 2) data[i] = -7;
              }
            };
            if (operation == Operation::broadcast) {
              ours = mine;
              theirs = mine;
              bcast(ours.data(), count, c.datatype, root, *program, private_comm, MPI_COMM_WORLD, {});
              MPI_Bcast(theirs.data(), count, c.datatype, root, MPI_COMM_WORLD);
              if (ours != theirs) { ok = false; why = fmt::format("{} count {} root {}", c.name, count, root); }
            } else if (operation == Operation::reduce) {
              garbage(ours);
              theirs.assign(mine.size(), 0);
              reduce(mine.data(), ours.data(), count, c.datatype, c.op, root, *program, private_comm, MPI_COMM_WORLD, {});
              MPI_Reduce(mine.data(), theirs.data(), count, c.datatype, c.op, root, MPI_COMM_WORLD);
              if (world_rank == root && !c.equal(theirs, ours, count)) { ok = false; why = fmt::format("{} count {} root {}", c.name, count, root); }
              ours = mine;  // MPI_IN_PLACE at the root
              reduce(world_rank == root ? MPI_IN_PLACE : mine.data(), ours.data(), count, c.datatype, c.op, root,
                     *program, private_comm, MPI_COMM_WORLD, {});
              if (world_rank == root && !c.equal(theirs, ours, count)) { ok = false; why = fmt::format("{} in place count {} root {}", c.name, count, root); }
            } else {
              if (root != 0) continue;
              garbage(ours);
              theirs.assign(mine.size(), 0);
              allreduce(mine.data(), ours.data(), count, c.datatype, c.op, *program, private_comm, MPI_COMM_WORLD, {});
              MPI_Allreduce(mine.data(), theirs.data(), count, c.datatype, c.op, MPI_COMM_WORLD);
              if (!c.equal(theirs, ours, count)) { ok = false; why = fmt::format("{} count {}", c.name, count); }
              ours = mine;
              allreduce(MPI_IN_PLACE, ours.data(), count, c.datatype, c.op, *program, private_comm, MPI_COMM_WORLD, {});
              if (!c.equal(theirs, ours, count)) { ok = false; why = fmt::format("{} in place count {}", c.name, count); }
            }
          }
        }
      }
      report(fmt::format("program {} ({}): {} calls equal MPI's", name, to_string(operation), ran), ok && ran > 0,
             ran > 0 ? why : "never a candidate");
    }
  }
  // MPI_Allgather: every modelled MPI algorithm and the split all-gather,
  // every datatype (derived and strided ones too), in place or not.
  {
    std::vector<std::string> names;
    for (const auto& algorithm : mpi_algorithms()) {
      if (algorithm.operation == Operation::allgather) names.push_back(fmt::format("mpi:{}", algorithm.name));
    }
    names.emplace_back("hetcoll:split");
    const auto members = platform.graph().participants();
    for (const auto& name : names) {
      bool ok = true;
      std::string why;
      int ran = 0;
      for (const auto& c : commutative) {
        if (c.name == "gcd/int") continue;  // one per datatype (int, double, strided): no operation here
        for (int count : counts) {
          CallShape call;
          call.operation = Operation::allgather;
          call.count = static_cast<std::size_t>(count);
          int type_size = 0;
          MPI_Type_size(c.datatype, &type_size);
          call.element_bytes = static_cast<std::size_t>(type_size);
          std::unique_ptr<CommProgram> program;
          try {
            program = std::make_unique<CommProgram>(candidate_program(platform, members, call, name));
          } catch (const InputError&) {
            continue;  // not a candidate for this call (the chooser refuses it too)
          }
          ++ran;
          const int all = count * world_size;
          std::vector<unsigned char> mine, ours, theirs;
          c.fill(mine, count, world_rank, count);
          c.fill(ours, all, -1, 0);
          c.fill(theirs, all, -2, 0);
          allgather(mine.data(), ours.data(), count, c.datatype, *program, private_comm, MPI_COMM_WORLD, {});
          MPI_Allgather(mine.data(), count, c.datatype, theirs.data(), count, c.datatype, MPI_COMM_WORLD);
          if (!c.equal(theirs, ours, all)) { ok = false; why = fmt::format("{} count {}", c.name, count); }
          // In place: the rank's own block already in the receive buffer.
          c.fill(ours, all, -1, 0);
          const std::size_t block_bytes = mine.size();
          std::copy(mine.begin(), mine.end(), ours.begin() + static_cast<std::ptrdiff_t>(block_bytes) * world_rank);
          allgather(MPI_IN_PLACE, ours.data(), count, c.datatype, *program, private_comm, MPI_COMM_WORLD, {});
          if (!c.equal(theirs, ours, all)) { ok = false; why = fmt::format("{} in place count {}", c.name, count); }
        }
      }
      report(fmt::format("program {} (allgather): {} calls equal MPI's", name, ran), ok && ran > 0,
             ran > 0 ? why : "never a candidate");
    }
  }
  MPI_Comm_free(&private_comm);
  // The Runtime's default: the chooser's pick per call, on the world and on
  // a sub-communicator (odd and even ranks, each on its own hosts).
  {
    Runtime runtime(MPI_COMM_WORLD, [&] { return platform; });
    check_reductions(runtime, MPI_COMM_WORLD, commutative, "chooser", {1, 64, 4096, 20000}, false);
    check_broadcasts(runtime, MPI_COMM_WORLD, {commutative[0], commutative[3]}, "chooser");
    report("chooser: decisions cached per call", runtime.chosen_for(Operation::broadcast, 0, 4096, 4, true) != nullptr);
  }
  // On two sites the chooser runs site plans (hetcoll:sites) where they are
  // predicted fastest: same results as MPI's.
  {
    Runtime runtime(MPI_COMM_WORLD, [&] { return two_site_platform; });
    check_reductions(runtime, MPI_COMM_WORLD, commutative, "chooser on two sites", {1, 1000, 20000}, false);
    check_broadcasts(runtime, MPI_COMM_WORLD, {commutative[0], commutative[3]}, "chooser on two sites");
    const auto* chosen = runtime.chosen_for(Operation::allreduce, 0, 20000, 4, true);
    report("chooser on two sites: a 20000-int all-reduce runs the site plan",
           chosen != nullptr && chosen->name == "hetcoll:sites", chosen != nullptr ? chosen->name : "nothing cached");
  }
  {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    std::vector<std::string> ids;
    for (int r = world_rank % 2; r < world_size; r += 2) ids.push_back(fmt::format("h{}", r));
    Runtime runtime(half, [&] { return platform; }, RankMapping::explicit_list(ids));
    check_reductions(runtime, half, {commutative[0], commutative[2]}, "chooser on a sub-communicator", {1, 5000}, true);
    MPI_Comm_free(&half);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (argc < 4) {
    if (world_rank == 0) std::fprintf(stderr, "usage: %s results|pipeline|mismatch|timeout-transfer|timeout-prepare PLATFORM_DIR WORK_DIR\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  std::string suite = argv[1], platform_dir = argv[2], work_dir = argv[3];
  if (world_size != 8 && suite != "pipeline" && suite != "split") {
    if (world_rank == 0) std::fprintf(stderr, "run with 8 ranks (mpirun -np 8)\n");
    MPI_Finalize();
    return 2;
  }
  double start = MPI_Wtime();
  try {
    if (suite == "results") suite_results(platform_dir, work_dir);
    else if (suite == "pipeline") {
      suite_pipeline(platform_dir);
      suite_segmented_reduce();
      suite_split_broadcast(platform_dir);
      suite_split_allreduce();
    }
    else if (suite == "split") suite_split_reduce();
    else if (suite == "programs") suite_programs();
    else if (suite == "mismatch") suite_mismatch(platform_dir, work_dir);
    else if (suite == "timeout-transfer") suite_timeout_victim(platform_dir, true);
    else if (suite == "timeout-prepare") suite_timeout_victim(platform_dir, false);
    else {
      if (world_rank == 0) std::fprintf(stderr, "unknown suite %s\n", suite.c_str());
      MPI_Finalize();
      return 2;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rank %d: unexpected exception: %s\n", world_rank, error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (world_rank == 0) {
    std::printf("%s: %d checks, %d failed (%.1f s)\n", suite.c_str(), checks, failures, MPI_Wtime() - start);
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
