#!/usr/bin/env bash
# Hostile input, end to end: every bad input is exit code 2 with a message
# naming the value and the field (never exit 1, 3, a hang or a silent
# answer); extreme numbers get true claims only; outputs are atomic (no
# partial file at the final path); writes to /dev/full fail with exit 2.
# Usage: run_bad_input_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in, expect_true

expect_no_file() {  # expect_no_file NAME PATH
  if [ -e "$2" ]; then
    failed=$((failed + 1))
    echo "FAIL $1: $2 exists"
  else
    passed=$((passed + 1))
  fi
}

# A run that must end within SECONDS (a hang is a failure, not a stuck test).
check_within() {  # check_within NAME EXPECTED_EXIT SECONDS COMMAND...
  local name="$1" expected="$2" seconds="$3"
  shift 3
  check "$name" "$expected" timeout "$seconds" "$@"
}

cat >"$work/steady.json" <<'EOF'
{"model": "graph",
 "nodes": [{"id": "n0"}, {"id": "n1"}, {"id": "n2"}, {"id": "n3"}],
 "edges": [{"from": "n0", "to": "n1", "cost": 1}, {"from": "n0", "to": "n2", "cost": 2},
           {"from": "n1", "to": "n3", "cost": 1}, {"from": "n2", "to": "n3", "cost": 1},
           {"from": "n1", "to": "n0", "cost": 1}, {"from": "n2", "to": "n0", "cost": 2},
           {"from": "n3", "to": "n1", "cost": 1}, {"from": "n3", "to": "n2", "cost": 1}]}
EOF
cat >"$work/free.json" <<'EOF'
{"model": "graph", "symmetric": true,
 "nodes": [{"id": "n0"}, {"id": "n1"}, {"id": "n2"}],
 "edges": [{"from": "n0", "to": "n1", "cost": 0}, {"from": "n1", "to": "n2", "cost": 0}]}
EOF
cat >"$work/loop_route.json" <<'EOF'
{"model": "graph", "symmetric": true,
 "nodes": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
 "edges": [{"from": "A", "to": "B", "cost": 1}, {"from": "B", "to": "C", "cost": 1}],
 "routes": [{"from": "A", "to": "C", "path": ["A", "B", "A", "B", "A", "B", "C"]}]}
EOF
cat >"$work/bypass_twice.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="A" speed="1Gf"/><host id="B" speed="1Gf"/><host id="C" speed="1Gf"/>
  <link id="l1" bandwidth="1MBps" latency="1ms"/><link id="l2" bandwidth="1MBps" latency="1ms"/>
  <route src="A" dst="B"><link_ctn id="l1"/></route>
  <route src="B" dst="C"><link_ctn id="l2"/></route>
  <route src="A" dst="C"><link_ctn id="l1"/><link_ctn id="l2"/></route>
  <bypassRoute src="A" dst="C"><link_ctn id="l1"/><link_ctn id="l2"/><link_ctn id="l1"/><link_ctn id="l2"/></bypassRoute>
</zone>
</platform>
EOF
cat >"$work/subnormal_bandwidth.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="A" speed="1Gf"/><host id="B" speed="1Gf"/>
  <link id="slow" bandwidth="1e-320Bps" latency="1ms"/>
  <route src="A" dst="B"><link_ctn id="slow"/></route>
</zone>
</platform>
EOF
cat >"$work/huge_costs.json" <<'EOF'
{"model": "graph", "symmetric": true,
 "nodes": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
 "edges": [{"from": "A", "to": "B", "cost": 1e308}, {"from": "B", "to": "C", "cost": 1e308}]}
EOF
cat >"$work/tiny_bandwidth.json" <<'EOF'
{"model": "graph", "symmetric": true,
 "nodes": [{"id": "A"}, {"id": "B"}],
 "edges": [{"from": "A", "to": "B", "latency": 0.001, "bandwidth": 1e-300}]}
EOF

# --- readers: routes that cross a node or a link twice ------------------
check "json route crossing a node twice" 2 "$hetcoll" broadcast --platform "$work/loop_route.json" --source A
expect_in "json route named" "$work/err" 'loop_route.json: routes[0].path[2]: the route crosses "A" twice (also path[0])'
check "simgrid bypassRoute crossing a link twice" 2 "$hetcoll" broadcast --platform "$work/bypass_twice.xml" --source A \
  --message-size 1e6
