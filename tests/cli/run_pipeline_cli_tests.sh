#!/usr/bin/env bash
# End-to-end tests of the pipelined-broadcast commands (generate random,
# generate tiers, tree, steady broadcast). Usage: run_pipeline_cli_tests.sh
# HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
source "$(dirname "$0")/cli_test_lib.sh"  # $work (scratch), passed, failed, check, expect_in, ...

# --- generators ----------------------------------------------------------
check "generate random" 0 "$hetcoll" generate random --nodes 20 --density 0.1 --seed 3 --out "$work/random.json"
expect_in "generate random summary" "$work/out" "20-node platform"
check "generate random latency" 0 "$hetcoll" generate random --nodes 20 --density 0.1 --latency 1e-3 --seed 3 --out "$work/latency.json"
check "generate random stdout" 0 "$hetcoll" generate random --nodes 12 --density 0.2 --seed 3
expect_true "random json nodes" "$work/out" "len(d['nodes']) == 12"
check "generate tiers 30" 0 "$hetcoll" generate tiers --nodes 30 --seed 2 --out "$work/tiers30.json"
check "generate tiers 65" 0 "$hetcoll" generate tiers --seed 2 --out "$work/tiers65.json"
expect_true "tiers 65 nodes" "$work/tiers65.json" "len(d['nodes']) == 65"
check "generate tiers custom" 0 "$hetcoll" generate tiers --wan-nodes 3 --mans 1 --man-nodes 2 --lans-per-man 1 --lan-nodes 2
expect_true "tiers custom nodes" "$work/out" "len(d['nodes']) == 7"
check "generate random bad density" 2 "$hetcoll" generate random --density 1.5
expect_in "density named" "$work/err" "density"
check "generate tiers bad size" 2 "$hetcoll" generate tiers --nodes 40
expect_in "tiers presets named" "$work/err" "30 and 65"

# --- tree (built with the steady-state layer, HETCOLL_WITH_LP) --------------
if ! "$hetcoll" tree --help >/dev/null 2>&1; then
  echo "pipeline cli: $passed passed, $failed failed (tree and steady broadcast not built: HETCOLL_WITH_LP off)"
  [ "$failed" -eq 0 ]
  exit
fi
for heuristic in simple-prune refined-prune grow binomial multiport-grow multiport-prune improve; do
  check "tree $heuristic" 0 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic "$heuristic" --json
  expect_true "tree $heuristic valid" "$work/out" "d['valid'] and d['heuristic'] == '$heuristic'"
  expect_true "tree $heuristic spans" "$work/out" "len(d['edges']) == 29 and abs(d['throughput'] * d['period'] - 1) < 1e-9"
done
for heuristic in lp-prune lp-grow; do
  check "tree $heuristic" 0 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic "$heuristic" --json
  expect_true "tree $heuristic ratio" "$work/out" "d['valid'] and 0 < d['ratio'] <= 1 + 1e-9"
done
check "tree lp needs lp" 0 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic lp-grow --skip-lp --json
check "tree skip lp" 0 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --skip-lp --json
expect_true "tree skip lp no ratio" "$work/out" "d['ratio'] is None"
check "steady broadcast" 0 "$hetcoll" steady broadcast --platform "$work/tiers30.json" --slice-size 1e6 --json
expect_true "steady broadcast exact" "$work/out" "d['valid'] and '/' in d['throughput'] and d['certificate']['bound'] == d['throughput']"
expect_true "steady broadcast multi-tree" "$work/out" "d['multi_tree']['reaches_optimum'] and d['multi_tree']['tree_count'] >= 1 and d['multi_tree']['matchings'] >= 1"
check "steady broadcast times" 0 "$hetcoll" steady broadcast --times 1,2,3
expect_in "steady broadcast 5/7" "$work/out" "5/7"
check "steady broadcast summary" 0 "$hetcoll" steady broadcast --platform "$work/tiers65.json" --slice-size 1e6
expect_in "steady broadcast busiest ports" "$work/out" "busiest ports"
expect_in "steady broadcast tree weights" "$work/out" "tree weights"
if grep -q "tree 0:" "$work/out" || [ "$(wc -l <"$work/out")" -gt 12 ]; then
  failed=$((failed + 1)); echo "FAIL steady broadcast summary prints every tree's edges"
