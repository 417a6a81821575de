#!/usr/bin/env python3
"""Every command's --help describes a shared option the same way.

Runs `hetcoll --help`, then `--help` of every command and subcommand it
lists, and reads each option's value name and text. An option that several
commands take must read the same in all of them (its "(default: ...)" aside:
defaults may differ), except in the commands listed in INTENDED below, whose
meaning really differs (app/option_table.cpp holds those variants). Fails on
an unlisted difference, and on a listed one that is no longer different or
no longer there (a stale list hides nothing).

Usage: check_option_help.py HETCOLL
"""
import re
import subprocess
import sys

# option -> the commands whose text differs on purpose (app/option_table.cpp
# says why). Every other command taking the option must agree.
INTENDED = {
    "--platform": {"choose", "tune"},
    "--message-size": {"tree", "steady broadcast", "calibrate"},
    "--slice-size": {"generate random", "generate tiers"},
    "--root": {"allreduce", "choose", "tune"},
    "--participants": {"steady reduce"},
    # steady: the LPs cannot stop, a watchdog ends the command (default none).
    "--time-limit": {"tree", "experiment", "steady broadcast", "steady gossip", "steady reduce", "steady scatter"},
    "--node-limit": {"tree"},
    "--threads": {"experiment"},
    "--json": {"tune", "calibrate"},
    "--out": {"tree", "steady broadcast", "generate cluster", "generate grid", "generate random", "generate tiers",
              "calibrate", "tune", "demo", "experiment"},
    "--schedule-out": {"tree"},
    "--dot": {"tree"},
    "--quiet": {"calibrate", "tune"},
    "--plan": {"validate"},
    "--nodes": {"generate tiers"},
    "--sizes": {"calibrate", "experiment"},
    "--operation": {"choose", "experiment"},
    "--full-lp": {"steady reduce"},
    "--simplex": {"steady reduce"},
    "--exact": {"steady broadcast"},
    # choose/tune: an MPI datatype's size (default 4); the makespan commands:
    # where program plans cut the message (default 1, --message-size in bytes).
    "--element-bytes": {"broadcast", "reduce", "allreduce"},
    # --algo lists the registry's rows for each operation.
    "--algo": {"broadcast", "multicast", "reduce", "allreduce"},
}

# "  --name VALUE [REQUIRED]   text" (the text on the next lines when the
# name column is too wide).
OPTION_LINE = re.compile(r"^  (-\S+)(?: (.*?))?(?:\s{2,}(.*))?$")


def run_help(hetcoll, path):
    result = subprocess.run([hetcoll, *path, "--help"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"hetcoll {' '.join(path)} --help: exit code {result.returncode}: {result.stderr}")
    return result.stdout


def sections(text):
    """{"Options": [lines], "Subcommands": [lines]} of a help text."""
    found, current = {}, None
    for line in text.splitlines():
        heading = re.match(r"^(\w+):$", line)
        if heading:
            current = heading.group(1)
            found[current] = []
        elif current and not line.strip():
            current = None  # a blank line ends a section (a footer may follow)
        elif current:
            found[current].append(line)
    return found


def options_of(text):
    """{long name: (value name, description)} from a help text."""
    options, current = {}, None
    for line in sections(text).get("Options", []):
        match = OPTION_LINE.match(line)
        if match and line.startswith("  -"):
            names = [name for name in match.group(1).split(",") if name.startswith("--")]
            current = names[0] if names else match.group(1)
            # Whether an option is required is not part of its description.
            value = (match.group(2) or "").replace(" REQUIRED", "").replace("REQUIRED", "")
            options[current] = [value.strip(), match.group(3) or ""]
        elif current and line.startswith("    ") and line.strip():
            options[current][1] += ("\n" if options[current][1] else "") + line.strip()
    return {name: tuple(value) for name, value in options.items() if name != "--help"}


def subcommands_of(text):
    return [line.split()[0] for line in sections(text).get("Subcommands", []) if re.match(r"^  \S", line)]


def without_default(description):
    """The text without a final "(default: ...)"."""
    start = description.rfind(" (default: ")
    return description[:start] if start >= 0 and description.endswith(")") else description


def main():
    hetcoll = sys.argv[1]
    commands = {}
    pending = [()]
    while pending:
        path = pending.pop(0)
        text = run_help(hetcoll, path)
        if path:
            commands[" ".join(path)] = options_of(text)
        pending += [path + (name,) for name in subcommands_of(text)]

    problems = []
    by_option = {}
    for command, options in commands.items():
        for name, (value, description) in options.items():
            by_option.setdefault(name, {})[command] = (value, without_default(description))
    checked = 0
    for name, texts in sorted(by_option.items()):
        intended = INTENDED.get(name, set())
        for command in sorted(intended):
            if command not in texts:
                problems.append(f"{name}: listed as intended for `{command}`, which has no such option")
        common = {command: text for command, text in texts.items() if command not in intended}
        if len(texts) < 2:
            continue
        checked += 1
        distinct = {}
        for command, text in common.items():
            distinct.setdefault(text, []).append(command)
        if len(distinct) > 1:
            lines = "\n".join(f"    {', '.join(sorted(cmds))}: {value} {text!r}" for (value, text), cmds in distinct.items())
            problems.append(f"{name}: described differently (app/option_table.cpp, or list the difference here):\n"
                            f"{lines}")
        if common:
            shared = next(iter(distinct))
            for command in sorted(intended & texts.keys()):
                if texts[command] == shared:
                    problems.append(f"{name}: `{command}` is listed as intended to differ but reads like the others")
    for problem in problems:
        print("FAIL", problem)
    print(f"check_option_help: {len(commands)} commands, {checked} options taken by several commands, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
