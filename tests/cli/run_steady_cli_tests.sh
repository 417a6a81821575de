#!/usr/bin/env bash
# End-to-end tests of the steady-state commands (steady scatter|gossip|reduce,
# validate and simulate of periodic plans). Usage: run_steady_cli_tests.sh
# HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
source "$(dirname "$0")/cli_test_lib.sh"  # $work (scratch), passed, failed, check, expect_in, ...
fig6="$source_dir/examples/steady/reduce_fig6.json"
scatter="$source_dir/examples/steady/scatter.json"

# --- reduce: Legrand, Marchal, Robert 2003 Fig. 6, TP = 1 ----------------
check "reduce fig6" 0 "$hetcoll" steady reduce --platform "$fig6" --root P0 --out "$work/fig6.json"
expect_in "reduce fig6 throughput" "$work/out" "throughput   1 operation"
expect_in "reduce fig6 proven" "$work/out" "proven by the LP's dual certificate (checked exactly)"
check "reduce fig6 json" 0 "$hetcoll" steady reduce --platform "$fig6" --root P0 --json
cp "$work/out" "$work/fig6_stdout.json"
expect_true "reduce json fields" "$work/fig6_stdout.json" \
  "d['operation'] == 'reduce' and d['throughput'] == '1' and d['valid'] and d['optimal'] and len(d['trees']) >= 1 and d['certificate']['formulation'] == 'reduce'"
check "validate reduce plan" 0 "$hetcoll" validate --platform "$fig6" --plan "$work/fig6.json"
expect_in "validate says valid" "$work/out" "valid steady-state reduce plan"
expect_in "validate checked the certificate" "$work/out" "proven by its certificate"
check "simulate reduce plan" 0 "$hetcoll" simulate --platform "$fig6" --plan "$work/fig6.json" --operations 2000 --json
expect_true "simulated throughput near 1" "$work/out" "d['finished'] and 0.99 < d['ratio'] <= 1.0"

# A tampered plan: a claimed throughput above the proven bound.
python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); d['throughput']='2'; d['operations_per_period']=2*d['operations_per_period']
json.dump(d, open(sys.argv[2],'w'))" "$work/fig6.json" "$work/tampered.json"
check "validate tampered (exit 5: read, but invalid)" 5 "$hetcoll" validate --platform "$fig6" --plan "$work/tampered.json"
expect_in "tampered plan named invalid" "$work/out" "INVALID"

# --- scatter and gossip --------------------------------------------------
check "scatter" 0 "$hetcoll" steady scatter --platform "$scatter" --source S --simulate 500
expect_in "scatter throughput" "$work/out" "throughput   0.5 operations per ms"
expect_in "scatter simulated" "$work/out" "simulated    500 operations"
check "scatter whole messages" 0 "$hetcoll" steady scatter --platform "$scatter" --source S --whole-messages --json
expect_true "whole counts" "$work/out" \
  "d['split_messages'] is False and all(isinstance(t['messages'], int) for s in d['slots'] for t in s['transfers'])"
check "scatter by-source" 0 "$hetcoll" steady scatter --platform "$scatter" --source S --formulation by-source --json
expect_true "by-source same optimum" "$work/out" "d['throughput'] == '1/2' and d['algorithm'] == 'personal-by-source'"
check "gossip cluster" 0 "$hetcoll" steady gossip --times 1,2,2,4 --json --out "$work/gossip.json"
expect_true "gossip valid" "$work/out" "d['valid'] and d['optimal'] and d['operation'] == 'gossip'"
check "validate gossip" 0 "$hetcoll" validate --times 1,2,2,4 --plan "$work/gossip.json"
check "reduce with period max" 0 "$hetcoll" steady reduce --times 1,3,7 --period-max 20 --json
expect_true "period limit recorded" "$work/out" "d['period'] == 20 and d['valid'] and d['throughput'] == '1/10' and not d['optimal']"

# --- a SimGrid platform: links and routers forward ---------------------
check "simgrid scatter" 0 "$hetcoll" steady scatter --platform "$source_dir/examples/small_platform.xml" \
  --message-size 1e6 --simulate 100 --quiet
expect_in "simgrid scatter proven" "$work/out" "proven by the LP's dual certificate (checked exactly)"
expect_in "short run caveat" "$work/out" "less than 10 periods' worth"
check "simgrid reduce fixed period" 0 "$hetcoll" steady reduce --platform "$source_dir/examples/small_platform.xml" \
  --message-size 1e6 --participants Tremblay,Jupiter,Fafard --period-max 100 --simulate 200000 --json
expect_true "fixed-period simulation converges" "$work/out" \
  "d['valid'] and d['period'] == 100 and d['simulation']['finished'] and d['simulation']['ratio'] > 0.9"

