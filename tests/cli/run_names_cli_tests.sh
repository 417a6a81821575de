#!/usr/bin/env bash
# End-to-end tests of how text and pictures name the nodes of real
# platforms: links and routers said as such (never bare numbers), trees of
# hosts with the links they cross, hosts resolved first and links or
# routers refused as sources, sites from SimGrid zones and JSON "site",
# units written in JSON files, and names shortened to their distinguishing
# part in pictures. Usage: run_names_cli_tests.sh HETCOLL_BINARY SOURCE_DIR
set -u
hetcoll="$1"
source_dir="$2"
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"  # $work, passed, failed, check, expect_in
small="$source_dir/examples/small_platform.xml"
two_sites="$source_dir/examples/two-sites.json"
g5k="$source_dir/tests/data/simgrid/g5k.xml"
fat_tree="$source_dir/tests/data/simgrid/cluster_fat_tree.xml"

expect_no_match() {  # expect_no_match NAME FILE EXTENDED_REGEX
  if grep -qE -- "$3" "$2"; then
    failed=$((failed + 1))
    echo "FAIL $1: /$3/ matches in $2:"
    grep -E -- "$3" "$2" | head -3
  else
    passed=$((passed + 1))
  fi
}

# --- routes name their links, with bandwidth and latency ----------------------
check "small broadcast" 0 "$hetcoll" broadcast --platform "$small" --message-size 1e6 --algo auto
expect_in "links counted by kind" "$work/out" "7 participants (24 links)"
expect_in "a one-link route with its figures" "$work/out" "Jacquelin receives 0.100286..0.487787 via link 145 (2.58 MB/s, 410 µs)"
expect_in "a longer route with its narrowest link" "$work/out" "via links 4, 3, 5 (narrowest: link 4, 10.1 MB/s)"
expect_no_match "no bare link numbers" "$work/out" "via [0-9]"

# --- tree: hosts only, the links they cross as labels -------------------------
check "small tree" 0 "$hetcoll" tree --platform "$small" --message-size 1e6 --source Tremblay
expect_in "tree root" "$work/out" "Tremblay — source"
expect_in "tree edge with its links" "$work/out" "Jacquelin via link 145 (2.58 MB/s, 410 µs)"
expect_no_match "no link as a tree vertex" "$work/out" "(-> [0-9]|^ *[0-9]+ ->)"
# Every tree line names a host of the file.
if sed -n '/^tree (/,$p' "$work/out" | tail -n +2 | sed 's/^[│├└─ ]*//; s/ .*//' |
  grep -qvE '^(Tremblay|Jupiter|Fafard|Ginette|Bourassa|Jacquelin|Boivin)$'; then
  failed=$((failed + 1)); echo "FAIL tree lines: a line does not start with a host"; cat "$work/out"
else
  passed=$((passed + 1))
fi

# --- steady state: ports say what they are ------------------------------------
check "small steady broadcast" 0 "$hetcoll" steady broadcast --platform "$small" --message-size 1e6 --source Tremblay
expect_in "busiest link named" "$work/out" "link 145 (2.58 MB/s, 410 µs) 100.0%"
expect_in "busiest host port" "$work/out" "Jupiter sends 100.0%"
expect_no_match "no bare port numbers" "$work/out" "[0-9]+ receive "

# --- ids: hosts first; links and routers refused saying so --------------------
check "a link as the source" 2 "$hetcoll" broadcast --platform "$small" --message-size 1e6 --source 0
expect_in "says it is a link" "$work/err" "\"0\" is link 0 (41.3 MB/s, 59.9 µs), not a host"
expect_in "names the host at that index" "$work/err" "as an index, 0 is host Tremblay"
check "a link as the root" 2 "$hetcoll" reduce --platform "$small" --message-size 1e6 --root 145
expect_in "root: says it is a link" "$work/err" "\"145\" is link 145 (2.58 MB/s, 410 µs), not a host"
check "a link as a target" 2 "$hetcoll" multicast --platform "$small" --message-size 1e6 --source Tremblay --targets Boivin,47
expect_in "target: says it is a link" "$work/err" "\"47\" is link 47"
check "a link as the tree source" 2 "$hetcoll" tree --platform "$small" --message-size 1e6 --source 3
expect_in "tree: says it is a link" "$work/err" "\"3\" is link 3"
check "a host by index" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --source 1 --json
expect_true "index 1 is a1" "$work/out" "d['source'] == 'a1'"
check "an index that is a router" 2 "$hetcoll" steady scatter --platform "$source_dir/examples/steady/scatter.json" --source 1 --targets P0,P1
expect_in "index 1 is a router" "$work/err" "index 1 is router A, not a host"
check "no such host" 2 "$hetcoll" broadcast --platform "$small" --message-size 1e6 --source Nobody --quiet
expect_in "no such host message" "$work/err" "no host \"Nobody\" (give a host's id or an index 0..6)"
check "a router as the source" 2 "$hetcoll" steady scatter --platform "$source_dir/examples/steady/scatter.json" --source A --targets P0,P1
expect_in "says it is a router" "$work/err" "\"A\" is router A, not a host"

