#!/usr/bin/env python3
"""The layer check must fail on a wrong-way include, a sibling include and a
circle, and pass on a clean tree. Usage: check_layers_test.py CHECK_LAYERS.py"""
import os
import subprocess
import sys
import tempfile


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as handle:
            handle.write(text)
    return root


def run(checker, files):
    result = subprocess.run([sys.executable, checker, tree(files)], capture_output=True, text=True)
    return result.returncode, result.stdout


def main():
    checker = sys.argv[1]
    clean = {
        "src/hetcoll/core/ids.h": "#pragma once\n",
        "src/hetcoll/plan/plan.h": '#include "hetcoll/core/ids.h"\n',
        "src/hetcoll/makespan/sender_speed/fnf.h": '#include "hetcoll/plan/plan.h"\n',
        "app/main.cpp": '#include "hetcoll/makespan/sender_speed/fnf.h"\n',
    }
    cases = {
        "clean": (clean, 0, None),
        "upward": (dict(clean, **{"src/hetcoll/plan/plan.cpp": '#include "hetcoll/makespan/sender_speed/fnf.h"\n'}), 1,
                   "may not include makespan"),
        "sibling": (dict(clean, **{"src/hetcoll/verify/a.h": "#pragma once\n",
                                   "src/hetcoll/sim/b.cpp": '#include "hetcoll/verify/a.h"\n'}), 1, "siblings"),
        "family": (dict(clean, **{"src/hetcoll/makespan/split/s.h": "#pragma once\n",
                                  "src/hetcoll/makespan/graph/g.cpp": '#include "hetcoll/makespan/split/s.h"\n'}), 1,
                   "may not include makespan/split"),
        "circle": (dict(clean, **{"src/hetcoll/model/a.h": '#include "hetcoll/model/b.h"\n',
                                  "src/hetcoll/model/b.cpp": '#include "hetcoll/model/b.h"\n',
                                  "src/hetcoll/model/b.h": "#pragma once\n",
                                  "src/hetcoll/model/b2.cpp": "",
                                  "src/hetcoll/model/a.cpp": '#include "hetcoll/model/a.h"\n'}), 0, None),
        "real circle": (dict(clean, **{"src/hetcoll/model/a.h": "#pragma once\n",
                                       "src/hetcoll/model/a.cpp": '#include "hetcoll/model/b.h"\n',
                                       "src/hetcoll/model/b.h": '#include "hetcoll/model/a.h"\n'}), 1, "circle:"),
    }
    failures = 0
    for name, (files, expected, phrase) in cases.items():
        code, output = run(checker, files)
        if code != expected or (phrase and phrase not in output):
            print(f"FAIL {name}: exit {code} (expected {expected}), output:\n{output}")
            failures += 1
        else:
            print(f"ok   {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