expect_in "bypassRoute named" "$work/err" 'bypass_twice.xml: line 10'
expect_in "bypassRoute link named" "$work/err" 'the route crosses link "l1" twice'

# --- numbers beyond the double range ------------------------------------
check "costs 1e308 + 1e308" 2 "$hetcoll" broadcast --platform "$work/huge_costs.json" --source A
expect_in "huge cost named" "$work/err" "edges[0].cost: 1e+308 is too large for 3 nodes"
check "bandwidth 1e-320Bps" 2 "$hetcoll" broadcast --platform "$work/subnormal_bandwidth.xml" --source A --message-size 1e6
expect_in "subnormal bandwidth named" "$work/err" '"1e-320Bps" is too small'
check "message size over a tiny bandwidth" 2 "$hetcoll" broadcast --platform "$work/tiny_bandwidth.json" --source A \
  --message-size 1e10
expect_in "overflowing cost names the message size and edge" "$work/err" '--message-size: 1e+10 bytes over the edge from "A" to "B"'
check "message size nan" 2 "$hetcoll" broadcast --platform "$work/tiny_bandwidth.json" --source A --message-size nan
expect_in "nan message size named" "$work/err" '--message-size: must be a positive finite number, got "nan"'
check "message size inf" 2 "$hetcoll" broadcast --platform "$work/tiny_bandwidth.json" --source A --message-size inf
check "allreduce 3 x 5e307" 2 "$hetcoll" allreduce --times 5e307,5e307,5e307 --json
expect_in "allreduce overflow named" "$work/err" "processors[0].t: 5e+307 is too large for 3 processors"
if grep -q "inf" "$work/out"; then failed=$((failed + 1)); echo "FAIL allreduce printed inf"; else passed=$((passed + 1)); fi

# --- extreme times: a true optimal claim or none ------------------------
check "extreme times" 0 "$hetcoll" broadcast --times 1e-20,1e20,1,3 --json
cp "$work/out" "$work/extreme.json"
# The optimum (every order of the receivers, brute force) is 3e-20 + ... : the
# source (1e-20) sends to all three; an optimal claim must match it.
expect_true "extreme times: no false optimum" "$work/extreme.json" \
  "(not d['optimal']) or abs(d['makespan'] - 3e-20) <= 1e-29"
sends_after_receiving="all(t['start'] >= (0.0 if t['from'] == d['source'] else min([u['end'] for u in d['transfers'] if u['to'] == t['from']] + [float('inf')])) for t in d['transfers'])"
expect_true "extreme times: nobody sends before receiving" "$work/extreme.json" "$sends_after_receiving"
for algo in fnf optimal ptas auto; do
  check "extreme times --algo $algo" 0 "$hetcoll" broadcast --times 1e-20,1e20,1,3 --algo $algo --out "$work/x_$algo.json" --quiet
  expect_true "extreme times --algo $algo claim" "$work/x_$algo.json" \
    "(not d['optimal']) or abs(d['makespan'] - 3e-20) <= 1e-29"
  expect_true "extreme times --algo $algo causality" "$work/x_$algo.json" "$sends_after_receiving"
  check "validate extreme --algo $algo" 0 "$hetcoll" validate --times 1e-20,1e20,1,3 --plan "$work/x_$algo.json"
done

