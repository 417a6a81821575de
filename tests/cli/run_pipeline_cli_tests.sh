#!/usr/bin/env bash
# End-to-end tests of the pipelined-broadcast commands (generate random,
# generate tiers, tree, steady broadcast). Usage: run_pipeline_cli_tests.sh
# HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
source "$(dirname "$0")/cli_test_lib.sh"

# --- generators ----------------------------------------------------------
check "generate random" 0 "$hetcoll" generate random --nodes 20 --density 0.1 --seed 3 --out "$work/random.json"
expect_in "generate random summary" "$work/out" "20-node platform"
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

echo "pipeline cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
