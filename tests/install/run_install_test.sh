#!/usr/bin/env bash
# The installed package works for a consumer project:
#   1. `cmake --install` of this build tree into a temporary prefix installs
#      the command, the library, the headers, the CMake package and the
#      pkg-config file;
#   2. every installed header includes only the standard library and other
#      hetcoll headers (private dependencies such as nlohmann_json, pugixml,
#      fmt or an LP solver never leak), and all of them compile together;
#   3. examples/cpp is configured with find_package(hetcoll) against the
#      prefix, built and run; the same program also builds with pkg-config.
# It reuses the built tree (no second build of hetcoll): a few seconds.
# Usage: run_install_test.sh CMAKE GENERATOR CXX BUILD_DIR SOURCE_DIR
set -u
cmake="$1" generator="$2" cxx="$3" build_dir="$4" source_dir="$5"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# Non-hetcoll headers a public header may include: public dependencies of an
# installed library (e.g. mpi.h for hetcoll_mpi, gmpxx.h for the exact
# rationals of the steady-state layer). Such headers are left out
# of the compile-them-all check (it has only the prefix on its include path).
allowed_public_includes=(mpi.h gmpxx.h)

"$cmake" --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }

libdir=$(cd "$prefix" && ls -d lib lib64 lib/*-linux-gnu 2>/dev/null | while read -r d; do
  [ -e "$d/pkgconfig/hetcoll.pc" ] && echo "$d"; done | head -1)
[ -n "$libdir" ] || fail "no pkgconfig/hetcoll.pc under $prefix/lib*"
for file in bin/hetcoll include/hetcoll/hetcoll.h "$libdir/cmake/hetcoll/hetcollConfig.cmake" \
            "$libdir/cmake/hetcoll/hetcollConfigVersion.cmake" "$libdir/pkgconfig/hetcoll.pc"; do
  [ -e "$prefix/$file" ] || fail "not installed: $file"
done
ls "$prefix/$libdir"/libhetcoll.* >/dev/null 2>&1 || fail "not installed: $libdir/libhetcoll.*"

# Public headers: includes are <standard> or hetcoll/...; anything else is a
# dependency leaking into the interface.
headers=$(cd "$prefix/include" && find hetcoll -name '*.h' | sort)
[ -n "$headers" ] || fail "no headers installed"
for header in $headers; do
  compile_alone=yes
  while IFS= read -r line; do
    included=$(echo "$line" | sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*)[>"].*/\1/')
    case "$included" in
      hetcoll/*) ;;
      *[./]*)
        if [[ " ${allowed_public_includes[*]} " == *" $included "* ]]; then
          compile_alone=no
        else
          fail "$header includes <$included>: a public header may include only the standard library and hetcoll/ (keep the dependency in a .cpp or an internal header)"
        fi ;;
    esac
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$prefix/include/$header")
  [ "$compile_alone" = yes ] && echo "#include <$header>" >>"$work/all_headers.cpp"
done
"$cxx" -std=c++20 -fsyntax-only -I"$prefix/include" "$work/all_headers.cpp" 2>"$work/headers.log" ||
  { head -20 "$work/headers.log"; fail "the installed headers do not compile together"; }

"$prefix/bin/hetcoll" broadcast --times 1,2,2 --quiet >"$work/cli.log" 2>&1 ||
  { cat "$work/cli.log"; fail "the installed hetcoll command does not run"; }

# A consumer project through find_package(hetcoll).
if "$cmake" -S "$source_dir/examples/cpp" -B "$work/example" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
     -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1; then
  if "$cmake" --build "$work/example" >"$work/build.log" 2>&1; then
    if "$work/example/plan_example" "$source_dir/examples/cluster.json" >"$work/run.log" 2>&1; then
      # Liu 2002 Fig. 2: FNF takes 5, the optimum is 4.
      for expected in "broadcast from p0: makespan 4, lower bound 4, guarantee optimal, optimal yes" \
                      "fnf alone: makespan 5" "reduce on $source_dir/examples/cluster.json into fast0" \
                      'error: parameter "source": source: no processor "p9"'; do
        grep -qF -- "$expected" "$work/run.log" || { cat "$work/run.log"; fail "plan_example did not print: $expected"; }
      done
      # docs/LIBRARY.md shows the example's whole output: compare it.
      if command -v python3 >/dev/null; then
        python3 "$source_dir/tests/docs/run_doc_tests.py" "$prefix/bin/hetcoll" "$source_dir" \
          --program build-example/plan_example="$work/example/plan_example" --only build-example/plan_example \
          "$source_dir/docs/LIBRARY.md" >"$work/doc.log" 2>&1 || { cat "$work/doc.log"; fail "docs/LIBRARY.md's output differs"; }
      fi
    else
      cat "$work/run.log"; fail "plan_example (find_package build) failed"
    fi
  else
    tail -30 "$work/build.log"; fail "examples/cpp does not build against the installed package"
  fi
else
  tail -30 "$work/configure.log"; fail "find_package(hetcoll) failed"
fi

# The same program through pkg-config.
if command -v pkg-config >/dev/null; then
  if flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --cflags --libs hetcoll 2>"$work/pc.log"); then
    # shellcheck disable=SC2086
    if "$cxx" -std=c++20 -O1 "$source_dir/examples/cpp/plan_example.cpp" -o "$work/pc_example" $flags \
         2>"$work/pc_build.log"; then
      "$work/pc_example" >/dev/null || fail "plan_example (pkg-config build) failed"
    else
      tail -20 "$work/pc_build.log"; fail "examples/cpp/plan_example.cpp does not build with pkg-config flags: $flags"
    fi
  else
    cat "$work/pc.log"; fail "pkg-config --cflags --libs hetcoll"
  fi
fi

if [ "$failed" -ne 0 ]; then
  echo "$failed install check(s) failed"
  exit 1
fi
echo "install: package installed to a temporary prefix, headers clean, examples/cpp built and run (CMake and pkg-config)"