# --- duplicates, counts, zero costs --------------------------------------
check "multicast duplicate targets" 2 "$hetcoll" multicast --times 1,2,3,4 --targets p1,p1,p2
expect_in "multicast duplicate named" "$work/err" "--targets: p1 is listed twice; give each once"
if "$hetcoll" steady --help >/dev/null 2>&1; then
  check "steady scatter duplicate targets" 2 "$hetcoll" steady scatter --platform "$work/steady.json" --source n0 \
    --targets n1,n1,n2
  expect_in "scatter duplicate named" "$work/err" "--targets: n1 is listed twice; give each once"
  check "steady gossip duplicate sources" 2 "$hetcoll" steady gossip --platform "$work/steady.json" --sources n0,n0
  expect_in "gossip duplicate named" "$work/err" "--sources: n0 is listed twice; give each once"
  check "steady broadcast on zero costs" 2 "$hetcoll" steady broadcast --platform "$work/free.json" --source n0
  expect_in "zero costs named" "$work/err" "over edges of cost 0 only"
  check_within "steady --simulate -5" 2 20 "$hetcoll" steady scatter --platform "$work/steady.json" --source n0 \
    --simulate -5
  expect_in "simulate -5 named" "$work/err" '--simulate: must be a whole number from 1 to 1000000000, got "-5"'
  check "steady --slots -1" 2 "$hetcoll" steady scatter --platform "$work/steady.json" --source n0 --slots -1
  expect_in "slots -1 named" "$work/err" '--slots: must be a whole number from 0 to 1000000, got "-1"'
  check "steady --slots 2" 0 "$hetcoll" steady scatter --platform "$work/steady.json" --source n0 --slots 2
  # A 1,500-node star: the per-type LP (targets x edges = 4.5 million
  # columns) ran out of memory; the default solves by source (|E| columns).
  python3 -c "
import json
n = 1500
nodes = [{'id': 'c'}] + [{'id': f'h{i}'} for i in range(n - 1)]
edges = [{'from': 'c', 'to': f'h{i}', 'cost': 1 + i % 3} for i in range(n - 1)]
print(json.dumps({'model': 'graph', 'symmetric': True, 'nodes': nodes, 'edges': edges}))" >"$work/star.json"
  check_within "steady scatter on a 1,500-node star" 0 120 "$hetcoll" steady scatter --platform "$work/star.json" \
    --source c --quiet
  expect_in "star solved by source" "$work/out" "personal-by-source"
  check "star per-type refused" 2 "$hetcoll" steady scatter --platform "$work/star.json" --source c --formulation per-type
  expect_in "star per-type message" "$work/err" "--formulation: the per-type linear program would have"
fi
check "threads -1" 2 "$hetcoll" broadcast --times 1,2,3 --algo optimal --threads -1
expect_in "threads -1 named" "$work/err" '--threads: must be a whole number from 0 to 1024, got "-1"'
check "seed -5" 2 "$hetcoll" generate cluster --processors 4 --seed -5
expect_in "seed -5 named" "$work/err" '--seed: must be a whole number'

# --- writes that fail: /dev/full ----------------------------------------
if [ -w /dev/full ]; then
  for args in "--help" "--version" "broadcast --help" "broadcast --times 1,2,3" "reduce --times 1,2,3 --json" \
    "allreduce --times 1,2" "multicast --times 1,2,3 --targets p1" "algorithms" "generate cluster --processors 4" \
    "demo"; do
    # shellcheck disable=SC2086
    check "/dev/full: $args" 2 sh -c "\"\$0\" $args >/dev/full" "$hetcoll"
    expect_in "/dev/full message: $args" "$work/err" "cannot write to standard output"
  done
  check "--out /dev/full" 2 "$hetcoll" broadcast --times 1,2,3 --out /dev/full --quiet
  expect_in "--out /dev/full message" "$work/err" '--out: cannot write "/dev/full"'
  "$hetcoll" broadcast --times 1,2,3 --out "$work/plan.json" --quiet >/dev/null
  check "validate to /dev/full" 2 sh -c '"$0" validate --times 1,2,3 --plan "$1" >/dev/full' "$hetcoll" "$work/plan.json"
  check "simulate to /dev/full" 2 sh -c '"$0" simulate --times 1,2,3 --plan "$1" >/dev/full' "$hetcoll" "$work/plan.json"
  if "$hetcoll" steady --help >/dev/null 2>&1; then
    check "steady to /dev/full" 2 sh -c '"$0" steady scatter --platform "$1" --source n0 >/dev/full' "$hetcoll" \
      "$work/steady.json"
  fi
fi

