#!/usr/bin/env bash
# End-to-end tests of issue 7 ("every printed claim is checked"): bounds and
# optimality, limits and exit codes, checked writes, validate's mutation
# rejections, messages. Usage: run_claims_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
source "$(dirname "$0")/cli_test_lib.sh"  # $work (scratch), passed, failed, check, expect_in, ...

# --- bounds and optimality: one rule ---------------------------------------
check "fnf theorem" 0 "$hetcoll" broadcast --times 1,1,2,2,2,2,2,2 --json
expect_true "optimal means bound == makespan (fnf)" "$work/out" "d['optimal'] and d['lower_bound'] == d['makespan']"
check "snf theorem" 0 "$hetcoll" reduce --times 1,1,1,2,2,2,1,2 --json
expect_true "optimal means bound == makespan (snf)" "$work/out" "d['optimal'] and d['lower_bound'] == d['makespan']"
check "search finished" 0 "$hetcoll" broadcast --times 1,3,3,2,3,3,3 --algo optimal --json
expect_true "search: bound == makespan" "$work/out" "d['optimal'] and d['lower_bound'] == d['makespan'] == 4"
check "allreduce demo" 0 "$hetcoll" allreduce --times 1,1,1,1,1.6,1.6,1.6,1.6 --json
expect_true "allreduce bound meets the makespan" "$work/out" "d['optimal'] and d['lower_bound'] == d['makespan'] == 6.6"
expect_in "allreduce model said" "$work/out" "reduce-then-broadcast"

# --- limits and exit codes ---------------------------------------------------
check "auto honours the node limit" 4 "$hetcoll" reduce --times 1,1,2,3,3,1.5,2.5,3.5 --node-limit 2 --json
expect_true "exactly 2 nodes" "$work/out" "d['stats']['nodes'] == 2 and d['status'] == 'node_limit'"
expect_in "stop said on stderr" "$work/err" "exit code 4"
check "optimal honours the node limit" 4 "$hetcoll" reduce --times 1,1,2,3,3,1.5,2.5,3.5 --algo optimal --node-limit 2 --json
expect_true "exactly 2 nodes (optimal)" "$work/out" "d['stats']['nodes'] == 2"
check "auto finishes under its own budget" 0 "$hetcoll" reduce --times 1,1,2,3,3,1.5,2.5,3.5 --json
expect_true "auto finished" "$work/out" "d['status'] == 'finished'"
expect_exit_fast "two-class dp, extreme ratio" 10 0 "$hetcoll" reduce --times 0.3,1e-9,0.1,0.3 --root 2 --algo dp \
  --time-limit 2 --json
expect_true "dp optimal" "$work/out" "d['optimal']"
dp_times=$(python3 -c "print(','.join(['1']*61 + ['1.3']*60 + ['1.6']*60 + ['1.9']*60))")
expect_exit_fast "k-class dp refused under the limit" 10 4 "$hetcoll" reduce --times "$dp_times" --algo dp \
  --time-limit 0.5 --json
expect_true "dp refused" "$work/out" "d['status'] == 'refused' and d['valid']"
ptas_times=$(python3 -c "import random; r=random.Random(4); print(','.join(str(1+r.randrange(40)/4) for _ in range(4000)))")
targets=$(python3 -c "print(','.join(str(i) for i in range(1, 601)))")
expect_exit_fast "multicast ptas refuses in time" 5 4 "$hetcoll" multicast --times "$ptas_times" --source 0 \
  --targets "$targets" --algo ptas --time-limit 0.05 --json
