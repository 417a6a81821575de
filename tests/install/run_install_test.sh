#!/usr/bin/env bash
# The installed package works for a consumer project:
#   1. `cmake --install` of this build tree into a temporary prefix installs
#      the command, the libraries, the headers, the CMake package and the
#      pkg-config files; none of the package files holds an absolute path
#      (dependencies are imported targets the package finds again);
#   2. every installed header includes only the standard library and other
#      hetcoll headers (private dependencies such as nlohmann_json, pugixml,
#      fmt or an LP solver never leak), and all of them compile together;
#   3. examples/cpp is configured with find_package(hetcoll) against the
#      prefix with MPI made invisible (-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON: the
#      core library must not need it), built and run; the same program also
#      builds with pkg-config;
#   4. when the MPI runtime was built: tests/install/mpi_consumer (find_package(
#      hetcoll COMPONENTS mpi)) is built, linked again with pkg-config's
#      hetcoll-mpi flags, and run under mpirun; without MPI visible the
#      component is refused with a message naming MPI, and as an optional
#      component it is only reported missing.
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
# The MPI component is installed when the build found MPI (it wrote its package file).
with_mpi=no
[ -e "$build_dir/package/hetcoll-mpi.cmake" ] && with_mpi=yes
if [ "$with_mpi" = yes ]; then
  for file in "$libdir/libhetcoll_mpi.a" "$libdir/libhetcoll_pmpi.so" "$libdir/pkgconfig/hetcoll-mpi.pc" \
              "$libdir/cmake/hetcoll/hetcoll-mpi.cmake" "$libdir/cmake/hetcoll/hetcoll-mpiTargets.cmake" \
              include/hetcoll/mpi/runtime.h; do
    [ -e "$prefix/$file" ] || fail "not installed: $file"
  done
fi

# Package files: no absolute path of the build machine (a library path such as
# /usr/lib/x86_64-linux-gnu/libClp.so must be an imported target found again),
# and the core package never mentions MPI (only hetcoll-mpi*.cmake may).
package_files=$(ls "$prefix/$libdir"/cmake/hetcoll/*.cmake "$prefix/$libdir"/pkgconfig/*.pc 2>/dev/null)
for file in $package_files; do
  if grep -nE "(^|[\"; (=:]|-[IL])/(usr|opt|lib|lib64|home|root|srv|tmp|work)/|$build_dir|$source_dir|$prefix" "$file" \
       >"$work/paths.log"; then
    fail "${file#"$prefix/"} holds absolute paths (link an imported target instead):"; cat "$work/paths.log"
  fi
done
for file in "$prefix/$libdir"/cmake/hetcoll/hetcollConfig.cmake "$prefix/$libdir"/cmake/hetcoll/hetcollTargets*.cmake; do
  grep -qE "MPI::|(find_package|find_dependency)\(MPI" "$file" && fail "${file#"$prefix/"} needs MPI: only the mpi component may"
done

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

# A consumer project through find_package(hetcoll), on a machine "without MPI".
if "$cmake" -S "$source_dir/examples/cpp" -B "$work/example" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
     -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
     >"$work/configure.log" 2>&1; then
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

# The MPI component: a consumer with find_package(hetcoll COMPONENTS mpi).
if [ "$with_mpi" = yes ]; then
  consumer="$source_dir/tests/install/mpi_consumer"
  configure_consumer() {  # configure_consumer DIR [cmake arguments...]
    local dir="$1"; shift
    "$cmake" -S "$consumer" -B "$dir" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release "$@" >"$dir.log" 2>&1
  }
  if configure_consumer "$work/mpi"; then
    if "$cmake" --build "$work/mpi" >"$work/mpi_build.log" 2>&1; then
      if command -v mpirun >/dev/null; then
        # shellcheck disable=SC1091
        source "$source_dir/tests/mpi/mpi_env.sh"
        timeout 120 mpirun -np 3 "$work/mpi/mpi_consumer" "$source_dir/examples/cluster.json" >"$work/mpi_run.log" 2>&1
        grep -qF "mpi_consumer: 3 ranks, all-reduce sum 3 (correct)" "$work/mpi_run.log" ||
          { tail -20 "$work/mpi_run.log"; fail "mpi_consumer did not run under mpirun -np 3"; }
      fi
      # The same object linked with pkg-config's flags (no second compile).
      object=$(find "$work/mpi" -name 'mpi_consumer.cpp.o' | head -1)
      if flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --libs hetcoll-mpi 2>"$work/pc_mpi.log"); then
        # shellcheck disable=SC2086
        "$cxx" "$object" -o "$work/pc_mpi_consumer" $flags 2>"$work/pc_mpi_link.log" ||
          { tail -20 "$work/pc_mpi_link.log"; fail "mpi_consumer does not link with pkg-config --libs hetcoll-mpi: $flags"; }
      else
        cat "$work/pc_mpi.log"; fail "pkg-config --libs hetcoll-mpi"
      fi
    else
      tail -30 "$work/mpi_build.log"; fail "tests/install/mpi_consumer does not build against hetcoll::mpi"
    fi
  else
    tail -30 "$work/mpi.log"; fail "find_package(hetcoll COMPONENTS mpi) failed"
  fi
  # Without MPI the component is refused, saying why.
  if configure_consumer "$work/mpi_absent" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON; then
    fail "find_package(hetcoll COMPONENTS mpi) succeeded with MPI disabled"
  elif ! tr -s '\n ' '  ' <"$work/mpi_absent.log" | grep -qE "component mpi .*dependency MPI"; then
    tail -20 "$work/mpi_absent.log"; fail "find_package(hetcoll COMPONENTS mpi) without MPI: the message does not name MPI"
  fi
fi
# An optional component that cannot be loaded (mpi without MPI, or one that
# does not exist) is reported missing, and the core library is still there.
mkdir -p "$work/optional_src"
cat >"$work/optional_src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.23)
project(optional_components LANGUAGES CXX)
find_package(hetcoll 0.1 REQUIRED OPTIONAL_COMPONENTS mpi no_such_component)
file(GENERATE OUTPUT components.txt CONTENT "mpi=${hetcoll_mpi_FOUND} no_such_component=${hetcoll_no_such_component_FOUND} core=$<TARGET_EXISTS:hetcoll::hetcoll>\n")
CMAKE
if "$cmake" -S "$work/optional_src" -B "$work/optional" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
     -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$work/optional.log" 2>&1; then
  grep -qx "mpi=FALSE no_such_component=FALSE core=1" "$work/optional/components.txt" ||
    { cat "$work/optional/components.txt"; fail "optional components without MPI: expected mpi=FALSE no_such_component=FALSE core=1"; }
else
  tail -20 "$work/optional.log"; fail "find_package(hetcoll OPTIONAL_COMPONENTS mpi no_such_component) failed without MPI"
fi

if [ "$failed" -ne 0 ]; then
  echo "$failed install check(s) failed"
  exit 1
fi
if [ "$with_mpi" = yes ]; then
  echo "install: package installed to a temporary prefix, no absolute paths, headers clean, examples/cpp built without MPI and run (CMake and pkg-config), the mpi component's consumer built (CMake and pkg-config) and run, refused without MPI"
else
  echo "install: package installed to a temporary prefix, no absolute paths, headers clean, examples/cpp built without MPI and run (CMake and pkg-config); MPI was not built, so the mpi component was not checked"
fi
