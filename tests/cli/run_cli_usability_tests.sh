#!/usr/bin/env bash
# The command line's rough edges, end to end: usage and version, suggestions
# for mistyped commands and options, options that would do nothing refused,
# repeated options, pictures in PNG, units in the output, plain wording.
# Usage: run_cli_usability_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in

expect_not_in() {  # expect_not_in NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then
    failed=$((failed + 1))
    echo "FAIL $1: \"$3\" should not be in $2:"
    grep -F -- "$3" "$2" | head -3
  else
    passed=$((passed + 1))
  fi
}

# --- usage, version, suggestions ------------------------------------------
check "bare command prints usage" 0 "$hetcoll"
expect_in "usage" "$work/out" "Usage: hetcoll"
expect_in "usage lists broadcast" "$work/out" "broadcast"
check "version" 0 "$hetcoll" --version
expect_in "version" "$work/out" "hetcoll 0."
check "mistyped command" 2 "$hetcoll" brodcast --times 1,2
expect_in "nearest command" "$work/err" 'unknown command "brodcast"; did you mean broadcast?'
check "mistyped subcommand" 2 "$hetcoll" generate clustr
expect_in "nearest subcommand" "$work/err" "did you mean cluster?"
check "mistyped option" 2 "$hetcoll" broadcast --times 1,2 --sorce p0
expect_in "nearest option" "$work/err" "unknown option --sorce; did you mean --source?"
check "repeated option" 2 "$hetcoll" broadcast --times 1,2 --source p0 --source p1
expect_in "repeated option message" "$work/err" "--source given 2 times; give it once"
check "experiment help" 0 "$hetcoll" experiment --help
expect_in "experiment help lists them" "$work/out" "mpi-baseline"
check "mistyped experiment" 2 "$hetcoll" experiment mpi-baselin
expect_in "nearest experiment" "$work/err" "did you mean mpi-baseline?"

# --- options that would do nothing are refused ------------------------------
check "eps on reduce" 2 "$hetcoll" reduce --times 1,2,3 --eps 0.3
expect_in "eps on reduce message" "$work/err" "unknown option --eps"
check "eps on allreduce" 2 "$hetcoll" allreduce --times 1,2,3 --eps-prime 0.3
check "eps without ptas" 2 "$hetcoll" broadcast --times 1,2,3 --eps 0.3
expect_in "eps without ptas message" "$work/err" "--eps: only the approximation scheme uses it; add --algo ptas"
check "eps with ptas" 0 "$hetcoll" broadcast --times 1,2,3 --algo ptas --eps 0.3 --quiet
check "order without ep" 2 "$hetcoll" reduce --times 1,2,3 --order p1,p2
expect_in "order without ep message" "$work/err" "--order: only --algo ep"
check "message size with times" 2 "$hetcoll" broadcast --times 1,2,3 --message-size 1000
expect_in "message size with times message" "$work/err" "--message-size: --times gives the transmission times"
check "message size with a cluster file" 2 "$hetcoll" broadcast --platform "$source_dir/examples/cluster.json" \
  --message-size 1000