expect_true "ptas refused, FNF plan valid" "$work/out" "d['status'] == 'refused' and d['valid']"
check "time limit 0" 2 "$hetcoll" broadcast --times 1,2,3 --algo optimal --time-limit 0
expect_in "time limit 0 named" "$work/err" "--time-limit: must be a positive number"
check "node limit 0" 2 "$hetcoll" broadcast --times 1,2,3 --node-limit 0
check "node limit -1" 2 "$hetcoll" broadcast --times 1,2,3 --node-limit -1
expect_in "node limit named" "$work/err" "--node-limit"
check "node limit 2^64" 2 "$hetcoll" broadcast --times 1,2,3 --node-limit 18446744073709551616
expect_in "node limit too large" "$work/err" "too large"
check "no time limit" 0 "$hetcoll" broadcast --times 1,2,3 --algo optimal --time-limit none --quiet
check "no solution" 3 "$hetcoll" broadcast --platform "$source_dir/tests/cli/data/disconnected.json" --view sender-speed
expect_in "no solution named" "$work/err" "no solution"
check "no solution on the graph" 3 "$hetcoll" broadcast --platform "$source_dir/tests/cli/data/disconnected.json" --source B
expect_in "no solution on the graph named" "$work/err" "A cannot be reached from B"

# The pipelined tree search takes the same limits (built with HETCOLL_WITH_LP).
if "$hetcoll" tree --help >/dev/null 2>&1; then
  check "tree search honours the node limit" 4 "$hetcoll" tree --times 1,2,3,4,5,6,7 --heuristic optimal \
    --node-limit 2 --skip-lp --json
  expect_true "tree: exactly 2 nodes, node_limit" "$work/out" \
    "d['search_nodes'] == 2 and d['status'] == 'node_limit' and not d['optimal'] and d['valid']"
  check "tree search finishes" 0 "$hetcoll" tree --times 1,2,3,4 --heuristic optimal --skip-lp --json
  expect_true "tree: finished" "$work/out" "d['optimal'] and d['status'] == 'finished'"
  check "tree time limit 0" 2 "$hetcoll" tree --times 1,2,3 --heuristic optimal --time-limit 0
fi

# --- every write checked -------------------------------------------------------
if [ -w /dev/full ]; then
  check "out to a full disk" 2 "$hetcoll" broadcast --times 1,2,3 --out /dev/full
  expect_in "out path named" "$work/err" "/dev/full"
  check "dot to a full disk" 2 "$hetcoll" broadcast --times 1,2,3 --dot /dev/full
  expect_in "dot path named" "$work/err" "--dot"
  check "gantt to a full disk" 2 "$hetcoll" broadcast --times 1,2,3 --gantt /dev/full
  check "generate to a full disk" 2 "$hetcoll" generate cluster --out /dev/full
  "$hetcoll" broadcast --times 1,2,3 --json >/dev/full 2>"$work/err"
  status=$?
  [ "$status" -eq 2 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL json to a full stdout: exit $status"; }
  expect_in "stdout named" "$work/err" "standard output"
fi

# --- validate: exit 5 for every lie ----------------------------------------------
check "plan to mutate" 0 "$hetcoll" reduce --times 1,1,2,3,3,1.5 --algo optimal --out "$work/plan.json" --quiet
check "validate good" 0 "$hetcoll" validate --times 1,1,2,3,3,1.5 --plan "$work/plan.json"
mutate() {  # mutate NAME PYTHON_STATEMENT_ON_d: write the mutated plan, expect validate to exit 5
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2; json.dump(d, open(sys.argv[2], 'w'))" \
    "$work/plan.json" "$work/mutated.json"
  check "validate rejects: $1" 5 "$hetcoll" validate --times 1,1,2,3,3,1.5 --plan "$work/mutated.json"
}
mutate "optimal with a smaller bound" "d['lower_bound'] = d['makespan'] - 0.5"
mutate "bound above makespan" "d['lower_bound'] = d['makespan'] + 0.5"
mutate "makespan" "d['makespan'] = d['makespan'] + 0.25"
mutate "a transfer's start" "d['transfers'][0]['start'] += 0.125"
mutate "a transfer's end" "d['transfers'][-1]['end'] -= 0.125"
mutate "exact without optimal" "d['optimal'] = False"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); del d['makespan']; json.dump(d, open(sys.argv[2], 'w'))" \
  "$work/plan.json" "$work/mutated.json"