# --- reduce LP methods: tree pricing (default), full LP, column generation,
# QSopt_ex — the same exact optimum, each plan verified -------------------
check "generate tiers" 0 "$hetcoll" generate tiers --nodes 30 --seed 3 --out "$work/t30.json"
lan=lan0.0.0,lan0.0.1,lan0.1.0,lan1.0.0,lan1.0.1,lan1.1.2
for method in default --full-lp --column-generation --exact-solver "--simplex primal"; do
  name=${method#--}
  # shellcheck disable=SC2086  # the method is one or two words
  check "reduce tiers $name" 0 "$hetcoll" steady reduce --platform "$work/t30.json" --message-size 1e6 \
    --participants "$lan" --json --out "$work/reduce-$name.json" $([ "$method" = default ] || echo "$method")
  cp "$work/out" "$work/reduce-$name.stdout.json"
  expect_true "reduce tiers $name valid and proven" "$work/reduce-$name.stdout.json" \
    "d['valid'] and d['optimal'] and d['certificate']['bound'] == d['throughput']"
  check "validate reduce tiers $name" 0 "$hetcoll" validate --platform "$work/t30.json" --message-size 1e6 \
    --plan "$work/reduce-$name.json"
done
python3 - "$work" <<'PY' && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL reduce LP methods agree"; }
import json, sys
work = sys.argv[1]
plans = {name: json.load(open(f"{work}/reduce-{name}.stdout.json"))
         for name in ["default", "full-lp", "column-generation", "exact-solver", "simplex primal"]}
tp = {name: plan["throughput"] for name, plan in plans.items()}
assert len(set(tp.values())) == 1 and "/" in tp["default"], tp
stats = {name: plan["stats"] for name, plan in plans.items()}
assert "reduction-tree pricing" in stats["default"]["lp_method"], stats["default"]
generated = stats["column-generation"]
assert "column generation" in generated["lp_method"], generated
assert generated["lp_columns_loaded"] < generated["lp_columns"], generated
assert generated["lp_generation_rounds"] >= 1, generated
assert stats["full-lp"]["lp_method"].startswith("clp-dual + exact basis"), stats["full-lp"]
assert "pricing" not in stats["full-lp"]["lp_method"], stats["full-lp"]
assert stats["simplex primal"]["lp_method"].startswith("clp-primal"), stats["simplex primal"]
assert stats["exact-solver"]["lp_method"] == "qsopt_ex", stats["exact-solver"]
PY
check "column generation excludes full LP" 2 "$hetcoll" steady reduce --platform "$work/t30.json" \
  --message-size 1e6 --participants "$lan" --column-generation --full-lp
expect_in "exclusion named" "$work/err" "--column-generation"
check "reduce help" 0 "$hetcoll" steady reduce --help
expect_in "help explains column generation" "$work/out" "--column-generation"
expect_in "column generation: full LP's certificate" "$work/out" "certificate are the full LP's"
expect_in "help explains full LP" "$work/out" "--full-lp"
expect_in "help names the default" "$work/out" "reduction-tree pricing"

# --- experiments (quick): CSV + SVG, every plan verified inside --------
check "experiment steady-paper" 0 "$hetcoll" experiment steady-paper --quick --out "$work/exp"
expect_in "fig6 reproduced" "$work/out" "Fig. 6 reduce: TP 1 (paper 1)"
expect_in "toy scatter reproduced" "$work/out" "Fig. 2 toy scatter: TP 1/2 (paper 1/2)"
check "experiment steady-tiers" 0 "$hetcoll" experiment steady-tiers --quick --out "$work/exp"
expect_in "tiers reduce row" "$work/out" "reduce"
check "experiment steady-scale" 0 "$hetcoll" experiment steady-scale --quick --out "$work/exp" --seed 3
check "experiment steady-scale one operation" 0 "$hetcoll" experiment steady-scale --quick --sizes 30 \
  --operation broadcast --out "$work/exp1"
python3 -c "import csv,sys; assert {r['operation'] for r in csv.DictReader(open(sys.argv[1]))} == {'broadcast'}" \
  "$work/exp1/steady-scale.csv" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL steady-scale --operation"; }
check "experiment steady-scale bad operation" 2 "$hetcoll" experiment steady-scale --quick --operation allgather \
  --out "$work/exp1"
python3 - "$work/exp/steady-scale.csv" <<'PY' && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL steady-scale csv"; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["operation"] for r in rows} == {"scatter", "gossip", "broadcast", "reduce"}, rows
assert all(r["valid"] == "true" and r["optimal"] == "true" for r in rows), rows
PY
for file in steady-paper.csv steady-paper.svg steady-paper-prop4.svg steady-tiers.csv steady-tiers.svg \
  steady-tiers-lp-time.svg steady-scale.csv steady-scale.svg; do
  [ -s "$work/exp/$file" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL experiment wrote no $file"; }
done
python3 - "$work/exp/steady-paper.csv" <<'PY' && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL prop4 guarantee"; }
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["part"] == "prop4"]
assert rows and all(float(r["value"]) >= float(r["paper"]) - 1e-9 and float(r["value"]) <= 1 for r in rows), rows
PY

# --- bad input: clear messages, exit codes ------------------------------
check "unreachable target" 3 "$hetcoll" steady gossip --platform "$scatter"
expect_in "unreachable named" "$work/err" "cannot be reached"
check "router as target" 2 "$hetcoll" steady scatter --platform "$scatter" --source S --targets A
expect_in "router named" "$work/err" "\"A\" is router A, not a host"
check "one participant" 2 "$hetcoll" steady reduce --platform "$fig6" --participants P0
expect_in "two participants needed" "$work/err" "at least two participants"
check "unknown node" 2 "$hetcoll" steady reduce --platform "$fig6" --root P9
expect_in "unknown node named" "$work/err" "P9"
check "period too small" 2 "$hetcoll" steady reduce --times 1,3,7 --period-max 5
expect_in "too small named" "$work/err" "too small"
check "bad period" 2 "$hetcoll" steady scatter --platform "$scatter" --period-max 0
expect_in "period named" "$work/err" "--period-max"
cat >"$work/wire.json" <<'JSON'
{"model": "graph", "nodes": [{"id": "S"}, {"id": "T"}], "edges": [{"from": "S", "to": "T", "cost": 0}]}
JSON
check "zero-cost route" 2 "$hetcoll" steady scatter --platform "$work/wire.json"
expect_in "unbounded named" "$work/err" "unbounded"
check "help" 0 "$hetcoll" steady reduce --help
expect_in "help explains period-max" "$work/out" "--period-max"

echo "steady cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
