#!/usr/bin/env bash
# Runs one suite of the MPI runtime tests under Open MPI with 8 ranks on
# this machine (oversubscribed; allowed as root, as CI runs).
# Usage: run_mpi_test.sh SUITE TEST_BINARY SOURCE_DIR
# Exit 0 pass, 1 fail, 77 skipped (no mpirun).
set -u
suite="$1"
binary="$2"
source_dir="$3"
source "$source_dir/tests/mpi/mpi_env.sh"
if ! command -v mpirun >/dev/null; then
  echo "skipped: mpirun not found (install openmpi-bin)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
platforms="$source_dir/examples"

case "$suite" in
  timeout)
    # Rank 0 skips a broadcast it is the source of: the others must stop
    # after their 2 s timeout with a message naming what they waited for,
    # and the job must end (not hang) — once in the middle of the transfers,
    # once while preparing the plan.
    for victim in transfer prepare; do
      start=$(date +%s)
      timeout 120 mpirun -np 8 "$binary" "timeout-$victim" "$platforms" "$work" >"$work/out" 2>"$work/err"
      status=$?
      elapsed=$(( $(date +%s) - start ))
      if [ "$status" -eq 0 ] || [ "$status" -eq 124 ]; then
        echo "FAIL ($victim): exit status $status after ${elapsed}s (expected an abort)"; cat "$work/out" "$work/err"; exit 1
      fi
      expected="did not complete within the timeout of 2 s"
      [ "$victim" = prepare ] && expected="did not join within the timeout of 2 s"
      if ! grep -q "$expected" "$work/err"; then
        echo "FAIL ($victim): no message \"$expected\""; cat "$work/err"; exit 1
      fi
      if grep -q "not aborted" "$work/out"; then
        echo "FAIL ($victim): a rank went on after the timeout"; cat "$work/out"; exit 1
      fi
      grep -m1 "$expected" "$work/err"
      echo "timeout ($victim): the job aborted with a message after ${elapsed}s"
    done
    exit 0
    ;;
  *)
    timeout 280 mpirun -np 8 "$binary" "$suite" "$platforms" "$work"
    exit $?
    ;;
esac