check "validate: missing makespan" 2 "$hetcoll" validate --times 1,1,2,3,3,1.5 --plan "$work/mutated.json"
expect_in "missing makespan named" "$work/err" "makespan: missing"

# Program plans (the default plan when MPI's or hetcoll's program is predicted
# faster than every whole-message tree): the backbone cluster cut to 16 hosts.
sed 's/radical="0-99"/radical="0-15"/' "$source_dir/tests/data/simgrid/cluster_backbone.xml" >"$work/bb16.xml"
check "program plan to mutate" 0 "$hetcoll" broadcast --platform "$work/bb16.xml" --message-size 1048576 \
  --element-bytes 4 --out "$work/program.json" --quiet
expect_in "a program was printed" "$work/out" ", program "
expect_true "program plan file" "$work/program.json" \
  "d['model'] == 'flow' and d['element_bytes'] == 4 and len(d['program']['ranks']) == 16 and not d['optimal'] and d['makespan'] == d['predicted_seconds'] and d['lower_bound'] == 0 and len(d['transfers']) == d['stats']['messages']"
check "validate good program" 0 "$hetcoll" validate --platform "$work/bb16.xml" --plan "$work/program.json"
expect_in "validate says program" "$work/out" "valid broadcast program plan"
check "simulate program" 0 "$hetcoll" simulate --platform "$work/bb16.xml" --plan "$work/program.json"
expect_in "simulated as planned" "$work/out" "(as planned)"
mutate_program() {  # mutate_program NAME PYTHON_STATEMENT_ON_d [EXIT]: validate exits 5 (or EXIT)
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2; json.dump(d, open(sys.argv[2], 'w'))" \
    "$work/program.json" "$work/mutated.json"
  check "validate rejects program: $1" "${3:-5}" "$hetcoll" validate --platform "$work/bb16.xml" --plan "$work/mutated.json"
}
first_send="r, s = next((r, s) for r, steps in enumerate(d['program']['ranks']) for s, x in enumerate(steps) if 'send' in x)"
first_receive="r, s = next((r, s) for r, steps in enumerate(d['program']['ranks']) for s, x in enumerate(steps) if 'receive' in x and x['slice'][2] > 1)"
mutate_program "prediction 10 % short" "d['predicted_seconds'] *= 0.9"
mutate_program "optimality claimed" "d['optimal'] = True"
mutate_program "makespan" "d['makespan'] *= 1.1"
mutate_program "a bound claimed" "d['lower_bound'] = d['makespan'] / 2"
mutate_program "a transfer's end" "d['transfers'][-1]['end'] *= 0.9"
mutate_program "a send to another rank" "$first_send; x = d['program']['ranks'][r][s]; x['send'] = (x['send'] + 1) % 16 or 1"
mutate_program "a receive one element short" "$first_receive; d['program']['ranks'][r][s]['slice'][2] -= 1"
mutate_program "a rank's steps removed" "d['program']['ranks'][5] = []"
mutate_program "another source" "d['source'] = d['participants'][3]"
mutate_program "the same program on other hosts" "d['participants'] = d['participants'][::-1]" 
mutate_program "element count missing" "del d['element_count']" 2
expect_in "element count named" "$work/err" "element_count: missing"
mutate_program "a step of no kind" "d['program']['ranks'][0][0] = {'jump': 1}" 2
expect_in "step named" "$work/err" "program.ranks[0][0]"
check "tree picture of a program" 2 "$hetcoll" broadcast --platform "$work/bb16.xml" --message-size 1048576 \
  --element-bytes 4 --dot "$work/tree.svg"
expect_in "tree picture refused" "$work/err" "not a tree"
check "element bytes that do not divide" 2 "$hetcoll" broadcast --platform "$work/bb16.xml" --message-size 1048577 \
  --element-bytes 4