# --- sites: SimGrid zones and JSON "site", named as in the file ---------------
check "g5k hierarchical" 0 "$hetcoll" broadcast --platform "$g5k" --message-size 1e6 --algo hierarchical --quiet
expect_in "g5k: nine zones" "$work/out" "hierarchical: 9 sites as the platform names them (AS_bordeaux, AS_grenoble, AS_lille, AS_lyon, ...)"
expect_no_match "g5k: no groups" "$work/out" "group"
check "two sites hierarchical" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --algo hierarchical --quiet
expect_in "two sites: two" "$work/out" "hierarchical: 2 sites as the platform names them (site-a, site-b)"
check "two sites platform written" 0 "$hetcoll" generate grid --sites 2 --hosts-per-site 2 --seed 1 --out "$work/grid.json"
check "sites found by cost" 0 "$hetcoll" broadcast --platform "$work/grid.json" --algo hierarchical --quiet
expect_in "sites found by cost said so" "$work/out" "found by link cost"

# --- JSON: values with units ----------------------------------------------------
check "two sites with units" 0 "$hetcoll" broadcast --platform "$two_sites" --message-size 1e6 --algo auto --json
expect_true "units read" "$work/out" "abs(d['makespan'] - 0.09805) < 1e-9"
cat >"$work/bad-unit.json" <<'JSON'
{"model": "graph", "nodes": [{"id": "a"}, {"id": "b"}],
 "edges": [{"from": "a", "to": "b", "latency": "5 parsecs", "bandwidth": "1Gbps"}]}
JSON
check "unknown unit" 2 "$hetcoll" broadcast --platform "$work/bad-unit.json" --message-size 1e6
expect_in "unknown unit names the field" "$work/err" "edges[0].latency"
cat >"$work/bad-site.json" <<'JSON'
{"model": "graph", "nodes": [{"id": "a", "site": 3}, {"id": "b"}],
 "edges": [{"from": "a", "to": "b", "cost": 1}]}
JSON
check "site not a string" 2 "$hetcoll" broadcast --platform "$work/bad-site.json"
expect_in "site message" "$work/err" "nodes[0].site: must be a non-empty string"

# --- pictures: distinguishing part of names kept ------------------------------
check "g5k gantt" 0 "$hetcoll" broadcast --platform "$g5k" --message-size 1e6 --algo hierarchical --quiet --gantt "$work/g5k.svg"
expect_in "g5k row keeps the host part" "$work/g5k.svg" ">bordeplage-1…"
expect_no_match "g5k: no middle cuts" "$work/g5k.svg" "bordeplage…"

# --- DOT trees: hosts only, each edge labelled with the links it crosses ------
check "broadcast --dot on a graph" 0 "$hetcoll" broadcast --platform "$small" --message-size 1e6 --algo auto \
  --dot "$work/b.dot" --quiet
expect_in "a one-link edge label" "$work/b.dot" 'link 145 (2.58 MB/s, 410 µs)'
expect_in "a long route shortened to its narrowest link" "$work/b.dot" 'narrowest: link 4 (10.1 MB/s, 480 µs)'
expect_in "edge times with the unit" "$work/b.dot" ' s\n'
# Nodes of the drawing: the 7 hosts, no link or router.
nodes=$(grep -cE '^ +b[0-9]+ \[label=' "$work/b.dot")
if [ "$nodes" -eq 7 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL broadcast --dot: $nodes nodes, not the 7 hosts"; fi
check "tree --dot" 0 "$hetcoll" tree --platform "$small" --message-size 1e6 --source Tremblay --dot "$work/t.dot" --quiet
expect_in "tree --dot edge to Jacquelin" "$work/t.dot" 'link 145 (2.58 MB/s, 410 µs)'
nodes=$(grep -cE '^ +h[0-9]+ \[label=' "$work/t.dot")
if [ "$nodes" -eq 7 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL tree --dot: $nodes nodes, not the 7 hosts"; fi
check "tree --dot on a fat tree" 0 "$hetcoll" tree --platform "$fat_tree" --message-size 1e6 --dot "$work/f.dot" --quiet
expect_in "shared id prefix said once" "$work/f.dot" '4 links link_from_…:'
expect_in "shared figures said once" "$work/f.dot" 'each 125 MB/s, 50 µs'
check "tree --dot refuses a picture" 2 "$hetcoll" tree --platform "$small" --message-size 1e6 --dot "$work/t.svg"
expect_in "tree --dot says DOT" "$work/err" 'tree writes Graphviz DOT'
if command -v dot >/dev/null; then
  check "the DOT renders" 0 dot -Tsvg "$work/t.dot" -o "$work/t.svg"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
