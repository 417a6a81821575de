#!/usr/bin/env bash
# Output for people on real platforms, end to end: steady-state text in
# decimals with units and a practical period (the exact plan behind --exact
# and in --json), units wherever a time or size is printed, message sizes
# with units, one non-contradictory summary per plan, no source file names,
# and hints for operations that live under `hetcoll steady`.
# The text of the main outputs is compared with tests/cli/data/ux/*.txt
# (lines with timings removed).
# Usage: run_ux_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in
small="$source_dir/examples/small_platform.xml"
fat_tree="$source_dir/tests/data/simgrid/cluster_fat_tree.xml"
golden="$source_dir/tests/cli/data/ux"

expect_not_in() {  # expect_not_in NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then
    failed=$((failed + 1))
    echo "FAIL $1: \"$3\" should not be in $2:"
    grep -F -- "$3" "$2" | head -3
  else
    passed=$((passed + 1))
  fi
}

# same_text NAME GOLDEN FILE: equal once timing lines (LP, planned in) are removed.
same_text() {
  local filter='/^  LP  /d; /^  planned in /d; /^ *column generation: /d'
  if diff <(sed -e "$filter" "$2") <(sed -e "$filter" "$3") >"$work/diff"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1: output differs from $2:"
    head -20 "$work/diff"
  fi
}

# --- steady state: a practical period by default, decimals and seconds ----
check "steady scatter small platform" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB
same_text "steady scatter text" "$golden/steady_scatter_small.txt" "$work/out"
expect_not_in "no 32-digit fractions" "$work/out" "/484376242247363"
expect_not_in "no time units on a platform in seconds" "$work/out" "time unit"
check "steady reduce small platform" 0 "$hetcoll" steady reduce --platform "$small" --message-size 1e6 --quiet
same_text "steady reduce text" "$golden/steady_reduce_small.txt" "$work/out"
# The loss is what Prop. 4 allows: at most trees / T, here at most 1% of the optimum.
grep -E '^  lost ' "$work/out" | python3 -c "
import re, sys
line = sys.stdin.read()
lost, pct, bound = re.search(r'lost +([0-9.e+-]+) operations per s \(([0-9.]+)%\), within Prop. 4.s bound ([0-9.e+-]+)', line).groups()
assert float(lost) <= float(bound) + 1e-12 and float(pct) <= 1.0, line
" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL steady reduce loss within Prop. 4"; }
# --exact: the exact plan, every digit of its period.
check "steady scatter --exact" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB --exact --quiet
expect_in "exact throughput" "$work/out" "throughput   1250000000000000/484376242247363 (2.58064) operations per s"
expect_in "exact period digits" "$work/out" "period       13378642058095059026665437461799 s"
expect_in "exact plan optimal" "$work/out" "optimal      yes — proven by the LP's dual certificate (checked exactly)"
# --json: the exact plan, as before, with the exact period.
check "steady scatter --json" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB --json
expect_true "json plan is the exact one" "$work/out" \
  "d['optimal'] and d['throughput'] == '1250000000000000/484376242247363' and 'period_limit' not in d"
# --out with the text output: the practical plan, valid, with its exact period and loss bound.
check "steady scatter --out" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB --quiet \
  --out "$work/practical.json"
expect_true "practical plan fields" "$work/practical.json" \
  "d['period'] == 100 and d['period_limit'] == 100 and not d['optimal'] and d['loss_bound'] == '1/50' and len(str(d['exact_period'])) == 32"
check "validate practical plan" 0 "$hetcoll" validate --platform "$small" --message-size 1MB --plan "$work/practical.json"
expect_in "validate in operations per s" "$work/out" "throughput 2.57 operations per s, period 100 s"
check "simulate practical plan" 0 "$hetcoll" simulate --platform "$small" --message-size 1MB \
  --plan "$work/practical.json" --operations 3000
