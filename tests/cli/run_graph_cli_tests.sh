#!/usr/bin/env bash
# End-to-end tests of planning on platform graphs: broadcast / multicast /
# reduce / allreduce on graphs, --view, validate and simulate of graph plans,
# generate grid, the pictures. Usage: run_graph_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in
two_sites="$source_dir/examples/two-sites.json"

# --- the two-site example: one WAN crossing, proven for the graph ------------
check "two-sites broadcast" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --algo auto --json --out "$work/two.json"
expect_true "two-sites makespan" "$work/out" "abs(d['makespan'] - 0.09805) < 1e-9"
expect_true "two-sites graph model" "$work/out" "d['model'] == 'graph'"
expect_true "two-sites proven on the graph" "$work/out" "d['optimal'] and 'exact search' in d['optimality_proof']"
expect_true "two-sites routes" "$work/out" "all(t['route'][0] == t['from'] and t['route'][-1] == t['to'] for t in d['transfers'])"
expect_true "two-sites valid" "$work/out" "d['valid']"
check "two-sites text" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --algo auto
expect_in "text names the model" "$work/out" "platform graph"
if grep -q "Thm 4.4" "$work/out"; then
  failed=$((failed + 1)); echo "FAIL two-sites text: a sender-speed theorem is printed for the graph"
else
  passed=$((passed + 1))
fi
# The old collapse: every claim says it is the view's.
check "two-sites sender-speed view" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --view sender-speed --json --out "$work/view.json"
expect_true "view model" "$work/out" "d['model'] == 'sender-speed'"
expect_true "view claims scoped" "$work/out" "'sender-speed view' in d['claims_hold_for'] and 'sender-speed view' in d['guarantee'] and (not d['optimal'] or 'sender-speed view' in d['optimality_proof'])"
check "view text" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --view sender-speed
expect_in "view text scoped" "$work/out" "claims for"
# Validate and simulate graph plans; the view's plan executed on the graph.
check "validate graph plan" 0 "$hetcoll" validate --platform "$two_sites" --plan "$work/two.json"
expect_in "validate says graph" "$work/out" "platform graph"
check "simulate graph plan" 0 "$hetcoll" simulate --platform "$two_sites" --plan "$work/two.json" --json
expect_true "simulated as planned" "$work/out" "abs(d['makespan'] - 0.09805) < 1e-9"
check "simulate K operations" 0 "$hetcoll" simulate --platform "$two_sites" --plan "$work/two.json" --operations 5 --json
expect_true "K operations" "$work/out" "len(d['operation_completion']) == 5 and d['makespan'] >= 5 * 0.09 - 1e-9"
check "simulate view plan" 0 "$hetcoll" simulate --platform "$two_sites" --plan "$work/view.json" --json
expect_true "view plan executed" "$work/out" "d['makespan'] <= d['planned_makespan']"
check "simulate text" 0 "$hetcoll" simulate --platform "$two_sites" --plan "$work/view.json"
expect_in "simulate text" "$work/out" "sender-speed view"
# A tampered plan is refused (exit 5: an invalid plan) with the violation named.
python3 - "$work/two.json" "$work/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['transfers'][-1]['start'] -= 0.05
d['transfers'][-1]['end'] -= 0.05
json.dump(d, open(sys.argv[2], 'w'))
PY
check "validate tampered" 5 "$hetcoll" validate --platform "$two_sites" --plan "$work/bad.json"
expect_in "tampered names causality" "$work/out" "causality"

# --- every operation and planner on a generated grid ----------------------------
check "generate grid" 0 "$hetcoll" generate grid --sites 3 --hosts-per-site 3-5 --wan-ratio 20 --seed 4 --out "$work/grid.json"
expect_in "grid summary" "$work/out" "platform"
check "generate grid 3 levels" 0 "$hetcoll" generate grid --levels 3 --regions 2 --sites 2 --hosts-per-site 4 --seed 1
expect_true "grid 3 levels hosts" "$work/out" "sum(1 for n in d['nodes'] if not n.get('router')) == 16"
check "generate grid bad range" 2 "$hetcoll" generate grid --hosts-per-site 9-3
expect_in "bad range named" "$work/err" "--hosts-per-site"
for op in broadcast reduce allreduce; do
  for algo in auto hierarchical lookahead ecef fef fnf-view; do
    check "$op $algo on grid" 0 "$hetcoll" "$op" --platform "$work/grid.json" --algo "$algo" --json --out "$work/$op-$algo.json"
    expect_true "$op $algo valid" "$work/out" "d['valid'] and d['model'] == 'graph'"
    check "$op $algo validates" 0 "$hetcoll" validate --platform "$work/grid.json" --plan "$work/$op-$algo.json"
  done
done
check "multicast on grid" 0 "$hetcoll" multicast --platform "$work/grid.json" --source s0-h0 --targets s1-h1,s2-h2 --json
expect_true "multicast targets" "$work/out" "d['targets'] == ['s1-h1', 's2-h2']"
check "router as source" 2 "$hetcoll" broadcast --platform "$work/grid.json" --source s0-sw
expect_in "router named" "$work/err" "router"
check "cluster algo on graph" 2 "$hetcoll" broadcast --platform "$work/grid.json" --algo snf
expect_in "view suggested" "$work/err" "--view sender-speed"
check "bad view" 2 "$hetcoll" broadcast --platform "$work/grid.json" --view tree
check "view graph on cluster" 2 "$hetcoll" broadcast --times 1,2,3 --view graph

