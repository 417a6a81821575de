# Helpers shared by the command-line test scripts (sourced, not run).
# The caller may set $work (a scratch directory) and passed/failed; else they are made below.

check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" expected="$2"
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [ "$status" -eq "$expected" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $status, expected $expected"
    head -5 "$work/out" "$work/err"
  fi
}

expect_in() {  # expect_in NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1: \"$3\" not in $2:"
    head -5 "$2"
  fi
}

json_field() {  # json_field FILE EXPRESSION  (python3 evaluates d[...])
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

expect_true() {  # expect_true NAME FILE PYTHON_EXPRESSION_ON_d
  if [ "$(json_field "$2" "$3")" = "True" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1: $3 is not true for $2"
  fi
}

expect_exit_fast() {  # expect_exit_fast NAME SECONDS EXPECTED_EXIT COMMAND...: exit code and wall time
  local name="$1" seconds="$2" expected="$3"
  shift 3
  local start end
  start=$(date +%s.%N)
  check "$name" "$expected" "$@"
  end=$(date +%s.%N)
  if python3 -c "import sys; sys.exit(0 if $end - $start <= $seconds else 1)"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: took more than $seconds s"
  fi
}

# A scratch directory removed on exit and the counters, unless the caller
# already set them.
if [ -z "${work:-}" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
passed=${passed:-0}
failed=${failed:-0}