expect_in "simulate in seconds" "$work/out" "3000 operations in "
expect_in "simulate per s" "$work/out" " per s = "
# steady broadcast: the practical schedule by default too, the exact one with --exact.
check "steady broadcast small platform" 0 "$hetcoll" steady broadcast --platform "$small" --message-size 1e6 \
  --quiet --schedule-out "$work/broadcast-practical.json"
expect_in "broadcast practical period" "$work/out" "practical schedule: period 10 s in "
expect_in "broadcast slices per period" "$work/out" "331 slices per period = 33.1 slices per s (99.92% of the optimum)"
expect_in "broadcast loss within Prop. 4" "$work/out" "within Prop. 4's bound 0.2 = 2 trees / 10 s"
expect_in "broadcast exact period named" "$work/out" "the exact period, ~2.60353e+32 s (an integer of 33 digits), reaches the optimum (--exact prints it)"
expect_not_in "broadcast: no exact period as the schedule's" "$work/out" "one period of ~"
# (the schedule's messages are slices: validate takes their size from the plan)
check "validate broadcast practical schedule" 0 "$hetcoll" validate --platform "$small" \
  --plan "$work/broadcast-practical.json"
expect_in "broadcast practical schedule valid" "$work/out" "throughput 33.1 operations per s, period 10 s"
check "steady broadcast --exact" 0 "$hetcoll" steady broadcast --platform "$small" --message-size 1e6 --exact --quiet
expect_in "broadcast exact schedule" "$work/out" "one period of ~2.60353e+32 s (an integer of 33 digits) in 7 one-port matchings"
expect_not_in "broadcast --exact: no practical schedule" "$work/out" "practical schedule"
check "steady broadcast --json" 0 "$hetcoll" steady broadcast --platform "$small" --message-size 1e6 --json
expect_not_in "broadcast json: the exact schedule" "$work/out" "period_limit"
# --simulate: the note suggests nothing already given.
check "period-max and a short simulation" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB \
  --period-max 20 --simulate 300 --quiet
expect_in "short run caveat" "$work/out" "less than 10 periods' worth"
expect_not_in "no --period-max suggested when given" "$work/out" "--period-max T"
expect_in "suggests more operations" "$work/out" "simulate at least 510 operations (10 periods)"
check "exact and a short simulation" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB \
  --exact --simulate 100 --quiet
expect_in "suggests dropping --exact" "$work/out" "without --exact the period is a practical one"
# A unit-less platform: "time units".
check "steady gossip times" 0 "$hetcoll" steady gossip --times 1,2,2,4 --quiet
expect_in "time units when none declared" "$work/out" "throughput   0.0833333 operations per time unit"
expect_in "period in time units" "$work/out" "period       12 time units, 1 operation per period"

# --- units elsewhere ------------------------------------------------------
check "tree with units" 0 "$hetcoll" tree --platform "$small" --source Tremblay --message-size 1MB --quiet
expect_in "tree period in s" "$work/out" "period: 0.0356005 s per slice, throughput 28.0895 slices per s"
expect_in "tree makespan in s" "$work/out" "message of 1 MB in 11 slices: first slice 0.0424638 s, predicted makespan 0.398469 s"
check "steady broadcast with units" 0 "$hetcoll" steady broadcast --platform "$small" --message-size 1MB --quiet
expect_in "steady broadcast per s" "$work/out" "slices per s (period 0.0301867 s per slice)"
expect_in "steady broadcast makespans in s" "$work/out" "one tree (improve): 0.398469 s"
check "broadcast plan" 0 "$hetcoll" broadcast --platform "$small" --message-size 1MB --algo auto --quiet --out "$work/b.json"
expect_in "message size in words" "$work/out" "1 MB messages"
check "default plan" 0 "$hetcoll" broadcast --platform "$small" --message-size 3MB --quiet --out "$work/d.json"
check "simulate refuses the default's eager plan" 2 "$hetcoll" simulate --platform "$small" --plan "$work/d.json"
expect_in "simulate says why" "$work/err" "an eager plan cannot be simulated"
check "simulate makespan plan" 0 "$hetcoll" simulate --platform "$small" --plan "$work/b.json"
expect_in "planned in s" "$work/out" "  planned      0.487787 s"
grep -qE '^  simulated +[0-9.e+-]+ s' "$work/out" && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "FAIL simulated in seconds"; cat "$work/out"; }
check "cluster makespan in time units" 0 "$hetcoll" reduce --times 1,2,3,4,5 --quiet
expect_in "makespan time units" "$work/out" "  makespan     9 time units"