check "gantt with an unknown extension" 2 "$hetcoll" broadcast --times 1,2,3 --gantt "$work/g.txt"
expect_in "gantt extension message" "$work/err" "give a file ending in .svg, .png or .pdf"
[ ! -e "$work/g.txt" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL refused gantt was written"; }

# --- pictures in PNG, through rsvg-convert when it is installed -------------
if command -v rsvg-convert >/dev/null; then
  check "gantt png" 0 "$hetcoll" broadcast --times 1,2,2,3 --gantt "$work/g.png" --dot "$work/t.png" --quiet
  for picture in g.png t.png; do
    [ "$(head -c 4 "$work/$picture" | tail -c 3)" = "PNG" ] && passed=$((passed + 1)) ||
      { failed=$((failed + 1)); echo "FAIL $picture is not a PNG"; }
  done
fi
# Without a converter on the PATH the request is refused before any work.
check "png without a converter" 2 env PATH=/nonexistent "$hetcoll" broadcast --times 1,2 --gantt "$work/h.png"
expect_in "png without a converter message" "$work/err" "needs rsvg-convert (Debian package librsvg2-bin)"
[ ! -e "$work/h.png" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL refused png was written"; }

# --- all-reduce as MPI does it: binomial reduce, then binomial broadcast -----
times=1,4,2,1,4,2,1,4,2,1
check "allreduce binomial" 0 "$hetcoll" allreduce --times $times --algo binomial --json
cp "$work/out" "$work/allreduce.json"
check "reduce binomial" 0 "$hetcoll" reduce --times $times --algo binomial --json
cp "$work/out" "$work/reduce.json"
check "broadcast binomial" 0 "$hetcoll" broadcast --times $times --algo binomial --json
python3 - "$work/allreduce.json" "$work/reduce.json" "$work/out" <<'PY' && passed=$((passed + 1)) ||
import json, sys
allreduce, reduce, broadcast = (json.load(open(f)) for f in sys.argv[1:])
assert allreduce["valid"] and allreduce["root"] == "p0", allreduce
assert abs(allreduce["makespan"] - reduce["makespan"] - broadcast["makespan"]) < 1e-9, (allreduce["makespan"], reduce["makespan"], broadcast["makespan"])
assert len(allreduce["transfers"]) == 2 * (allreduce["processors"] - 1)
PY
  { failed=$((failed + 1)); echo "FAIL allreduce binomial = binomial reduce + binomial broadcast"; }

# Recursive doubling: no root (--root picks rank 0), a valid exchange plan that validate re-checks
# and simulate executes as planned.
check "allreduce recursive doubling" 0 "$hetcoll" allreduce --times $times --algo recursive-doubling --json
python3 - "$work/out" <<'PY' && passed=$((passed + 1)) ||
import json, sys
plan = json.load(open(sys.argv[1]))
assert plan["valid"] and plan["algorithm"] == "recursive-doubling", plan
# 10 ranks: 2 fold + 8 x 3 exchange + 2 unfold messages
assert len(plan["transfers"]) == 2 + 8 * 3 + 2, len(plan["transfers"])
PY
  { failed=$((failed + 1)); echo "FAIL recursive doubling plan"; }
check "recursive doubling from rank p3" 0 "$hetcoll" allreduce --times $times --algo recursive-doubling --root p3
expect_in "recursive doubling names rank 0" "$work/out" "no root (rank 0 is p3)"
expect_in "recursive doubling rank 0 folds into rank 1" "$work/out" "p3 (t=1) → p4 (t=4) 0..1 partial result (combined)"
python3 -c 'import json, sys; print(json.dumps({"model": "cluster", "processors": [{"id": f"p{i}", "t": float(t)} for i, t in enumerate(sys.argv[1].split(","))]}))' \
  "$times" > "$work/rd-cluster.json"
check "recursive doubling plan file" 0 "$hetcoll" allreduce --platform "$work/rd-cluster.json" --algo recursive-doubling \
  --out "$work/rd.json" --quiet
check "recursive doubling has no tree" 2 "$hetcoll" allreduce --times $times --algo recursive-doubling --dot "$work/rd.dot"
expect_in "recursive doubling tree message" "$work/err" "--dot: an exchange all-reduce (recursive doubling) has no tree to draw"
check "recursive doubling gantt" 0 "$hetcoll" allreduce --times $times --algo recursive-doubling --gantt "$work/rd.svg" --quiet
expect_in "recursive doubling gantt headline" "$work/rd.svg" "All-reduce by pairwise exchanges (rank 0: p0)"
expect_in "recursive doubling gantt row of rank 0" "$work/rd.svg" "p0 (rank 0)"
expect_not_in "recursive doubling gantt has no root" "$work/rd.svg" "(root)"
check "validate recursive doubling" 0 "$hetcoll" validate --platform "$work/rd-cluster.json" --plan "$work/rd.json"
expect_in "validate recursive doubling says valid" "$work/out" "valid"
check "simulate recursive doubling" 0 "$hetcoll" simulate --platform "$work/rd-cluster.json" --plan "$work/rd.json" --json
python3 - "$work/rd.json" "$work/out" <<'PY' && passed=$((passed + 1)) ||
import json, sys
plan, simulated = (json.load(open(f)) for f in sys.argv[1:])
assert abs(plan["makespan"] - simulated["makespan"]) < 1e-9, (plan["makespan"], simulated["makespan"])
PY
  { failed=$((failed + 1)); echo "FAIL recursive doubling simulated as planned"; }

# --- the demo's suggestions can be pasted -----------------------------------
check "demo next" 0 env HETCOLL_INVOKED_AS=scripts/hetcoll "$hetcoll" demo --out "$work/demo"
expect_in "demo next line" "$work/out" "  scripts/hetcoll broadcast --times 1,1,2,3,3 --gantt g.svg"
expect_in "demo in ms" "$work/out" "makespan     3.6 ms"
# The README shows the demo's own all-reduce chart.
cmp -s "$work/demo/allreduce-gantt.svg" "$source_dir/docs/images/demo-allreduce-gantt.svg" && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL docs/images/demo-allreduce-gantt.svg is not the demo's chart (copy it from hetcoll demo --out)"; }

# --- library errors name parameters; the command line says its flags --------
check "times item" 2 "$hetcoll" broadcast --times 1,x,3
expect_in "times item flag" "$work/err" "hetcoll: --times: item 2 (\"x\"): not a number"
check "order repeated" 2 "$hetcoll" reduce --times 1,2,3 --algo ep --order p1,p1
expect_in "order flag" "$work/err" "hetcoll: --order: "
check "eps prime" 2 "$hetcoll" broadcast --times 1,2,3 --algo ptas --eps-prime 1e-9
expect_in "eps-prime flag" "$work/err" "hetcoll: --eps-prime: must be at least"
check "negative number" 2 "$hetcoll" broadcast --times 1,2,3 --algo ptas --eps-prime -1
expect_in "negative number in words" "$work/err" '--eps-prime: must be a positive finite number, got "-1"'
check "generator classes" 2 "$hetcoll" generate cluster --classes 0
expect_in "classes flag" "$work/err" "hetcoll: --classes: must be between 1"

# --- units: the platform file says them, the output carries them ------------
cat >"$work/ms.json" <<'JSON'
{"model": "cluster", "units": {"time": "ms"},
 "processors": [{"id": "a", "t": 1}, {"id": "b", "t": 1.6}, {"id": "c", "t": 1.6}]}
JSON
check "units in text" 0 "$hetcoll" reduce --platform "$work/ms.json" --gantt "$work/ms.svg"
expect_in "makespan with unit" "$work/out" "makespan     3.2 ms"
expect_in "root time with unit" "$work/out" "root a (t = 1 ms)"
expect_in "gantt axis with unit" "$work/ms.svg" "time (ms)"
check "units in json" 0 "$hetcoll" reduce --platform "$work/ms.json" --json
expect_in "json time unit" "$work/out" '"time_unit": "ms"'
check "simgrid in seconds" 0 "$hetcoll" broadcast --platform "$source_dir/examples/small_platform.xml" \
  --message-size 3e6 --quiet
grep -qE '^  makespan +[0-9.e+-]+ s$' "$work/out" && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL simgrid makespan in seconds"; grep makespan "$work/out"; }
check "times have no unit" 0 "$hetcoll" broadcast --times 1,2 --quiet
grep -qE '^  makespan +[0-9.]+ time units?$' "$work/out" && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL no unit invented for --times, \"time units\" said"; grep makespan "$work/out"; }

# --- wording ---------------------------------------------------------------
check "one processor" 0 "$hetcoll" reduce --times 1
expect_in "singular" "$work/out" "reduce of 1 processor,"
check "optimal fnf from a slow source" 0 "$hetcoll" broadcast --times 2,1,1,1,1,1,1,1 --algo fnf --quiet
expect_in "proven optimal" "$work/out" "optimal      yes"
expect_not_in "no 2 x caveat beside an optimal plan" "$work/out" "within 2 x optimal"
check "search wording" 0 "$hetcoll" reduce --times 1,1,1,1,1.6,1.6,1.6,1.6,2.5,2.5 --algo optimal
expect_in "search nodes in words" "$work/out" "search-tree nodes examined"
expect_not_in "no table references for a search" "$work/out" "table references"

echo "cli_usability: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
