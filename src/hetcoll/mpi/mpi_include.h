// The one place the MPI header is included, so every file of the runtime
// sees the C interface only (OMPI_SKIP_MPICXX / MPICH_SKIP_MPICXX are also
// set by the build) whether it is compiled against Open MPI, MPICH or
// SimGrid SMPI (smpicxx).
#pragma once

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
