#!/usr/bin/env bash
# End-to-end tests of the eager model: hetcoll broadcast/reduce --view eager, their
# plans through validate (and refused by simulate), and the errors of
# --view eager elsewhere. Usage: run_eager_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in

# The 8-host cluster of scripts/mpi-bench: 4 fast, 4 slow hosts (x1.6), each
# with its own NIC (Fast Ethernet: 50 us, 12.5 MB/s).
hosts=""
for i in 0 1 2 3; do hosts+="xeon$i:1 "; done
for i in 0 1 2 3; do hosts+="athlon$i:1.6 "; done
"$source_dir/scripts/nic-platform" sec61 5e-5 1.25e7 "$hosts" >"$work/sec61.xml"
platform="$work/sec61.xml"

# 16 bytes: the latency dominates and the flat tree is optimal (50 us + 7 x 1.28 us).
check "eager broadcast" 0 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view eager --json --out "$work/eager.json"
expect_true "eager model" "$work/out" "d['model'] == 'eager'"
expect_true "eager algorithm" "$work/out" "d['algorithm'] == 'eager-auto'"
expect_true "eager makespan" "$work/out" "abs(d['makespan'] - (5e-5 + 7 * 16 / 1.25e7)) < 1e-12"
expect_true "eager flat and optimal" "$work/out" "d['optimal'] and all(t['from'] == 'xeon0' for t in d['transfers'])"
expect_true "eager sends back to back" "$work/out" "[round(t['start'] * 1e8) for t in d['transfers']] == [128 * j for j in range(7)]"
expect_true "eager valid" "$work/out" "d['valid']"
check "eager text" 0 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view eager
expect_in "text names the model" "$work/out" "eager model: platform routes"
expect_in "text names the shape" "$work/out" "note         eager model: flat tree"
# 64 KiB: the occupancies dominate, a deeper tree.
check "eager large" 0 "$hetcoll" broadcast --platform "$platform" --message-size 65536 --view eager --json --out "$work/large.json"
expect_true "large not flat" "$work/out" "len(set(t['from'] for t in d['transfers'])) > 1"
expect_true "large bound" "$work/out" "d['lower_bound'] <= d['makespan']"
check "eager flat" 0 "$hetcoll" broadcast --platform "$platform" --message-size 65536 --view eager --algo flat --json
expect_true "flat algorithm" "$work/out" "d['algorithm'] == 'eager-flat' and all(t['from'] == 'xeon0' for t in d['transfers'])"
expect_true "flat slower than auto" "$work/out" "d['makespan'] >= $(json_field "$work/large.json" "d['makespan']")"
check "eager source" 0 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view eager --source athlon2 --json
expect_true "eager source used" "$work/out" "d['source'] == 'athlon2'"

# validate checks eager plans in their model; a tampered one is invalid (exit 5).
check "validate eager" 0 "$hetcoll" validate --platform "$platform" --plan "$work/large.json"
expect_in "validate says eager" "$work/out" "eager model"
python3 - "$work/large.json" "$work/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# The source's second send starts before its first has left its link.
sends = [t for t in d['transfers'] if t['from'] == d['source']]
sends[1]['start'] -= 1e-4
sends[1]['end'] -= 1e-4
json.dump(d, open(sys.argv[2], 'w'))
PY
check "validate tampered eager" 5 "$hetcoll" validate --platform "$platform" --plan "$work/bad.json"
expect_in "tampered: link taken twice" "$work/out" "before its previous one"
python3 - "$work/large.json" "$work/graph-model.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['model'] = 'graph'
json.dump(d, open(sys.argv[2], 'w'))
PY
check "eager plan as one-port" 5 "$hetcoll" validate --platform "$platform" --plan "$work/graph-model.json"
expect_in "one-port violated" "$work/out" "one-port"

