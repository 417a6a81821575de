#!/usr/bin/env bash
# Runs MPICH's unmodified collective tests (mpich/README.md) under Open MPI
# on 4 ranks, each twice: without hetcoll, and with libhetcoll_pmpi.so
# preloaded on a 4-host NIC cluster (scripts/nic-platform: 50 us, 12.5 MB/s,
# two hosts 1.6x slower) with HETCOLL_VERBOSE=1. Both runs must exit 0 and
# print "No Errors"; across the programs, MPI_Bcast, MPI_Reduce and
# MPI_Allreduce must each have run a hetcoll plan (hetcoll:*) at least once.
# Usage: run_mpich_tests.sh PROGRAM_DIR SOURCE_DIR LIBHETCOLL_PMPI PROGRAM...
# Exit 0 pass, 1 fail, 77 skipped (no mpirun).
set -u
programs="$1"
source_dir="$2"
library="$3"
shift 3
source "$source_dir/tests/mpi/mpi_env.sh"
if ! command -v mpirun >/dev/null; then
  echo "skipped: mpirun not found (install openmpi-bin)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
ranks=4
"$source_dir/scripts/nic-platform" nic-4 5e-5 1.25e7 "xeon0:1 xeon1:1 athlon0:1.6 athlon1:1.6" >"$work/nic-4.xml"
run() {  # run NAME PROGRAM [env assignments...]: exit 0 and "No Errors" on stdout
  local name="$1" program="$2" start=$(date +%s)
  shift 2
  env "$@" timeout 120 mpirun -np "$ranks" "$program" >"$work/$name.out" 2>"$work/$name.err"
  local status=$?
  if [ "$status" -ne 0 ] || ! grep -q "No Errors" "$work/$name.out"; then
    fail "$name: exit status $status, output:"; tail -5 "$work/$name.out" "$work/$name.err"
    return 1
  fi
  echo "$name: No Errors ($(( $(date +%s) - start )) s)"
}
for program in "$@"; do
  run "$program" "$programs/$program"
  if run "$program-preloaded" "$programs/$program" "LD_PRELOAD=$library" "HETCOLL_PLATFORM=$work/nic-4.xml" \
       HETCOLL_VERBOSE=1 HETCOLL_TIMEOUT=60; then
    echo "  $(grep -c "hetcoll_pmpi: .*: runs " "$work/$program-preloaded.err") decisions:" \
      "$(grep -o "hetcoll_pmpi: MPI_[A-Za-z]* on [^:]*: runs [^,]*" "$work/$program-preloaded.err" |
         sed 's/hetcoll_pmpi: \(MPI_[A-Za-z]*\) on .*: runs \(.*\)/\1 \2/; s/the MPI library.s own call //' |
         sort | uniq -c | sed 's/^ *//' | paste -sd, | sed 's/,/, /g')"
  fi
done
for call in MPI_Bcast MPI_Reduce MPI_Allreduce; do
  cat "$work"/*-preloaded.err | grep -q "hetcoll_pmpi: $call on .*: runs hetcoll:" ||
    fail "no $call ran a hetcoll plan"
done
exit $failed
