#!/usr/bin/env bash
# End-to-end tests of the hetcoll command: exit codes, JSON output, error
# messages, files written. Usage: run_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
source "$(dirname "$0")/cli_test_lib.sh"  # $work (scratch), passed, failed, check, expect_in, ...

cat >"$work/cluster.json" <<'JSON'
{"model": "cluster",
 "processors": [{"id": "fast0", "t": 1.0}, {"id": "fast1", "t": 1.0}, {"id": "slow0", "t": 2.5},
                {"id": "slow1", "t": 2.5}, {"id": "mid", "t": 1.5}]}
JSON

# --- happy paths ---------------------------------------------------------
check "broadcast json" 0 "$hetcoll" broadcast --platform "$work/cluster.json" --json
cp "$work/out" "$work/broadcast.json"
expect_in "broadcast json operation" "$work/broadcast.json" '"operation": "broadcast"'
expect_in "broadcast json valid" "$work/broadcast.json" '"valid": true'
if command -v python3 >/dev/null; then
  [ "$(json_field "$work/broadcast.json" "len(d['transfers'])")" = "4" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL broadcast transfers count"; }
  [ "$(json_field "$work/broadcast.json" "d['makespan'] >= d['lower_bound']")" = "True" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL broadcast bound"; }
fi
check "reduce by index root" 0 "$hetcoll" reduce --times 1,1,2,3,3 --root 2 --json
expect_in "reduce root" "$work/out" '"root": "p2"'
expect_in "reduce algorithm" "$work/out" '"algorithm": "snf"'
check "allreduce snf+fnf" 0 "$hetcoll" allreduce --times 1,1.6,1.6,1 --algo snf+fnf --json
# SNF (2 x) + FNF proven optimal from a fastest root (1 x): 3 x, within Thm 3's 3.5.
expect_in "allreduce guarantee" "$work/out" '"guarantee_ratio": 3,'
expect_in "allreduce model" "$work/out" 'among reduce-then-broadcast schedules'
check "allreduce auto" 0 "$hetcoll" allreduce --times 1,1.6,1.6,1 --json
# Both phases exact and the composition bound meets the makespan: optimal.
expect_in "allreduce auto optimal" "$work/out" '"optimal": true'
expect_in "allreduce auto bound" "$work/out" '"lower_bound": 4.6,'
check "reduce ep order" 0 "$hetcoll" reduce --times 1,2,3,4 --algo ep --order p3,p1,p2 --json
expect_in "ep algorithm" "$work/out" '"algorithm": "ep"'
check "human summary" 0 "$hetcoll" broadcast --times 1,3,3,2,3,3,3
expect_in "summary makespan" "$work/out" "makespan"
expect_in "summary tree" "$work/out" "└──"
check "outputs" 0 "$hetcoll" reduce --platform "$work/cluster.json" --root slow0 --out "$work/plan.json" \
  --gantt "$work/g.svg" --dot "$work/t.dot"
[ -s "$work/plan.json" ] && [ -s "$work/g.svg" ] && [ -s "$work/t.dot" ] && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL outputs not written"; }
expect_in "gantt is svg" "$work/g.svg" "<svg"
check "tree svg" 0 "$hetcoll" broadcast --times 1,2,2,3 --dot "$work/t.svg"
expect_in "tree svg written" "$work/t.svg" "<svg"
check "validate ok" 0 "$hetcoll" validate --platform "$work/cluster.json" --plan "$work/plan.json"
expect_in "validate says valid" "$work/out" "valid reduce plan"
sed 's/"start": 0,/"start": 0.25,/' "$work/plan.json" >"$work/broken.json"
check "validate broken (exit 5: read, but invalid)" 5 "$hetcoll" validate --platform "$work/cluster.json" --plan "$work/broken.json"
expect_in "validate names problem" "$work/out" "INVALID"
check "algorithms" 0 "$hetcoll" algorithms
expect_in "algorithms lists fnf" "$work/out" "fnf"
expect_in "algorithms lists the graph planners" "$work/out" "hierarchical detect sites"
grep -qx "  recursive-doubling" "$work/out" && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL algorithms: a long name stands on its own line"; }
expect_in "algorithms long name's summary in the column" "$work/out" "              pairwise exchanges of partial results"
check "algorithms json" 0 "$hetcoll" algorithms --json
expect_in "algorithms json snf" "$work/out" '"name": "snf"'
# Graph planners: every one, for every operation, with the sender-speed
# entries' fields (guarantee_spec included) plus baseline / exact_search.
if python3 - "$work/out" >"$work/algorithms_check" 2>&1 <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
graph = [e for e in entries if e["model"] == "graph"]
names = {e["name"] for e in graph}
assert {"auto", "hierarchical", "lookahead", "ecef", "fef", "optimal", "fnf-view"} <= names, names
for name in names:
    ops = sorted(e["operation"] for e in graph if e["name"] == name)
    assert ops == ["allreduce", "broadcast", "multicast", "reduce"], (name, ops)
common = set(next(e for e in entries if e["model"] == "sender-speed"))
for e in graph:
    assert common <= set(e), (e["name"], common - set(e))
    assert e["guarantee_spec"]["kind"] in ("exact", "heuristic"), e
    assert e["guarantee_spec"]["when_stopped"]["kind"] == "heuristic", e
by_name = {e["name"]: e for e in graph if e["operation"] == "broadcast"}
assert by_name["optimal"]["guarantee_spec"]["kind"] == "exact" and by_name["optimal"]["exact_search"]
for e in graph:  # no all-reduce is proven optimal on a graph
    if e["operation"] == "allreduce":
        spec = e["guarantee_spec"]
        assert spec["kind"] == "heuristic" and all(c["kind"] != "exact" for c in spec["stronger"]), e
assert not by_name["auto"]["default"] and by_name["auto"]["guarantee_spec"]["stronger"][0]["kind"] == "exact"
assert by_name["predicted"]["default"] and by_name["predicted"]["selector"], by_name["predicted"]
assert by_name["fnf-view"]["baseline"] and not by_name["ecef"]["baseline"]
PY
then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL algorithms json graph planners:"
  cat "$work/algorithms_check"
fi
check "generate" 0 "$hetcoll" generate cluster --processors 12 --classes 3 --seed 5 --out "$work/gen.json"
check "plan generated" 0 "$hetcoll" broadcast --platform "$work/gen.json" --quiet
check "demo" 0 "$hetcoll" demo --out "$work/demo"
[ -s "$work/demo/allreduce-gantt.svg" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL demo svg"; }
check "help" 0 "$hetcoll" --help
check "broadcast help" 0 "$hetcoll" broadcast --help
expect_in "help explains algo" "$work/out" "--algo"
check "simgrid platform" 0 "$hetcoll" broadcast --platform "$source_dir/examples/small_platform.xml" \
  --message-size 1e6 --algo auto --json
expect_in "simgrid planned on its graph" "$work/out" '"model": "graph"'
# The default on a platform with latencies and bandwidths: the candidate the
# flow model predicts fastest, said in the notes (text and JSON). (At 3 MB
# a tree of whole messages; at 1 MB hetcoll's split program wins.)
check "simgrid default predicted" 0 "$hetcoll" broadcast --platform "$source_dir/examples/small_platform.xml" \
  --message-size 3e6 --json
expect_in "default names its choice" "$work/out" 'predicted: eager flat chosen, predicted 1.22738 s in the flow model'
expect_in "default says where its claims hold" "$work/out" 'claims above are those of the eager model'
check "one-port default at 64 bytes" 0 "$hetcoll" reduce --platform "$source_dir/examples/small_platform.xml" \
  --message-size 64
expect_in "reduce default names its choice" "$work/out" 'chosen, predicted'
check "simgrid sender-speed view" 0 "$hetcoll" broadcast --platform "$source_dir/examples/small_platform.xml" \
  --message-size 1e6 --view sender-speed --json
expect_in "simgrid view note" "$work/out" "sender-speed view"
check "simgrid needs a size" 2 "$hetcoll" broadcast --platform "$source_dir/examples/small_platform.xml"
expect_in "simgrid size message" "$work/err" "--message-size"
check "ptas announces its work" 0 "$hetcoll" broadcast --times 1,1,2,3,3,4,5 --algo ptas --eps 0.5
expect_in "ptas work" "$work/err" "PTAS work"
check "multicast" 0 "$hetcoll" multicast --times 1,1,1,1,8,8,8,8 --source p4 --targets p5,p6,p7 --json
expect_in "multicast helpers" "$work/out" '"helpers"'
check "optimal broadcast fig2" 0 "$hetcoll" broadcast --times 1,3,3,2,3,3,3 --algo optimal --json
expect_in "optimal fig2 makespan" "$work/out" '"makespan": 4,'
check "optimal reduce" 0 "$hetcoll" reduce --times 1,1,1,1,1,1,1,1,1.25,1.25,1.25,1.25 --root 11 --algo optimal --json
expect_in "fig8 optimum" "$work/out" '"makespan": 4,'
check "dp reduce" 0 "$hetcoll" reduce --times 1,1,1,1,1,1,1,1,1.75,1.75,1.75,1.75 --root 11 --algo dp --json
expect_in "fig8 dp optimum" "$work/out" '"makespan": 4.5,'
check "node limit" 4 "$hetcoll" reduce --platform "$work/gen.json" --algo optimal --node-limit 1 --json
expect_in "limit flagged" "$work/out" '"limit_reached": true'
check "optimal broadcast threads" 0 "$hetcoll" broadcast --times 1,1.3,1.7,2.2,2.9,3.1,3.3,3.6,1.1,2.5 --algo optimal \
  --threads 2 --json
expect_in "threads optimum" "$work/out" '"makespan": 4.2,'
expect_in "threads proven" "$work/out" '"optimal": true'
check "threads for fnf refused" 2 "$hetcoll" broadcast --times 1,2,3 --algo fnf --threads 2
expect_in "threads refusal names the option" "$work/err" "--threads: only the exact search"
check "too many threads" 2 "$hetcoll" broadcast --times 1,2,3 --algo optimal --threads 5000
expect_in "threads limit names the option" "$work/err" '--threads: must be a whole number from 0 to 1024, got "5000"'
check "threads only for search-distinct" 2 "$hetcoll" experiment bcast-search --threads 2 --out "$work/exp"
check "search-distinct threads" 0 "$hetcoll" experiment search-distinct --quick --sizes 10 --threads 2 \
  --operation broadcast --out "$work/exp"
expect_in "search-distinct threads column" "$work/exp/search-distinct.csv" "nodes_per_wall_second"

for experiment in greedy-scale mpi-baseline; do
  check "experiment $experiment" 0 "$hetcoll" experiment "$experiment" --quick --out "$work/exp"
  [ -s "$work/exp/$experiment.csv" ] && [ -s "$work/exp/$experiment.svg" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL experiment $experiment files"; }
done
expect_in "mpi-baseline csv header" "$work/exp/mpi-baseline.csv" "bcast_gain"

for example in "$source_dir"/examples/*.json; do
  size=()  # a message size only where edges give latency and bandwidth (else it is refused: it would do nothing)
  grep -q '"latency"' "$example" && size=(--message-size 1e6)
  check "example $(basename "$example")" 0 "$hetcoll" allreduce --platform "$example" "${size[@]}" --quiet
done

# --- bad input: exit code 2 and a message naming the file / field ----------
check "no platform" 2 "$hetcoll" broadcast
expect_in "no platform message" "$work/err" "--platform"
check "missing file" 2 "$hetcoll" broadcast --platform "$work/nope.json"
expect_in "missing file named" "$work/err" "nope.json"
printf '{"model": "cluster",\n "processors": [{"id": "a", "t": 1},\n ]}' >"$work/malformed.json"
check "malformed json" 2 "$hetcoll" broadcast --platform "$work/malformed.json"
expect_in "malformed line" "$work/err" "line 3"
echo '{"model": "mesh", "processors": []}' >"$work/model.json"
check "unknown model" 2 "$hetcoll" broadcast --platform "$work/model.json"
expect_in "unknown model named" "$work/err" 'model: unknown model "mesh"'
echo '{"model": "cluster", "processors": [{"id": "a", "t": 1}, {"id": "a", "t": 2}]}' >"$work/dup.json"
check "duplicate id" 2 "$hetcoll" reduce --platform "$work/dup.json"
expect_in "duplicate named" "$work/err" "processors[1].id"
echo '{"model": "cluster", "processors": [{"id": "a", "t": 0}]}' >"$work/zero.json"
check "zero time" 2 "$hetcoll" reduce --platform "$work/zero.json"
expect_in "zero named" "$work/err" "processors[0].t"
echo '{"model": "cluster", "processors": []}' >"$work/empty.json"
check "empty cluster" 2 "$hetcoll" reduce --platform "$work/empty.json"
check "bad times" 2 "$hetcoll" broadcast --times 1,x,2
expect_in "bad times item" "$work/err" "item 2"
check "unknown source" 2 "$hetcoll" broadcast --times 1,2 --source zz
expect_in "unknown source named" "$work/err" "--source"
check "unknown algo" 2 "$hetcoll" broadcast --times 1,2 --algo magic
expect_in "unknown algo lists known" "$work/err" "fnf"
check "ep without order" 2 "$hetcoll" reduce --times 1,2,3 --algo ep
check "ep bad order" 2 "$hetcoll" reduce --times 1,2,3 --algo ep --order p1,p1
check "both inputs" 2 "$hetcoll" broadcast --times 1,2 --platform "$work/cluster.json"
check "unknown option" 2 "$hetcoll" broadcast --times 1,2 --colour
check "unknown command" 2 "$hetcoll" scatterplot
check "bad out path" 2 "$hetcoll" broadcast --times 1,2 --out /nonexistent/dir/plan.json
check "validate bad plan" 2 "$hetcoll" validate --times 1,2 --plan "$work/malformed.json"
check "unknown experiment" 2 "$hetcoll" experiment no-such-thing
check "experiment sizes" 0 "$hetcoll" experiment search-distinct --quick --sizes 6,8 --out "$work/exp"
expect_in "experiment sizes rows" "$work/exp/search-distinct.csv" 'reduce,8,'
check "experiment sizes refused" 2 "$hetcoll" experiment greedy-scale --quick --sizes 6 --out "$work/exp"
check "experiment sizes too small" 2 "$hetcoll" experiment search-distinct --quick --sizes 1 --out "$work/exp"
check "experiment sizes empty item" 2 "$hetcoll" experiment search-distinct --quick --sizes 6,,8 --out "$work/exp"
check "experiment sizes not a number" 2 "$hetcoll" experiment search-distinct --quick --sizes 6.5 --out "$work/exp"
check "generate too many" 2 "$hetcoll" generate cluster --processors 2000000000
expect_in "generate cap named" "$work/err" "--processors"
check "generate too many classes" 2 "$hetcoll" generate cluster --classes 2000000000
check "ptas eps too small" 2 "$hetcoll" broadcast --times 1,2,3,4,5,6,7,8 --algo ptas --eps 1e-9
expect_in "ptas eps named" "$work/err" "--eps"
check "multicast no targets" 2 "$hetcoll" multicast --times 1,2,3

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