# simulate refuses eager plans (exit 2), saying why.
check "simulate eager" 2 "$hetcoll" simulate --platform "$platform" --plan "$work/eager.json"
expect_in "simulate says why" "$work/err" "an eager plan cannot be simulated"

# The eager reduce (time reversal of the broadcast on the transposed costs).
# 16 bytes: the flat tree; the slow hosts' 80 us latency last, their 2.048 us
# windows on the root's link one after the other: 80 + 4 x 2.048 us.
check "eager reduce" 0 "$hetcoll" reduce --platform "$platform" --message-size 16 --view eager --json --out "$work/reduce.json"
expect_true "reduce model" "$work/out" "d['model'] == 'eager' and d['operation'] == 'reduce' and d['algorithm'] == 'eager-auto'"
expect_true "reduce makespan" "$work/out" "abs(d['makespan'] - (8e-5 + 4 * 16 * 1.6 / 1.25e7)) < 1e-12"
expect_true "reduce flat to the root" "$work/out" "all(t['to'] == 'xeon0' for t in d['transfers']) and len(d['transfers']) == 7"
expect_true "reduce windows back to back" "$work/out" "sorted(round(t['end'] * 1e9) for t in d['transfers'] if t['from'].startswith('athlon')) == [82048, 84096, 86144, 88192]"
expect_true "reduce valid" "$work/out" "d['valid']"
check "eager reduce text" 0 "$hetcoll" reduce --platform "$platform" --message-size 16 --view eager
expect_in "reduce text names the model" "$work/out" "each node sends once, after its children's messages have arrived"
expect_in "reduce text names the shape" "$work/out" "note         eager model: flat tree (all 7 others send to the root)"
check "eager reduce large" 0 "$hetcoll" reduce --platform "$platform" --message-size 65536 --view eager --root athlon1 --json --out "$work/reduce-large.json"
expect_true "reduce large not flat" "$work/out" "len(set(t['to'] for t in d['transfers'])) > 1 and d['root'] == 'athlon1'"
check "eager reduce flat" 0 "$hetcoll" reduce --platform "$platform" --message-size 65536 --view eager --root athlon1 --algo flat --json
expect_true "reduce flat slower" "$work/out" "d['algorithm'] == 'eager-flat' and d['makespan'] >= $(json_field "$work/reduce-large.json" "d['makespan']")"
check "validate eager reduce" 0 "$hetcoll" validate --platform "$platform" --plan "$work/reduce-large.json"
expect_in "validate reduce says eager" "$work/out" "eager model"
python3 - "$work/reduce.json" "$work/bad-reduce.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# Every sender at once: the windows on the root's link overlap.
for t in d['transfers']:
    duration = t['end'] - t['start']
    t['end'] = d['makespan']
    t['start'] = t['end'] - duration
json.dump(d, open(sys.argv[2], 'w'))
PY
check "validate tampered eager reduce" 5 "$hetcoll" validate --platform "$platform" --plan "$work/bad-reduce.json"
expect_in "tampered reduce: windows overlap" "$work/out" "before its previous one"
check "simulate eager reduce" 2 "$hetcoll" simulate --platform "$platform" --plan "$work/reduce.json"
expect_in "simulate reduce says why" "$work/err" "an eager plan cannot be simulated"
# --gantt: an eager plan's chart has no link rows (the model holds a link
# only for the occupancy, not for whole transfers); a one-port plan's has.
check "eager reduce gantt" 0 "$hetcoll" reduce --platform "$platform" --message-size 4096 --view eager --gantt "$work/eager-reduce.svg" --quiet
expect_in "eager gantt headline" "$work/eager-reduce.svg" "Reduce to xeon0"
if grep -q "crossing a one-port link or router" "$work/eager-reduce.svg"; then
  failed=$((failed + 1)); echo "FAIL eager gantt no link rows: $work/eager-reduce.svg draws link rows"
else
  passed=$((passed + 1))
