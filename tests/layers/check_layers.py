#!/usr/bin/env python3
"""Fails when an include goes the wrong way between hetcoll's layers, or when
files include each other in a circle.

The layers, bottom to top (docs/DEVELOPING.md, "Layout"): a file may include
files of its own folder and of any LOWER layer, never a higher one and never
a sibling folder of the same layer (verify/ and sim/ read plans and models
only; the planner families do not include each other's folders).

  0 core         ids, errors, limits, exact rationals
  1 model        platforms, cost models, readers (model/simgrid/)
  2 gen          platform generators
  3 plan         every plan type, its JSON, LP certificates
  4 verify sim   read plans and models only
  5 makespan steady   the planners
  6 registry     every planner by (operation, model), selectors
  7 report viz mpi    text, pictures, the MPI runtime
  8 hetcoll.h    the facade
  9 experiments  the papers' tables and figures (own target)
 10 app          the command line (parses and prints)

Inside the planners, makespan/'s families may include makespan/'s shared
files (bounds, claims, request) and each other only downward in this order:
  mpi_algorithms < sender_speed < graph < eager < split < sites
(MPI libraries' own algorithms use nothing else; graph planners use
sender-speed planners for their views, eager plans seed split plans).

A circle is a set of units (x.h with x.cpp) that include each other.

Usage: check_layers.py SOURCE_DIR   (exit 0: clean; 1: prints every violation)
"""
import os
import re
import sys

LAYERS = {
    "core": 0, "model": 1, "gen": 2, "plan": 3, "verify": 4, "sim": 4,
    "makespan": 5, "steady": 5, "registry": 6, "report": 7, "viz": 7, "mpi": 7,
    "facade": 8, "experiments": 9, "app": 10,
}
MAKESPAN_FAMILIES = {"": 0, "mpi_algorithms": 1, "sender_speed": 2, "graph": 3, "eager": 4, "split": 5, "sites": 6}
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:hetcoll|experiments)/[^"]+)"')


def layer_of(path):
    """(layer name, folder) of a repository-relative path, or None."""
    parts = path.split("/")
    if parts[0] == "app":
        return "app", "app"
    if parts[0] == "experiments":
        return "experiments", "experiments"
    if parts[:2] == ["src", "hetcoll"]:
        if len(parts) == 3:
            return "facade", "facade"
        return parts[2], "/".join(parts[2:-1])
    return None


def family_of(folder):
    parts = folder.split("/")
    if parts[0] != "makespan":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in MAKESPAN_FAMILIES else ""


def header_path(include):
    return ("src/" + include) if include.startswith("hetcoll/") else include


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = []
    for top in ("src/hetcoll", "app", "experiments"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".h", ".cpp")):
                    files.append(os.path.relpath(os.path.join(folder, name), root))
    problems = []
    units = {}
    for path in sorted(files):
        where = layer_of(path)
        if where is None:
            continue
        layer, folder = where
        if layer not in LAYERS:
            problems.append(f"{path}: folder '{layer}' is in no layer (add it to tests/layers/check_layers.py and docs/DEVELOPING.md)")
            continue
        unit = os.path.splitext(path)[0]
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = header_path(match.group(1))
                if not os.path.exists(os.path.join(root, target)):
                    continue  # the compiler reports it
                units.setdefault(unit, set()).add(os.path.splitext(target)[0])
                target_layer, target_folder = layer_of(target)
                if target_layer not in LAYERS:
                    continue
                a, b = LAYERS[layer], LAYERS[target_layer]
                if b > a:
                    problems.append(f"{path}:{number}: includes {match.group(1)}: {layer} (layer {a}) may not include {target_layer} (layer {b}, above it)")
                elif b == a and layer != target_layer:
                    problems.append(f"{path}:{number}: includes {match.group(1)}: {layer} and {target_layer} are siblings of layer {a} and may not include each other")
                elif layer == "makespan":
                    fa, fb = family_of(folder), family_of(target_folder)
                    if fa is not None and fb is not None and MAKESPAN_FAMILIES[fb] > MAKESPAN_FAMILIES[fa]:
                        problems.append(f"{path}:{number}: includes {match.group(1)}: makespan/{fa or '(shared)'} may not include makespan/{fb} (sender_speed < graph < eager < split)")
    # Circles: strongly connected components of the unit graph (Tarjan).
    index, low, on_stack, stack, counter, circles = {}, {}, set(), [], [0], []
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in units.get(v, ()):
            if w == v:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for unit in sorted(units):
        if unit not in index:
            visit(unit)
    for circle in circles:
        problems.append("circle: " + " <-> ".join(circle))
    for problem in problems:
        print(problem)
    print(f"{len(files)} files checked: {len(problems)} wrong-way include(s) or circle(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
