/* One MPI_Bcast, MPI_Reduce (MPI_SUM), MPI_Allreduce or MPI_Allgather (COUNT per rank) of COUNT doubles,
 * timed from MPI_Init: prints "RANK r end" per rank. Run under smpirun by
 * run_smpi_algorithms_test.sh. Usage: smpi_collective bcast|reduce|allreduce COUNT ROOT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: smpi_collective bcast|reduce|allreduce|allgather COUNT ROOT\n");
    MPI_Finalize();
    return 2;
  }
  const int count = atoi(argv[2]);
  const int root = atoi(argv[3]);
  double* data = calloc((size_t)count + 1, sizeof(double));
  double* result = calloc((size_t)count * (size_t)size + 1, sizeof(double));
  for (int i = 0; i < count; ++i) data[i] = rank + i;
  const double start = MPI_Wtime();
  if (strcmp(argv[1], "bcast") == 0) {
    MPI_Bcast(data, count, MPI_DOUBLE, root, MPI_COMM_WORLD);
  } else if (strcmp(argv[1], "reduce") == 0) {
    MPI_Reduce(data, result, count, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  } else if (strcmp(argv[1], "allgather") == 0) {
    MPI_Allgather(data, count, MPI_DOUBLE, result, count, MPI_DOUBLE, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(data, result, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  printf("RANK %d %.9f %.9f\n", rank, start, MPI_Wtime());
  free(data);
  free(result);
  MPI_Finalize();
  return 0;
}
