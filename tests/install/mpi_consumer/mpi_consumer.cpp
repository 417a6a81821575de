// Sums the ranks with hetcoll's all-reduce on the platform given as argv[1]
// and checks the sum (tests/install/run_install_test.sh builds it against the
// installed package; run it under mpirun).
#include <hetcoll/mpi/runtime.h>
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: mpi_consumer PLATFORM_FILE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sum = 0;
  {
    hetcoll::mpi::Runtime runtime(MPI_COMM_WORLD, argv[1]);
    runtime.allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM);
  }
  const bool correct = sum == size * (size - 1) / 2;
  if (rank == 0) {
    std::printf("mpi_consumer: %d ranks, all-reduce sum %d (%s)\n", size, sum, correct ? "correct" : "WRONG");
  }
  MPI_Finalize();
  return correct ? 0 : 1;
}