else passed=$((passed + 1)); fi
check "steady broadcast detail" 0 "$hetcoll" steady broadcast --platform "$work/tiers30.json" --slice-size 1e6 --detail
expect_in "steady broadcast detail trees" "$work/out" "tree 0: weight"
check "steady broadcast message size" 0 "$hetcoll" steady broadcast --platform "$work/latency.json" --message-size 1e9 --json
expect_true "steady broadcast latency aware" "$work/out" "d['valid'] and d['latency_aware']['chosen_trees'] >= 1 and d['latency_aware']['multi_tree']['predicted_makespan'] > 0 and d['latency_aware']['single_tree']['predicted_makespan'] > 0"
check "steady broadcast message size human" 0 "$hetcoll" steady broadcast --platform "$work/latency.json" --message-size 1e4 --quiet
expect_in "steady broadcast choice" "$work/out" "choice: one tree"
check "steady broadcast message size fixed costs" 2 "$hetcoll" steady broadcast --times 1,2,3 --message-size 1e6
check "experiment bcast-crossover quick" 0 "$hetcoll" experiment bcast-crossover --quick --out "$work"
for file in bcast-crossover.csv bcast-crossover.svg bcast-crossover-rate.svg; do
  [ -s "$work/$file" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL bcast-crossover wrote no $file"; }
done
check "steady broadcast schedule out" 0 "$hetcoll" steady broadcast --times 1,2,3,4 --schedule-out "$work/schedule.json" --quiet
expect_true "schedule is a periodic broadcast plan" "$work/schedule.json" "d['operation'] == 'broadcast' and d['optimal'] and all('tree' in t for s in d['slots'] for t in s['transfers'])"
check "validate multi-tree schedule" 0 "$hetcoll" validate --times 1,2,3,4 --plan "$work/schedule.json"
expect_in "validate multi-tree certificate" "$work/out" "proven by its certificate"
check "simulate multi-tree schedule" 0 "$hetcoll" simulate --times 1,2,3,4 --plan "$work/schedule.json" --operations 20000 --json
expect_true "simulated multi-tree near optimum" "$work/out" "d['finished'] and d['ratio'] > 0.99"
check "tree schedule out" 0 "$hetcoll" tree --times 1,2,3,4 --schedule-out "$work/tree-schedule.json" --quiet
check "validate tree schedule" 0 "$hetcoll" validate --times 1,2,3,4 --plan "$work/tree-schedule.json"
check "tree schedule refuses routed" 2 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic binomial --schedule-out "$work/routed.json"
check "steady broadcast needs slice" 2 "$hetcoll" steady broadcast --platform "$work/tiers30.json"
check "experiment bcast-trees quick" 0 "$hetcoll" experiment bcast-trees --quick --out "$work"
expect_in "bcast-trees table 3" "$work/out" "Table 3"
for file in bcast-trees.csv bcast-trees-fig4a.svg bcast-trees-fig4b.svg bcast-trees-fig5.svg; do
  [ -s "$work/$file" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL bcast-trees wrote no $file"; }
done
check "tree multi-port" 0 "$hetcoll" tree --platform "$work/random.json" --slice-size 1e6 --model multi-port --json
expect_true "tree multi-port model" "$work/out" "d['model'] == 'multi-port' and d['trees'][0]['weight'] == d['throughput']"
check "tree best slice" 0 "$hetcoll" tree --platform "$work/random.json" --message-size 1e8 --json
expect_true "tree slice chosen" "$work/out" "d['slice_size_chosen'] and d['predicted_makespan'] > 0"
check "tree slice without latency" 0 "$hetcoll" tree --platform "$work/tiers30.json" --message-size 1e8 --json
expect_true "tree slice rule" "$work/out" "d['slice_size_rule'].startswith('fewest slices') and d['slices'] < 10000"
check "tree slice without latency human" 0 "$hetcoll" tree --platform "$work/tiers30.json" --message-size 1e8 --quiet
expect_in "tree slice rule said" "$work/out" "no latency"
check "tree slice with latency" 0 "$hetcoll" tree --platform "$work/latency.json" --message-size 1e8 --json
expect_true "tree slice minimises" "$work/out" "'slice_size_rule' not in d"
check "tree optimal small" 0 "$hetcoll" tree --times 1,2,3,4,5 --heuristic optimal --json --out "$work/tree.json"
expect_true "tree optimal proven" "$work/tree.json" "d['optimal'] is True"
check "tree human" 0 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic binomial
expect_in "tree human routed" "$work/out" "man0.2 via hosts wan5, wan3"
check "tree needs slice" 2 "$hetcoll" tree --platform "$work/tiers30.json"
expect_in "tree slice named" "$work/err" "--slice-size"
check "tree unknown heuristic" 2 "$hetcoll" tree --platform "$work/tiers30.json" --slice-size 1e6 --heuristic magic
expect_in "tree heuristics listed" "$work/err" "refined-prune"
check "tree bad model" 2 "$hetcoll" tree --times 1,2 --model two-port
check "tree unknown source" 2 "$hetcoll" tree --times 1,2 --source nobody
cat >"$work/split.json" <<'JSON'
{"model": "graph", "nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
 "edges": [{"from": "a", "to": "b", "cost": 1}, {"from": "c", "to": "b", "cost": 1}]}
JSON
check "tree unreachable" 3 "$hetcoll" tree --platform "$work/split.json"

echo "pipeline cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