expect_in "element bytes named" "$work/err" "--element-bytes: the message of 1048577 bytes"
check "element bytes without the default plan" 2 "$hetcoll" broadcast --platform "$work/bb16.xml" --message-size 1048576 \
  --element-bytes 4 --algo auto
expect_in "element bytes refused" "$work/err" "--element-bytes"

# --- messages -------------------------------------------------------------------
check "directory as platform" 2 "$hetcoll" broadcast --platform "$source_dir/examples"
expect_in "directory named" "$work/err" "is a directory"
check "eps 0" 2 "$hetcoll" broadcast --times 1,2,3 --algo ptas --eps 0
expect_in "eps 0 message" "$work/err" '--eps: must be a positive finite number, got "0"'
check "class-times blame" 2 "$hetcoll" generate cluster --class-times 1,-1
expect_in "class-times named" "$work/err" "--class-times"
echo '{"model": "graph", "model": "cluster", "processors": [{"id": "a", "t": 1}]}' >"$work/twice.json"
check "duplicate model key" 2 "$hetcoll" broadcast --platform "$work/twice.json"
expect_in "duplicate key named" "$work/err" "model: the key appears twice"
echo '{"model": "graph", "nodes": [{"id": "A"}, {"id": "B"}], "edges": [{"from": "A", "to": "B", "cost": 1},
  {"from": "B", "to": "A", "cost": 1}, {"from": "A", "to": "B", "cost": 3}]}' >"$work/dupedge.json"
check "duplicate edge" 2 "$hetcoll" broadcast --platform "$work/dupedge.json"
expect_in "duplicate edge named" "$work/err" "edges[2]: duplicate edge"
check "subnormal times" 2 "$hetcoll" broadcast --times 3e-310,3e-310,3e-310,3e-310,3e-310,7e-310,1e-310,2e-310 \
  --source 5 --algo optimal
expect_in "subnormal named" "$work/err" "too small"

# Steady plans: an optimality claim needs the certificate and the bound met.
"$hetcoll" generate random --nodes 8 --density 0.4 --seed 3 --out "$work/r8.json" >/dev/null
check "steady scatter, period limit" 0 "$hetcoll" steady scatter --platform "$work/r8.json" --message-size 1e6 \
  --period-max 100 --out "$work/steady.json"
check "steady scatter, exact" 0 "$hetcoll" steady scatter --platform "$work/r8.json" --message-size 1e6 --exact \
  --out "$work/steady-exact.json"
check "validate the exact steady plan" 0 "$hetcoll" validate --platform "$work/r8.json" --plan "$work/steady-exact.json"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['optimal'] = True; json.dump(d, open(sys.argv[2], 'w'))
d = json.load(open(sys.argv[3])); d.pop('certificate'); d['throughput_bound'] = d['throughput']; d['optimal'] = True
json.dump(d, open(sys.argv[4], 'w'))" "$work/steady.json" "$work/steady-lie1.json" "$work/steady-exact.json" \
  "$work/steady-lie2.json"
check "validate rejects: optimal below the bound" 5 "$hetcoll" validate --platform "$work/r8.json" \
  --plan "$work/steady-lie1.json"
expect_in "optimal claim named" "$work/out" "optimal: the plan claims true"
check "validate rejects: optimal without certificate" 5 "$hetcoll" validate --platform "$work/r8.json" \
  --plan "$work/steady-lie2.json"
expect_in "missing certificate named" "$work/out" "no certificate"

# Issue 24: validate proves the bound from the times; metadata is checked.
lie() {  # lie NAME PLAN VALIDATE_ARGS PYTHON_STATEMENT_ON_d TEXT: the mutated plan exits 5 naming TEXT
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $4; json.dump(d, open(sys.argv[2], 'w'))" \
    "$2" "$work/lie.json"
  # shellcheck disable=SC2086
  check "validate rejects: $1" 5 "$hetcoll" validate $3 --plan "$work/lie.json"
  expect_in "$1 named" "$work/out" "$5"
}
check "fnf plan" 0 "$hetcoll" broadcast --times 1,3,3,2,3,3,3 --algo fnf --out "$work/fnf.json" --quiet
lie "bound 5, optimal, exact (the optimum is 4)" "$work/fnf.json" "--times 1,3,3,2,3,3,3" \
  "d['lower_bound'] = 5; d['optimal'] = True; d['guarantee_kind'] = 'exact'" "a broadcast finishing at 4 exists"