# --- atomic outputs -------------------------------------------------------
# A run killed while it writes leaves the old file (or the complete new one)
# at the final path, and no temporary file.
mkdir -p "$work/atomic"
echo "old" >"$work/atomic/cluster.json"
"$hetcoll" generate cluster --processors 1000000 --out "$work/atomic/cluster.json" >/dev/null 2>&1 &
writer=$!
# Kill it once the write is under way: its temporary file appears, or (a
# writer that is not atomic) the final path stops holding "old".
for _ in $(seq 1 600); do
  if ls "$work/atomic"/.cluster.json.* >/dev/null 2>&1; then break; fi
  if [ "$(head -c 3 "$work/atomic/cluster.json")" != "old" ]; then break; fi
  sleep 0.02
done
sleep 0.05
kill -TERM "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
if [ "$(cat "$work/atomic/cluster.json" | head -c 3)" = "old" ] ||
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/atomic/cluster.json" 2>/dev/null; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL killed --out left a partial file: $(head -c 80 "$work/atomic/cluster.json")"
fi
if ls "$work/atomic"/.cluster.json.* >/dev/null 2>&1; then
  failed=$((failed + 1))
  echo "FAIL killed --out left its temporary file: $(ls -a "$work/atomic")"
else
  passed=$((passed + 1))
fi
# A complete write replaces the file, with the permissions of a new file.
check "out replaces" 0 "$hetcoll" broadcast --times 1,2,3 --out "$work/atomic/plan.json" --gantt "$work/atomic/g.svg" \
  --dot "$work/atomic/t.dot" --quiet
expect_true "out is the plan" "$work/atomic/plan.json" "d['makespan'] > 0"
expect_in "gantt written" "$work/atomic/g.svg" "<svg"
expect_in "dot written" "$work/atomic/t.dot" "digraph"
if [ "$(ls -A "$work/atomic" | grep -c '^\.')" -eq 0 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL temporary files left: $(ls -A "$work/atomic")"; fi
if [ "$(stat -c %a "$work/atomic/plan.json")" = "$(umask -S >/dev/null; printf '%o' $((0666 & ~$(umask))))" ]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL --out mode $(stat -c %a "$work/atomic/plan.json"), umask $(umask)"
fi
check "out into a missing directory" 2 "$hetcoll" broadcast --times 1,2,3 --out "$work/missing/plan.json" --quiet
expect_in "missing directory named" "$work/err" "--out: cannot open for writing \"$work/missing/plan.json\""

# hetcoll tune: bad input is exit 2 with the option named; a good run writes the file.
small="$source_dir/examples/small_platform.xml"
check "tune: unknown --mpi" 2 "$hetcoll" tune --platform "$small" --mpi lam --out "$work/t.rules"
check "tune: communicator larger than the platform" 2 "$hetcoll" tune --platform "$small" --mpi openmpi \
  --communicator-sizes 8 --out "$work/t.rules"
expect_in "tune: size named" "$work/err" "--communicator-sizes: 8 is not 2 to 7"
check "tune: message size not a multiple" 2 "$hetcoll" tune --platform "$small" --mpi openmpi --message-bytes 6 \
  --out "$work/t.rules"
expect_in "tune: message size named" "$work/err" "--message-bytes: 6 is not a positive multiple"
check "tune: unknown collective" 2 "$hetcoll" tune --platform "$small" --mpi openmpi --collectives scatter \
  --out "$work/t.rules"
check "tune: negative size" 2 "$hetcoll" tune --platform "$small" --mpi openmpi --message-bytes -4 --out "$work/t.rules"
check "tune: root outside the smallest communicator" 2 "$hetcoll" tune --platform "$small" --mpi openmpi --root 3 \
  --out "$work/t.rules"
check "tune: cluster file" 2 "$hetcoll" tune --platform "$source_dir/examples/liu-kuo-wang-sec6.1.json" --mpi openmpi \
  --out "$work/t.rules"
check "tune: --base for Open MPI" 2 "$hetcoll" tune --platform "$small" --mpi openmpi --base "$small" --out "$work/t.rules"
check "tune: --base not JSON" 2 "$hetcoll" tune --platform "$small" --mpi mpich --base "$small" --out "$work/t.json"
check "tune: good run" 0 "$hetcoll" tune --platform "$small" --mpi mpich --collectives bcast --out "$work/t.json"
expect_in "tune: MPICH file written" "$work/t.json" '"collective=bcast"'

echo "bad-input CLI tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