fi
# Its bars: the occupancy at full strength on the row of the node whose
# link it holds (a reduce's receiver, at the end; a broadcast's sender, at
# the start), the latency in flight pale.
expect_in "eager reduce gantt legend" "$work/eager-reduce.svg" "latency in flight (overlaps other messages)"
expect_in "eager reduce gantt note" "$work/eager-reduce.svg" "holds its receiver&apos;s link only for its occupancy at its end"
check "eager broadcast gantt" 0 "$hetcoll" broadcast --platform "$platform" --message-size 4096 --view eager --gantt "$work/eager-bcast.svg" --quiet
expect_in "eager broadcast gantt note" "$work/eager-bcast.svg" "holds its sender&apos;s link only for its occupancy at its start"
# Many participants: summary rows (shares sending / receiving), no eager bars, so no note about them.
cat >"$work/c100.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <cluster id="c" prefix="h" suffix="" radical="0-299" speed="1Gf" bw="125MBps" lat="50us"/>
  </zone>
</platform>
XML
check "eager reduce summary gantt" 0 "$hetcoll" reduce --platform "$work/c100.xml" --message-size 256 --view eager --gantt "$work/eager-summary.svg" --quiet
expect_in "eager summary gantt rows" "$work/eager-summary.svg" "299 participants"
if grep -q "latency in flight" "$work/eager-summary.svg"; then
  failed=$((failed + 1)); echo "FAIL eager summary gantt: $work/eager-summary.svg explains bars it does not draw"
else
  passed=$((passed + 1))
fi
check "graph reduce gantt" 0 "$hetcoll" reduce --platform "$platform" --message-size 4096 --algo auto --gantt "$work/graph-reduce.svg" --quiet
expect_in "graph gantt has link rows" "$work/graph-reduce.svg" "crossing a one-port link or router"
if grep -q "latency in flight" "$work/graph-reduce.svg"; then
  failed=$((failed + 1)); echo "FAIL one-port gantt: $work/graph-reduce.svg draws latencies in flight"
else
  passed=$((passed + 1))
fi
check "eager reduce help" 0 "$hetcoll" reduce --help
expect_in "reduce help lists eager" "$work/out" "with --view eager"

# --view eager elsewhere: clear errors, exit 2.
check "eager allreduce" 2 "$hetcoll" allreduce --platform "$platform" --message-size 16 --view eager
expect_in "eager allreduce message" "$work/err" "--view eager: the eager model plans broadcasts and reduces only"
check "eager multicast" 2 "$hetcoll" multicast --platform "$platform" --message-size 16 --view eager --targets xeon1
expect_in "eager multicast message" "$work/err" "broadcasts and reduces only"
check "eager reduce router root" 2 "$hetcoll" reduce --platform "$platform" --message-size 16 --view eager --root nosuchhost
expect_in "eager reduce root message" "$work/err" "--root"
check "eager cluster" 2 "$hetcoll" broadcast --times 1,2,3 --view eager
expect_in "eager cluster message" "$work/err" "--view eager: this platform is a cluster"
check "eager unknown algo" 2 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view eager --algo fnf
expect_in "eager algo message" "$work/err" "--algo: the eager model's planners are auto, flat"
check "eager time limit" 2 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view eager --time-limit 5
expect_in "eager time limit message" "$work/err" "--time-limit: --view eager runs no search"
check "eager no size" 2 "$hetcoll" broadcast --platform "$platform" --view eager
expect_in "eager size message" "$work/err" "--message-size"
check "unknown view" 2 "$hetcoll" broadcast --platform "$platform" --message-size 16 --view postal
expect_in "unknown view message" "$work/err" "\"graph\", \"sender-speed\" or \"eager\""
check "eager in algorithms" 0 "$hetcoll" algorithms
expect_in "algorithms lists eager" "$work/out" "Broadcast planners in the eager model"
expect_in "algorithms lists eager reduce" "$work/out" "Reduce planners in the eager model"

echo "eager CLI tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
