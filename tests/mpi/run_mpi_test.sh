#!/usr/bin/env bash
# Runs one suite of the MPI runtime tests under Open MPI with 8 ranks on
# this machine (oversubscribed; allowed as root, as CI runs).
# Usage: run_mpi_test.sh SUITE TEST_BINARY SOURCE_DIR
#        run_mpi_test.sh pmpi PROGRAM_DIR SOURCE_DIR LIBHETCOLL_PMPI
#        run_mpi_test.sh emulate HETCOLL_MPI_BENCH SOURCE_DIR LIBHETCOLL_EMULATE
#        run_mpi_test.sh tune PROGRAM_DIR SOURCE_DIR HETCOLL
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
  tune)
    # `hetcoll tune --mpi openmpi` on the 8-host NIC cluster: Open MPI reads
    # the rules file (a control file naming bcast algorithm 99 makes the job
    # fail) and the plain program's results are the same as without it; with
    # --commutative-only --replace-unmodelled-default (every modelled
    # algorithm allowed) the commutative calls still are.
    hetcoll="$4"
    program="$binary/plain_collectives"
    failed=0
    fail() { echo "FAIL: $*"; failed=1; }
    hosts=""
    for i in 0 1 2 3; do hosts+="xeon$i:1 "; done
    for i in 0 1 2 3; do hosts+="athlon$i:1.6 "; done
    "$source_dir/scripts/nic-platform" nic-8 5e-5 1.25e7 "$hosts" >"$work/nic-8.xml"
    "$hetcoll" tune --platform "$work/nic-8.xml" --mpi openmpi --out "$work/safe.rules" --quiet >/dev/null ||
      { echo "FAIL: hetcoll tune"; exit 1; }
    "$hetcoll" tune --platform "$work/nic-8.xml" --mpi openmpi --commutative-only --replace-unmodelled-default \
      --out "$work/commutative.rules" --quiet >/dev/null || { echo "FAIL: hetcoll tune --commutative-only"; exit 1; }
    printf '1  # collectives\n7  # bcast\n1\n2\n1\n0 99 0 0  # no such algorithm\n' >"$work/bad.rules"
    run() {  # run NAME [RULES]
      local name="$1" rules=()
      [ -n "${2:-}" ] && rules=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$2")
      timeout 200 mpirun -np 8 "${rules[@]}" "$program" >"$work/$name.out" 2>"$work/$name.err"
    }
    run plain || fail "plain: exit status $?"
    run safe "$work/safe.rules" || { fail "with the rules file: exit status $?"; tail -5 "$work/safe.err"; }
    run commutative "$work/commutative.rules" || fail "with the --commutative-only rules file: exit status $?"
    if run bad "$work/bad.rules"; then fail "Open MPI ignored the rules file (bcast algorithm 99 ran)"; fi
    lines=$(wc -l <"$work/plain.out")
    [ "$lines" -gt 180 ] || fail "the plain program printed only $lines lines"
    diff -q "$work/plain.out" "$work/safe.out" >/dev/null ||
      { fail "results differ with the rules file"; diff "$work/plain.out" "$work/safe.out" | head -10; }
    commutative_lines=$(grep -vc "not commutative" "$work/plain.out")
    diff <(grep -v "not commutative" "$work/plain.out") <(grep -v "not commutative" "$work/commutative.out") >/dev/null ||
      fail "commutative results differ with the --commutative-only rules file"
    [ "$failed" = 0 ] && echo "Open MPI read the tuned rules: $lines result lines identical ($commutative_lines commutative ones with --commutative-only); the control file failed the job"
    exit "$failed"
    ;;
  pmpi)
    # Unmodified programs give the same results with libhetcoll_pmpi.so:
    # the tests' plain program (preloaded, and linked with it), MPICH's cpi
    # example; and they fall back to the MPI library where no plan applies.
    programs="$binary"
    library="$4"
    failed=0
    fail() { echo "FAIL: $*"; failed=1; }
    ranks=8
    run() {  # run NAME PROGRAM [env assignments...]  (on $ranks ranks)
      local name="$1" program="$2" start=$(date +%s)
      shift 2
      env "$@" timeout 200 mpirun -np "$ranks" "$program" >"$work/$name.out" 2>"$work/$name.err" ||
        { fail "$name: exit status $?"; tail -5 "$work/$name.err"; }
      echo "($name: $(( $(date +%s) - start )) s)" >&2
    }
    platform="HETCOLL_PLATFORM=$platforms/liu-kuo-wang-sec6.1.json"
    run plain "$programs/plain_collectives"
    run preloaded "$programs/plain_collectives" "LD_PRELOAD=$library" "$platform" HETCOLL_VERBOSE=1 HETCOLL_TIMEOUT=60
    run linked "$programs/plain_collectives_linked" "$platform" HETCOLL_VERBOSE=1
    lines=$(wc -l <"$work/plain.out")
    [ "$lines" -gt 180 ] || fail "the plain program printed only $lines lines"
    for variant in preloaded linked; do
      if ! diff -q "$work/plain.out" "$work/$variant.out" >/dev/null; then
        fail "$variant: results differ from the MPI library's"; diff "$work/plain.out" "$work/$variant.out" | head -10
      fi
      for call in MPI_Bcast MPI_Reduce MPI_Allreduce; do
        grep -q "hetcoll_pmpi: $call on a communicator of 8 ranks.*hetcoll plan" "$work/$variant.err" ||
          fail "$variant: no hetcoll plan for $call on the world"; done
      grep -q "hetcoll_pmpi: MPI_Reduce on a communicator of 4 ranks.*hetcoll plan" "$work/$variant.err" ||
        fail "$variant: the sub-communicator was not planned"
    done
    echo "plain program: $lines result lines identical with libhetcoll_pmpi.so preloaded and linked"
    grep -m3 "hetcoll_pmpi:" "$work/preloaded.err"
    # MPICH's own example, unmodified (Debian package mpich-doc); then the
    # fallbacks (said once each, results still the MPI library's) on it.
    cpi_source=/usr/share/doc/mpich/examples/cpi.c
    if [ ! -f "$cpi_source" ]; then
      fail "$cpi_source not found: install the Debian package mpich-doc (scripts/setup does)"; exit 1
    fi
    mpicc -O2 "$cpi_source" -o "$work/cpi" -lm || { fail "cpi.c does not build"; exit 1; }
    run cpi "$work/cpi"
    run cpi_preloaded "$work/cpi" "LD_PRELOAD=$library" "$platform" HETCOLL_VERBOSE=1
    plain_pi=$(grep "pi is approximately" "$work/cpi.out")
    preloaded_pi=$(grep "pi is approximately" "$work/cpi_preloaded.out")
    [ -n "$plain_pi" ] && [ "$plain_pi" = "$preloaded_pi" ] || fail "cpi: '$plain_pi' vs '$preloaded_pi'"
    for call in MPI_Bcast MPI_Reduce; do
      grep -q "$call on a communicator of 8 ranks.*hetcoll plan" "$work/cpi_preloaded.err" ||
        fail "cpi: $call did not run a hetcoll plan"
    done
    echo "MPICH cpi example: $preloaded_pi (same without the library)"
    # Without HETCOLL_PLATFORM (and without HETCOLL_VERBOSE): one message,
    # at the first call (cpi's MPI_Bcast), from one rank; HETCOLL_QUIET=1
    # silences it.
    run no_platform "$work/cpi" "LD_PRELOAD=$library"
    grep -q "^hetcoll_pmpi: MPI_Bcast falls back to the MPI library's: HETCOLL_PLATFORM is not set" "$work/no_platform.err" ||
      { fail "no fallback message without HETCOLL_PLATFORM"; cat "$work/no_platform.err"; }
    [ "$(grep -c "hetcoll_pmpi" "$work/no_platform.err")" -eq 1 ] ||
      { fail "without HETCOLL_PLATFORM, not exactly one message"; cat "$work/no_platform.err"; }
    run quiet "$work/cpi" "LD_PRELOAD=$library" HETCOLL_QUIET=1
    ! grep -q "hetcoll_pmpi" "$work/quiet.err" || { fail "HETCOLL_QUIET=1 did not silence the notice"; cat "$work/quiet.err"; }
    [ "$(grep "pi is approximately" "$work/quiet.out")" = "$plain_pi" ] || fail "quiet: cpi's result differs"
    echo "fallback notice without a platform: $(grep -m1 "hetcoll_pmpi" "$work/no_platform.err"); none with HETCOLL_QUIET=1"
    printf '{"model": "cluster", "processors": [{"id": "a", "t": 1}, {"id": "b", "t": 2}, {"id": "c", "t": 1}, {"id": "d", "t": 3}]}' >"$work/four.json"
    run too_small "$work/cpi" "LD_PRELOAD=$library" "HETCOLL_PLATFORM=$work/four.json"
    grep -q "falls back to the MPI library's: .*8 ranks but the platform only 4 processors" "$work/too_small.err" ||
      fail "no fallback message for a platform smaller than the job"
    for variant in no_platform too_small; do
      [ "$(grep "pi is approximately" "$work/$variant.out")" = "$plain_pi" ] || fail "$variant: cpi's result differs"
    done
    [ "$(grep -c "hetcoll_pmpi" "$work/too_small.err")" -eq 1 ] ||
      { fail "a platform smaller than the job: not exactly one message"; cat "$work/too_small.err"; }
    echo "fallbacks: $(grep -m1 -o "falls back.*" "$work/too_small.err")"
    # HETCOLL_PLAN_MODEL=eager on a platform graph (8 hosts, 50 us, 12.5
    # MB/s between any two): MPI_Bcast and MPI_Reduce run eager plans (paced
    # standard sends; the reduce's receives all posted at once).
    python3 - "$work/graph8.json" <<'PY'
