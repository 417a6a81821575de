/* Hand-written stand-in for the mpitestconf.h that MPICH's test suite
 * generates with configure: what the unmodified programs and mtest.c need
 * on a Linux system with glibc and Open MPI. Not part of MPICH. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDARG_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#endif
