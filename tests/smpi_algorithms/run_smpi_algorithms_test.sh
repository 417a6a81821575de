#!/bin/bash
# The MPI algorithms hetcoll models (src/hetcoll/makespan/mpi_algorithms/)
# against SimGrid SMPI itself: for every algorithm of the table, the time
# SMPI simulates for one MPI_Bcast / MPI_Reduce / MPI_Allreduce / MPI_Allgather forced to it
# (--cfg=smpi/bcast:NAME, CM02 network model, no computation) must equal
# predict_program's time within 0.5 %, on a star of 8 hosts (1 ms, 100 MB/s
# private links), 7 and 8 ranks, 1000 and 100000 doubles, root 3.
# Usage: run_smpi_algorithms_test.sh PREDICT_MPI_ALGORITHM SOURCE_DIR
# Exit 0 pass, 1 fail, 77 skipped (no smpirun/smpicc).
set -u
predict=$1
source_dir=$2
command -v smpirun >/dev/null && command -v smpicc >/dev/null ||
  { echo "skipped: smpirun/smpicc not found (install libsimgrid-dev)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O1 -o "$work/collective" "$source_dir/tests/smpi_algorithms/smpi_collective.c" 2>"$work/cc.err" ||
  { echo "FAIL: smpicc"; cat "$work/cc.err"; exit 1; }
hosts=8
{
  echo "<?xml version='1.0'?><!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
  echo '<platform version="4.1"><zone id="z" routing="Full">'
  for ((i = 0; i < hosts; ++i)); do
    echo "<host id=\"h$i\" speed=\"1Gf\"/><link id=\"l$i\" bandwidth=\"100MBps\" latency=\"1ms\"/>"
  done
  for ((i = 0; i < hosts; ++i)); do
    for ((j = 0; j < hosts; ++j)); do
      ((i == j)) || echo "<route src=\"h$i\" dst=\"h$j\" symmetrical=\"NO\"><link_ctn id=\"l$i\"/><link_ctn id=\"l$j\"/></route>"
    done
  done
  echo '</zone></platform>'
} >"$work/star.xml"
for ((i = 0; i < hosts; ++i)); do echo "h$i"; done >"$work/hosts"
cfg=(--cfg=smpi/simulate-computation:no --cfg=network/model:CM02 --cfg=network/crosstraffic:0
     --cfg=smpi/display-timing:no)
algorithms="bcast:default bcast:binomial_tree bcast:flattree bcast:ompi_pipeline bcast:scatter_LR_allgather
  bcast:scatter_rdb_allgather bcast:ompi_split_bintree bcast:NTSL bcast:flattree_pipeline reduce:default
  reduce:binomial reduce:flat_tree reduce:ompi_basic_linear reduce:rab reduce:scatter_gather reduce:ompi_pipeline
  reduce:ompi_binomial allreduce:default allreduce:rdb allreduce:lr allreduce:rab allreduce:rab1 allreduce:rab2 allreduce:rab_rdb
  allreduce:ompi_ring_segmented allreduce:redbcast allgather:default allgather:ring allgather:pair allgather:NTSLR
  allgather:bruck allgather:rdb allgather:rhv"
failures=0
compared=0
printf '%-5s %-7s %-10s %-22s %12s %12s %9s\n' ranks count collective algorithm predicted smpi relative
for ranks in 7 8; do
  for count in 1000 100000; do
    for entry in $algorithms; do
      collective=${entry%%:*}
      name=${entry#*:}
      operation=$collective
      [ "$collective" = bcast ] && operation=broadcast
      predicted=$("$predict" "$work/star.xml" "$ranks" "$operation" "$name" "$count" 3 8 2>"$work/predict.err")
      status=$?
      if [ $status -eq 3 ]; then
        printf '%-5s %-7s %-10s %-22s %s\n' "$ranks" "$count" "$collective" "$name" "($(cat "$work/predict.err"))"
        continue
      fi
      [ $status -eq 0 ] || { echo "FAIL: predict $collective $name: $(cat "$work/predict.err")"; failures=$((failures + 1)); continue; }
      simulated=$(timeout 120 smpirun -np "$ranks" -platform "$work/star.xml" -hostfile "$work/hosts" "${cfg[@]}" \
        "--cfg=smpi/$collective:$name" "$work/collective" "$collective" "$count" 3 2>"$work/smpi.err" |
        awk '/^RANK/ { if ($4 > end) end = $4 } END { if (end > 0) printf "%.9f", end }')
      [ -n "$simulated" ] || { echo "FAIL: smpirun $collective $name"; tail -5 "$work/smpi.err"; failures=$((failures + 1)); continue; }
      verdict=$(awk -v p="$predicted" -v s="$simulated" 'BEGIN { r = (p - s) / s; printf "%+.5f %s", r, (r < -0.005 || r > 0.005) ? "FAIL" : "ok" }')
      printf '%-5s %-7s %-10s %-22s %12s %12s %s\n' "$ranks" "$count" "$collective" "$name" "$predicted" "$simulated" "$verdict"
      case $verdict in *FAIL) failures=$((failures + 1)) ;; esac
      compared=$((compared + 1))
    done
  done
done
echo "$compared compared, $failures failure(s)"
[ "$compared" -ge 60 ] || { echo "FAIL: fewer than 60 comparisons"; exit 1; }
[ "$failures" -eq 0 ]