lie "bound 4.5 (the optimum is 4)" "$work/fnf.json" "--times 1,3,3,2,3,3,3" "d['lower_bound'] = 4.5" \
  "lower bound 4.5 is false"
check "the optimum's bound 4 is proven" 0 "$hetcoll" validate --times 1,3,3,2,3,3,3 --plan "$work/fnf.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['lower_bound'] = 4; json.dump(d, open(sys.argv[2], 'w'))" \
  "$work/fnf.json" "$work/fnf4.json"
check "validate accepts the true bound 4" 0 "$hetcoll" validate --times 1,3,3,2,3,3,3 --plan "$work/fnf4.json"
check "snf plan" 0 "$hetcoll" reduce --times 1,2,3,4 --algo snf --out "$work/snf.json" --quiet
lie "reduce payload value" "$work/snf.json" "--times 1,2,3,4" "d['transfers'][0]['payload'] = 'value'" \
  "moves partial results"
lie "processors 99" "$work/snf.json" "--times 1,2,3,4" "d['processors'] = 99" "processors: the plan states 99"
lie "time unit ms on --times" "$work/snf.json" "--times 1,2,3,4" "d['time_unit'] = 'ms'" "time_unit"
lie "model graph on a cluster" "$work/snf.json" "--times 1,2,3,4" "d['model'] = 'graph'" "model: the plan says"
check "multicast plan with a helper" 0 "$hetcoll" multicast --times 1,5,5,5,5,5,1 --targets 1,2,3,4,5 \
  --out "$work/mc.json" --quiet
expect_true "the plan uses a helper" "$work/mc.json" "d['helpers'] == ['p6']"
lie "helpers emptied" "$work/mc.json" "--times 1,5,5,5,5,5,1" "d['helpers'] = []" "nor a listed helper"
lie "a target listed as a helper" "$work/mc.json" "--times 1,5,5,5,5,5,1" "d['helpers'] = ['p6', 'p1']" \
  "is a target, not a helper"
big=$(python3 -c "import random; r=random.Random(6); print(','.join(str(1+r.randrange(12)/4) for _ in range(40)))")
check "40-processor fnf plan" 0 "$hetcoll" broadcast --times "$big" --algo fnf --out "$work/fnf40.json" --quiet
# FNF's 10 against the optimum 9.75: beyond verify's exact re-search, validate re-runs the searches.
lie "a bound beyond the exact re-search, not re-derived" "$work/fnf40.json" "--times $big" \
  "d['lower_bound'] = d['makespan']; d['optimal'] = True; d['guarantee_kind'] = 'exact'" "cannot be proven"
check "40-processor optimal plan" 0 "$hetcoll" broadcast --times "$big" --algo optimal --out "$work/opt40.json" --quiet
check "its bound is re-derived by re-running the search" 0 "$hetcoll" validate --times "$big" --plan "$work/opt40.json"

lie "steady throughput_value against its exact throughput" "$work/steady.json" "--platform $work/r8.json" \
  "d['throughput_value'] = 0.9" "throughput_value: 0.9 is not"
check "steady gossip plan" 0 "$hetcoll" steady gossip --platform "$work/r8.json" --message-size 1e6 --sources n0,n1 \
  --out "$work/gossip.json" --quiet
lie "a gossip message type reversed" "$work/gossip.json" "--platform $work/r8.json" \
  "t = d['slots'][0]['transfers'][0]; t['type'] = t['target'] + '->' + t['source']" "is not the message type"

echo "cli claims: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