# --- message sizes with units -------------------------------------------
check "1MB" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1MB --json
cp "$work/out" "$work/1MB.json"
check "1e6" 0 "$hetcoll" steady scatter --platform "$small" --message-size 1e6 --json
expect_true "1MB = 1e6 bytes" "$work/out" "d['message_size'] == 1e6"
check "4KiB" 0 "$hetcoll" broadcast --platform "$small" --message-size 4KiB --json
expect_true "4KiB = 4096 bytes" "$work/out" "d['message_size'] == 4096"
for bad in 1Mb abc 1e6x ""; do
  check "bad size '$bad'" 2 "$hetcoll" broadcast --platform "$small" --message-size "$bad"
  expect_in "bad size '$bad' names the option" "$work/err" "--message-size"
done
check "zero size" 2 "$hetcoll" tree --platform "$small" --slice-size 0
expect_in "zero size message" "$work/err" '--slice-size: must be a positive finite number, got "0"'

# --- one honest summary ---------------------------------------------------
check "allreduce both phases optimal" 0 "$hetcoll" allreduce --times 1,2,3,4 --quiet
same_text "allreduce summary" "$golden/allreduce_1234.txt" "$work/out"
check "graph auto on a fat tree" 0 "$hetcoll" broadcast --platform "$fat_tree" --message-size 1MB --algo auto --quiet
expect_in "auto says what it picked" "$work/out" "auto: ECEF (the best of hierarchical, ECEF and look-ahead), as the 16 participants are more than the 10"
expect_in "guarantee for this size" "$work/out" "guarantee    heuristic, no proven ratio (16 participants; the exact search takes at most 10)"
expect_not_in "no policy text" "$work/out" "optimal when the exact search finishes"
check "graph auto small platform" 0 "$hetcoll" broadcast --platform "$small" --message-size 1MB --algo auto --quiet
expect_in "small run optimal" "$work/out" "guarantee    optimal (the exact search finished)"
expect_in "small run picked" "$work/out" "auto: the exact search, seeded with hierarchical (the best of hierarchical, ECEF and look-ahead), finished"
for command in "reduce --times 1,1,1,1,1.6,1.6,1.6,1.6,2.5,2.5" "allreduce --times 1,2,3,4,5,6,7" "algorithms" \
  "tree --platform $small --source Tremblay --message-size 1MB"; do
  # shellcheck disable=SC2086  # the command is several words
  check "$command" 0 "$hetcoll" $command
  if grep -qE '[a-z_]+\.h\b' "$work/out"; then
    failed=$((failed + 1)); echo "FAIL source file name in the output of $command:"; grep -E '[a-z_]+\.h\b' "$work/out" | head -3
  else
    passed=$((passed + 1))
  fi
done

# --- operations that live under `hetcoll steady` ------------------------
check "scatter at top level" 2 "$hetcoll" scatter --platform "$small"
expect_in "scatter hint" "$work/err" 'unknown command "scatter"; did you mean `hetcoll steady scatter`?'
check "gossip at top level" 2 "$hetcoll" gossip
expect_in "gossip hint" "$work/err" 'did you mean `hetcoll steady gossip`?'
check "top-level help" 0 "$hetcoll" --help
for operation in broadcast multicast reduce allreduce "steady scatter" "steady gossip" "steady reduce" "steady broadcast"; do
  expect_in "help lists $operation" "$work/out" "$operation"
done

echo "cli_ux: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