# --- pictures --------------------------------------------------------------
check "gantt and tree" 0 "$hetcoll" reduce --platform "$work/grid.json" --gantt "$work/g.svg" --dot "$work/t.svg" --quiet
expect_in "gantt has link classes" "$work/g.svg" "over WAN"
expect_in "gantt has a shared link row" "$work/g.svg" "-up"
expect_in "tree colours slow links" "$work/t.svg" "slowest link"
check "dot" 0 "$hetcoll" broadcast --platform "$work/grid.json" --dot "$work/t.dot" --quiet
expect_in "dot edges coloured" "$work/t.dot" "color="

# --auto-budget is the sender-speed auto's; the graph search has only the limits.
check "auto budget refused on a graph" 2 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --auto-budget 1
expect_in "auto budget message" "$work/err" "--auto-budget: sender-speed --algo auto only"
check "auto budget with the sender-speed view" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --view sender-speed --auto-budget 0.01

# --- one budget per command: limits bound every phase and sub-search ---------
# A path of hosts: routes as long as the platform, so a table of a route per
# pair grows as n^3 (400 hosts: about 2e7 hops).
path_graph() {  # path_graph N FILE
  python3 -c "
import json, sys
n = int(sys.argv[1])
json.dump({'model': 'graph', 'symmetric': True, 'nodes': [{'id': f'v{i}'} for i in range(n)],
           'edges': [{'from': f'v{i}', 'to': f'v{i+1}', 'cost': 1 + (i % 7) / 4} for i in range(n - 1)]},
          open(sys.argv[2], 'w'))" "$1" "$2"
}
path_graph 400 "$work/path400.json"
path_graph 1000 "$work/path1000.json"
for algo in fef ecef lookahead fnf-view; do
  expect_exit_fast "$algo: a route table beyond the time limit is not started" 5 4 \
    "$hetcoll" broadcast --platform "$work/path400.json" --algo "$algo" --time-limit 0.3 --json
  expect_in "$algo: refusal gives the estimate" "$work/err" "no plan within the limit: $algo: its route table of 400 participants"
done
expect_exit_fast "a route table beyond memory is refused, not allocated" 10 4 \
  "$hetcoll" reduce --platform "$work/path1000.json" --algo ecef --time-limit none --json
expect_in "memory refusal gives the estimate" "$work/err" "GB, above the"
"$hetcoll" generate random --nodes 16 --density 0.4 --seed 3 --out "$work/rnd16.json" >/dev/null
expect_exit_fast "all-reduce search: one time limit for all 32 sub-searches" 3 4 \
  "$hetcoll" allreduce --platform "$work/rnd16.json" --message-size 1e6 --algo optimal --time-limit 0.5 --json
expect_true "stopped all-reduce plan valid" "$work/out" "d['valid'] and d['status'] == 'time_limit'"
check "all-reduce search: one node limit for all sub-searches" 4 \
  "$hetcoll" allreduce --platform "$work/rnd16.json" --message-size 1e6 --algo optimal --node-limit 1000 --json
expect_true "exactly 1000 nodes over all sub-searches" "$work/out" "d['stats']['nodes'] == 1000 and d['status'] == 'node_limit'"
check "graph search: node limit exact" 4 \
  "$hetcoll" broadcast --platform "$work/rnd16.json" --message-size 1e6 --algo optimal --node-limit 7 --json
expect_true "exactly 7 nodes" "$work/out" "d['stats']['nodes'] == 7"

# --- choose: the lower bound on every schedule, beside the candidates ---------
small="$source_dir/examples/small_platform.xml"
check "choose json with bound" 0 "$hetcoll" choose --platform "$small" --operation allreduce --count 1024 --json
expect_true "bound below every candidate" "$work/out" \
  "d['lower_bound_seconds'] > 0 and all(c['predicted_seconds'] is None or c['predicted_seconds'] >= d['lower_bound_seconds'] for c in d['candidates'])"
expect_true "bound names its kind" "$work/out" "d['lower_bound_kind'] in ('latency', 'cut', 'direct or relayed', 'traffic')"
check "choose bound only" 0 "$hetcoll" choose --platform "$small" --operation bcast --count 1048576 --bound-only --json
expect_true "bound only: no candidates" "$work/out" "'candidates' not in d and d['lower_bound_seconds'] > 1.6"
check "choose text shows the bound" 0 "$hetcoll" choose --platform "$small" --operation reduce --count 4
expect_in "text bound line" "$work/out" "lower bound: "
check "choose bound, root out of range (exit 2)" 2 "$hetcoll" choose --platform "$small" --operation reduce --count 4 --root 7 --bound-only
expect_in "names the root" "$work/err" "root 7"
# MPI_Allgather: blocks per rank; on small_platform.xml the split all-gather crosses the WAN once per block.
check "choose allgather" 0 "$hetcoll" choose --platform "$small" --operation allgather --count 4 --json
expect_true "allgather: no root, split chosen, whole-message plans refused" "$work/out" \
  "d['root'] == -1 and d['chosen'] == 'hetcoll:split' and d['chosen_seconds'] < d['default_seconds'] and 'lower_bound_seconds' not in d and [c['refused'] != '' for c in d['candidates'] if c['name'] == 'hetcoll:graph'] == [True]"
check "choose allgather bound only (exit 2)" 2 "$hetcoll" choose --platform "$small" --operation allgather --count 4 --bound-only
expect_in "says no bound for allgather" "$work/err" "no lower bound is computed for allgather"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
