// A plain MPI program that knows nothing of hetcoll: MPI_Bcast, MPI_Reduce,
// MPI_Allreduce and MPI_Allgather on MPI_COMM_WORLD and on a sub-communicator, predefined
// and user-defined operations (one not commutative), several datatypes and
// counts, every root. Rank 0 prints one line per call with a hash of every
// rank's result, so two runs (with and without libhetcoll_pmpi.so
// preloaded) can be compared with diff. Built against MPI only.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::uint64_t hash_bytes(const void* data, std::size_t bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

void gcd_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::gcd(a[i], b[i]);
}

// 2x2 matrices over uint32 (mod 2^32), multiplied: not commutative.
void matrix_product(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<std::uint32_t*>(in);
  auto* b = static_cast<std::uint32_t*>(inout);
  for (int i = 0; i < *len; ++i) {
    std::uint32_t* x = a + 4 * i;
    std::uint32_t* y = b + 4 * i;
    std::uint32_t r[4] = {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
                          x[2] * y[1] + x[3] * y[3]};
    for (int k = 0; k < 4; ++k) y[k] = r[k];
  }
}

// printf into a std::string (GCC 12 warns falsely on long chains of +).
template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, args...);
  return text;
}

// Prints (on world rank 0) the hashes every rank of `comm` computed.
void print_line(MPI_Comm comm, const std::string& label, std::uint64_t mine) {
  int rank = 0, size = 0, world_rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  std::vector<unsigned long long> all(static_cast<size_t>(size));
  unsigned long long value = mine;
  MPI_Gather(&value, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  // Rank 0 of the communicator passes its line to world rank 0 in order.
  std::string line = label;
  line += ':';
  for (auto h : all) line += format(" %llu", h % 100000007ULL);
  if (rank == 0 && world_rank != 0) {
    MPI_Send(line.c_str(), static_cast<int>(line.size()), MPI_CHAR, 0, 77, MPI_COMM_WORLD);
  }
  if (world_rank == 0) std::printf("%s\n", line.c_str());
}

constexpr int kCounts[] = {1, 64, 4096};
constexpr int kCountCount = 3;
constexpr int kAllgatherCounts[] = {1, 100, 4096};
constexpr int kAllgatherLines = 3 * 3 + 1;  // per communicator

struct Operation {
  const char* name;
  MPI_Datatype datatype;
  MPI_Op op;
  int ints_per_element;  // the buffer is ints (or floats of int size for MPI_FLOAT)
  bool floating;
};

void run(MPI_Comm comm, const char* comm_name, const std::vector<Operation>& operations) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (const auto& operation : operations) {
    for (int count : kCounts) {
      std::size_t ints = static_cast<std::size_t>(count) * static_cast<std::size_t>(operation.ints_per_element);
      std::vector<int> mine(ints), result(ints);
      for (std::size_t i = 0; i < ints; ++i) {
        auto x = mix(static_cast<std::uint32_t>(rank * 1000003 + i * 7 + count));
        if (operation.floating) {
          float value = static_cast<float>(x % 2000) - 1000.0f;  // integers: sums are exact
          std::memcpy(&mine[i], &value, sizeof value);
        } else if (operation.op == MPI_SUM) {
          mine[i] = static_cast<int>(x % 100000);
        } else {
          mine[i] = static_cast<int>(6 * (1 + x % 1000));
        }
      }
      for (int root = 0; root < size; ++root) {
        std::fill(result.begin(), result.end(), 0);
        MPI_Reduce(mine.data(), result.data(), count, operation.datatype, operation.op, root, comm);
        std::uint64_t h = rank == root ? hash_bytes(result.data(), ints * sizeof(int)) : 0;
        // Hashes from the root only: print_line gathers every rank's value.
        print_line(comm, format("%s MPI_Reduce %s count %d root %d", comm_name, operation.name, count, root), h);
      }
      std::fill(result.begin(), result.end(), 0);
      MPI_Allreduce(mine.data(), result.data(), count, operation.datatype, operation.op, comm);
      print_line(comm, format("%s MPI_Allreduce %s count %d", comm_name, operation.name, count),
                 hash_bytes(result.data(), ints * sizeof(int)));
      std::vector<int> in_place = mine;
      MPI_Allreduce(MPI_IN_PLACE, in_place.data(), count, operation.datatype, operation.op, comm);
      print_line(comm, format("%s MPI_Allreduce in place %s count %d", comm_name, operation.name, count),
                 hash_bytes(in_place.data(), ints * sizeof(int)));
    }
  }
  for (int count : {1, 100, 4096, 100000}) {
    for (int root = 0; root < size; ++root) {
      std::vector<int> buffer(static_cast<size_t>(count));
      for (int i = 0; i < count; ++i) buffer[static_cast<size_t>(i)] = rank == root ? i * 13 + root : -1;
      MPI_Bcast(buffer.data(), count, MPI_INT, root, comm);
      print_line(comm, format("%s MPI_Bcast count %d root %d", comm_name, count, root),
                 hash_bytes(buffer.data(), buffer.size() * sizeof(int)));
    }
  }
  // MPI_Allgather: ints, in place, a derived datatype (4 uint32 per element),
  // and send/receive sides of different datatypes (the library's call).
  MPI_Datatype quad;
  MPI_Type_contiguous(4, MPI_UINT32_T, &quad);
  MPI_Type_commit(&quad);
  for (int count : kAllgatherCounts) {
    const auto block = static_cast<std::size_t>(count);
    std::vector<int> mine(4 * block), all(4 * block * static_cast<std::size_t>(size), -1);
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = static_cast<int>(mix(static_cast<std::uint32_t>(rank * 7919 + i)));
    MPI_Allgather(mine.data(), count, MPI_INT, all.data(), count, MPI_INT, comm);
    print_line(comm, format("%s MPI_Allgather int count %d", comm_name, count),
               hash_bytes(all.data(), block * static_cast<std::size_t>(size) * sizeof(int)));
    std::fill(all.begin(), all.end(), -1);
    std::copy(mine.begin(), mine.begin() + count, all.begin() + static_cast<std::ptrdiff_t>(rank) * count);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), count, MPI_INT, comm);
    print_line(comm, format("%s MPI_Allgather in place int count %d", comm_name, count),
               hash_bytes(all.data(), block * static_cast<std::size_t>(size) * sizeof(int)));
    std::fill(all.begin(), all.end(), -1);
    MPI_Allgather(mine.data(), count, quad, all.data(), count, quad, comm);
    print_line(comm, format("%s MPI_Allgather 4 x uint32 (derived) count %d", comm_name, count),
               hash_bytes(all.data(), all.size() * sizeof(int)));
  }
  {
    std::vector<int> mine(8, rank), all(8 * static_cast<std::size_t>(size), -1);
    MPI_Allgather(mine.data(), 8 * static_cast<int>(sizeof(int)), MPI_BYTE, all.data(), 8, MPI_INT, comm);
    print_line(comm, format("%s MPI_Allgather bytes to ints", comm_name), hash_bytes(all.data(), all.size() * sizeof(int)));
  }
  MPI_Type_free(&quad);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Op gcd, product;
  MPI_Op_create(gcd_op, 1, &gcd);
  MPI_Op_create(matrix_product, 0, &product);
  MPI_Datatype matrix;
  MPI_Type_contiguous(4, MPI_UINT32_T, &matrix);
  MPI_Type_commit(&matrix);
  std::vector<Operation> operations = {
      {"MPI_SUM int", MPI_INT, MPI_SUM, 1, false},
      {"MPI_SUM float", MPI_FLOAT, MPI_SUM, 1, true},
      {"gcd int (user)", MPI_INT, gcd, 1, false},
      {"matrix product (user, not commutative)", matrix, product, 4, false},
  };
  run(MPI_COMM_WORLD, "world", operations);
  // A sub-communicator: the odd ranks. World rank 0 prints the lines that
  // rank 1 (its rank 0) sends it.
  MPI_Comm odd;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2 ? 0 : MPI_UNDEFINED, world_rank, &odd);
  if (world_rank % 2 == 1) {
    std::vector<Operation> some = {operations[2], operations[3]};
    run(odd, "odd ranks", some);
    MPI_Comm_free(&odd);
  }
  if (world_rank == 0) {
    // Lines of the sub-communicator runs, sent by world rank 1.
    int expected = 2 * kCountCount * (world_size / 2 + 2) + 4 * (world_size / 2) + kAllgatherLines;
    for (int i = 0; i < expected; ++i) {
      MPI_Status status;
      MPI_Probe(1, 77, MPI_COMM_WORLD, &status);
      int length = 0;
      MPI_Get_count(&status, MPI_CHAR, &length);
      std::string line(static_cast<size_t>(length), '\0');
      MPI_Recv(line.data(), length, MPI_CHAR, 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::printf("%s\n", line.c_str());
    }
  }
  MPI_Type_free(&matrix);
  MPI_Op_free(&gcd);
  MPI_Op_free(&product);
  MPI_Finalize();
  return 0;
}