import json, sys
hosts = [f"h{i}" for i in range(8)]
edges = [{"from": u, "to": v, "latency": 5e-5 * (1.6 if int(u[1]) >= 4 else 1), "bandwidth": 1.25e7}
         for u in hosts for v in hosts if u != v]
json.dump({"model": "graph", "nodes": [{"id": h} for h in hosts], "edges": edges}, open(sys.argv[1], "w"))
PY
    run eager "$work/cpi" "LD_PRELOAD=$library" "HETCOLL_PLATFORM=$work/graph8.json" HETCOLL_PLAN_MODEL=eager HETCOLL_VERBOSE=1
    # The eager reduce sums the ranks' doubles in another order than the MPI
    # library (MPI_SUM on doubles fixes none): the same pi to rounding.
    eager_pi=$(grep "pi is approximately" "$work/eager.out")
    python3 -c "import re, sys; a, b = (float(re.search(r'approximately ([0-9.]+)', s).group(1)) for s in sys.argv[1:]); sys.exit(abs(a - b) > 1e-13)" \
      "$plain_pi" "$eager_pi" || fail "eager: cpi's result differs: '$plain_pi' vs '$eager_pi'"
    grep -q "MPI_Bcast on a communicator of 8 ranks.*hetcoll plan \"eager-auto\"" "$work/eager.err" ||
      fail "eager: MPI_Bcast did not run the eager plan"
    grep -q "MPI_Reduce on a communicator of 8 ranks.*hetcoll plan \"eager-auto\"" "$work/eager.err" ||
      fail "eager: MPI_Reduce did not run the eager plan"
    echo "eager model: $(grep -m1 -o "MPI_Bcast on.*" "$work/eager.err")"
    # The same platform and model on the plain program: its broadcasts (up
    # to 100,000 ints, every root) equal the MPI library's, and the large
    # ones run split (pieces scattered to spreaders, split_broadcast.h).
    run eager_plain "$programs/plain_collectives" "LD_PRELOAD=$library" "HETCOLL_PLATFORM=$work/graph8.json" \
      HETCOLL_PLAN_MODEL=eager HETCOLL_VERBOSE=1 HETCOLL_TIMEOUT=60
    grep "MPI_Bcast" "$work/plain.out" >"$work/plain.bcast"
    grep "MPI_Bcast" "$work/eager_plain.out" >"$work/eager_plain.bcast"
    [ -s "$work/plain.bcast" ] && diff -q "$work/plain.bcast" "$work/eager_plain.bcast" >/dev/null ||
      fail "eager: plain_collectives' broadcasts differ from the MPI library's"
    grep -q "MPI_Bcast on a communicator of 8 ranks.*split broadcast" "$work/eager_plain.err" ||
      fail "eager: no broadcast of plain_collectives ran split"
    # The eager model refuses all-reduces: said once for MPI_Allreduce
    # (many sizes, operations and communicators), by one rank.
    [ "$(grep -c "MPI_Allreduce falls back to the MPI library's" "$work/eager_plain.err")" -eq 1 ] ||
      { fail "eager: the all-reduce fallback is not said exactly once"; grep "falls back" "$work/eager_plain.err" | head; }
    echo "eager all-reduce: $(grep -m1 -o "MPI_Allreduce falls back.*" "$work/eager_plain.err")"
    echo "split broadcast: $(grep -m1 -o "MPI_Bcast on.*split broadcast.*" "$work/eager_plain.err")"
    # HETCOLL_SPLIT_REDUCE=1 on the same graph: commutative reduces run split
    # (split_reduce.h) where the NIC fluid model predicts it faster, with the
    # MPI library's results (the program's sums are of integers).
    run split_reduce "$programs/plain_collectives" "LD_PRELOAD=$library" "HETCOLL_PLATFORM=$work/graph8.json" \
      HETCOLL_SPLIT_REDUCE=1 HETCOLL_VERBOSE=1 HETCOLL_TIMEOUT=60
    grep "MPI_Reduce" "$work/plain.out" >"$work/plain.reduce"
    grep "MPI_Reduce" "$work/split_reduce.out" >"$work/split_reduce.reduce"
    [ -s "$work/plain.reduce" ] && diff -q "$work/plain.reduce" "$work/split_reduce.reduce" >/dev/null ||
      fail "split reduce: plain_collectives' reduces differ from the MPI library's"
    grep -q "MPI_Reduce on a communicator of 8 ranks.*split reduce" "$work/split_reduce.err" ||
      fail "split reduce: no reduce of plain_collectives ran split"
    echo "split reduce: $(grep -m1 -o "MPI_Reduce on.*split reduce.*" "$work/split_reduce.err")"
    exit $failed
    ;;
  pmpi-mapping)
    # The PMPI library on SimGrid's small_platform.xml, whose links are
    # named "0", "1", ...: the default mapping, host names and indices, a
    # rank map naming a link; Open MPI, 7 ranks.
    programs="$binary"
    library="$4"
    failed=0
    fail() { echo "FAIL: $*"; failed=1; }
    run() {  # run NAME PROGRAM [env assignments...]  (on $ranks ranks)
      local name="$1" program="$2" start=$(date +%s)
      shift 2
      env "$@" timeout 200 mpirun -np "$ranks" "$program" >"$work/$name.out" 2>"$work/$name.err" ||
        { fail "$name: exit status $?"; tail -5 "$work/$name.err"; }
      echo "($name: $(( $(date +%s) - start )) s)" >&2
    }
    mpicc -O2 /usr/share/doc/mpich/examples/cpi.c -o "$work/cpi" -lm || { fail "cpi.c does not build (mpich-doc)"; exit 1; }
    # SimGrid's small_platform.xml (7 hosts; links named "0", "1", ...):
    # rank r plays the r-th host, so every call runs a hetcoll plan, with
    # the MPI library's results, and nothing falls back (no notice at all).
    ranks=7
    run cpi7 "$work/cpi"
    plain_pi=$(grep "pi is approximately" "$work/cpi7.out")
    small="HETCOLL_PLATFORM=$platforms/small_platform.xml"
    run plain7 "$programs/plain_collectives"
    run small_platform "$programs/plain_collectives" "LD_PRELOAD=$library" "$small" HETCOLL_VERBOSE=1 HETCOLL_TIMEOUT=60
    diff -q "$work/plain7.out" "$work/small_platform.out" >/dev/null ||
      { fail "small_platform.xml: results differ from the MPI library's"; diff "$work/plain7.out" "$work/small_platform.out" | head -10; }
    for call in MPI_Bcast MPI_Reduce MPI_Allreduce; do
      grep -q "hetcoll_pmpi: $call on a communicator of 7 ranks.*: runs " "$work/small_platform.err" ||
        fail "small_platform.xml: no decision for $call on the world"
    done
    grep -q "hetcoll_pmpi: MPI_Reduce on a communicator of 3 ranks.*: runs " "$work/small_platform.err" ||
      fail "small_platform.xml: the sub-communicator was not planned"
    ! grep -q "falls back" "$work/small_platform.err" ||
      { fail "small_platform.xml: calls fell back"; grep "falls back" "$work/small_platform.err"; }
    # A plan is made for its call's size: the broadcasts of 1 and 100,000
    # ints from rank 0 (4 and 400,000 bytes) predict differently.
    predicted() {
      grep -o "MPI_Bcast on a communicator of 7 ranks, root 0 ($1 bytes, elements of 4 bytes): runs [^,]*, predicted [0-9.e+-]*" \
        "$work/small_platform.err" | head -1 | sed 's/.*predicted //'
    }
    small_prediction=$(predicted 4)
    large_prediction=$(predicted 400000)
    awk -v s="$small_prediction" -v l="$large_prediction" 'BEGIN { exit !(s > 0 && l > 2 * s) }' ||
      fail "small_platform.xml: broadcasts of 4 and 400000 bytes predicted '$small_prediction' and '$large_prediction'"
    echo "small_platform.xml: $(grep -c ": runs " "$work/small_platform.err") decisions, results identical, no fallback;" \
      "broadcast from rank 0 predicted $small_prediction s (4 bytes), $large_prediction s (400,000 bytes)"
    # A rank map naming a link: refused with one message naming it, then
    # the MPI library's calls (same result).
    run link_map "$work/cpi" "LD_PRELOAD=$library" "$small" "HETCOLL_RANK_MAP=Tremblay,Jupiter,Fafard,145,Bourassa,Jacquelin,Boivin"
    grep -q "falls back to the MPI library's: .*\"145\" is a network link, not a host" "$work/link_map.err" ||
      { fail "a rank map naming a link: no message"; cat "$work/link_map.err"; }
    [ "$(grep -c "hetcoll_pmpi" "$work/link_map.err")" -eq 1 ] ||
      { fail "a rank map naming a link: not exactly one message"; cat "$work/link_map.err"; }
    [ "$(grep "pi is approximately" "$work/link_map.out")" = "$plain_pi" ] ||
      fail "link_map: cpi's result differs"
    echo "rank map naming a link: $(grep -m1 -o "falls back.*" "$work/link_map.err")"
    # Host names and host indices both map (indices count hosts, not the
    # links named "0".."6").
    run name_map "$work/cpi" "LD_PRELOAD=$library" "$small" HETCOLL_VERBOSE=1 \
      "HETCOLL_RANK_MAP=Boivin,Jacquelin,Bourassa,Ginette,Fafard,Jupiter,Tremblay"
    run index_map "$work/cpi" "LD_PRELOAD=$library" "$small" HETCOLL_VERBOSE=1 "HETCOLL_RANK_MAP=6,5,4,3,2,1,0"
    for variant in name_map index_map; do
      grep -q "MPI_Reduce on a communicator of 7 ranks.*: runs " "$work/$variant.err" && ! grep -q "falls back" "$work/$variant.err" ||
        { fail "$variant: no hetcoll plan"; cat "$work/$variant.err"; }
    done
    exit $failed
    ;;
  emulate)
    # libhetcoll_emulate.so (scripts/mpi-bench --openmpi): 3 ranks, latency
    # 0, 400 kB/s, so each 40,000-byte send (below the TCP eager limit) is
    # held 0.1 s by its sender.
    # Open MPI's linear reduce has ranks 1 and 2 send to rank 0 at once: the
    # receive link delivers them one after the other (0.2 s); without it
    # (HETCOLL_EMULATE_RECEIVE=0) the two holds overlap (0.1 s). hetcoll's
    # one-port plan (a chain: its receives never overlap) takes its
    # prediction. Sleeps end late, never early, so only lower bounds are
    # checked, with a margin for the ranks leaving the barrier before the
    # timing a few ms apart: >= 0.18 s, >= 0.09 s, >= 95 % of the prediction.
    library="$4"
    failed=0
    fail() { echo "FAIL: $*"; failed=1; }
    printf '{"model": "graph", "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "edges": [%s]}' \
      '{"from":"a","to":"b","latency":0,"bandwidth":4e5},{"from":"a","to":"c","latency":0,"bandwidth":4e5},
       {"from":"b","to":"a","latency":0,"bandwidth":4e5},{"from":"b","to":"c","latency":0,"bandwidth":4e5},
       {"from":"c","to":"a","latency":0,"bandwidth":4e5},{"from":"c","to":"b","latency":0,"bandwidth":4e5}' >"$work/three.json"
    emulate() {  # emulate NAME [extra mpirun arguments...] -- [bench arguments...]
      local name="$1"; shift
      local mpirun_args=() bench_args=()
      while [ "$1" != "--" ]; do mpirun_args+=("$1"); shift; done
      shift; bench_args=("$@")
      timeout 120 mpirun -np 3 --mca btl tcp,self --mca btl_tcp_if_include lo --mca mpi_yield_when_idle 1 \
        -x LD_PRELOAD="$library" -x HETCOLL_EMULATE=0,4e5,1 "${mpirun_args[@]}" \
        "$binary" --platform "$work/three.json" --collective reduce --op max --datatype int --sizes 10000 \
        --repetitions 3 "${bench_args[@]}" >"$work/$name.csv" 2>"$work/$name.err" ||
        { fail "$name: exit status $?"; tail -5 "$work/$name.err"; }
      cut -d, -f7 "$work/$name.csv" | tail -1
    }
    linear=$(emulate linear --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm 1 -- \
               --implementation builtin --label linear)
    free=$(emulate free --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm 1 \
             -x HETCOLL_EMULATE_RECEIVE=0 -- --implementation builtin --label linear)
    plan=$(emulate hetcoll -- --implementation hetcoll)
    predicted=$(cut -d, -f8 "$work/hetcoll.csv" | tail -1)
    echo "linear reduce: ${linear} s with the receive link, ${free} s without; hetcoll: ${plan} s, predicted ${predicted} s"
    awk -v t="$linear" 'BEGIN { exit !(t >= 0.18) }' || fail "linear reduce took $linear s: the receive link did not queue the two 0.1 s messages"
    awk -v t="$free" 'BEGIN { exit !(t >= 0.09) }' || fail "without the receive link the linear reduce took $free s, less than one send's hold"
    awk -v t="$plan" -v p="$predicted" 'BEGIN { exit !(p >= 0.195 && t >= 0.95 * p) }' ||
      fail "hetcoll's plan took $plan s against its prediction $predicted s"
    exit $failed
    ;;
  *)
    timeout 280 mpirun -np 8 "$binary" "$suite" "$platforms" "$work"
    exit $?
    ;;
esac
