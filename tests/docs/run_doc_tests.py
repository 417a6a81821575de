#!/usr/bin/env python3
"""Runs the commands shown in README.md and docs/*.md and compares their output
with what the page shows.

A command is a line starting with "$ " inside a fenced code block; the lines
after it, up to the next "$ " line or the end of the block, are its expected
output. Synopses (lines without "$ ") are not run.

  - Expected output is compared with the command's stdout (with its stderr
    when the command is expected to fail), line by line, trailing spaces
    ignored. A line that is only "..." stands for any number of lines; "…"
    inside a line stands for any text (a path, a timing).
  - A command without output lines must simply succeed.
  - "# exit code N" in the command's comment says it is expected to fail
    with N.
  - A ```sh block holds commands too, written without "$ ": it must be marked
    <!-- doc-test: skip (reason) --> or <!-- doc-test: elsewhere (the test
    that runs it) --> on the line before its fence, else the test fails, so
    no command in the docs goes unchecked without saying why.
  - A fenced block of another kind (``` alone, ```text, ...) whose lines
    start like a command (scripts/..., hetcoll, build/..., cmake, mpirun,
    smpirun) without "$ " is held to the same rule, unless every such line
    is a synopsis: it shows placeholders ("[--seed N]", "A|B", "<hash>").
  - Commands quoted in the text (`hetcoll reduce --algo optimal`) are checked
    against the command line instead of run: the command (and subcommand)
    must exist, every --option they name must be in that command's --help,
    and `hetcoll experiment NAME` must name a registered experiment (a quote
    followed by "→" shows a mistake and its answer, and is not checked).
  - `scripts/hetcoll` and `hetcoll` run the hetcoll binary under test. Other
    programs are run only when mapped with --program NAME=PATH; a block
    that cannot be run here says why in an HTML comment on the line before
    its opening fence: <!-- doc-test: skip (reason) -->.

Each page runs in its own scratch directory, where examples/ links to the
repository's, so commands see the paths the docs use and may write files
that later commands of the same page read.

Usage: run_doc_tests.py HETCOLL SOURCE_DIR [--program NAME=PATH]... [--only NAME] [--elsewhere NAME]... [FILE.md...]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP_MARKER = re.compile(r"<!--\s*doc-test:\s*(skip|elsewhere)\b")
SHELL_FENCE = re.compile(r"^```\s*(sh|bash|shell|console)\s*$")
EXIT_COMMENT = re.compile(r"#.*\bexit code (\d+)")


class Command:
    def __init__(self, page, line_number, text, expected, skip_reason):
        self.page = page
        self.line_number = line_number
        self.text = text
        self.expected = expected
        self.skip_reason = skip_reason


COMMAND_START = re.compile(r"^(?:[A-Z_]+=\S+\s+)*(?:scripts/\S+|hetcoll|build/\S+|cmake|ctest|mpirun|smpirun)(?:\s|$)")
SYNOPSIS = re.compile(r"\[|\||<[a-z]+>")


def unmarked_shell_blocks(page: Path):
    """Line numbers of fenced blocks of commands that no test runs and no marker
    explains: ```sh blocks, and blocks of other kinds holding command lines
    without "$ " that are not synopses."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, in_block, previous_nonblank = [], False, ""
    # In a block with "$ " lines, the other lines are their output.
    opening, marked, shell, has_command, has_dollar = 0, False, False, False, False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            if not in_block:
                opening, marked = number, bool(SKIP_MARKER.search(previous_nonblank))
                shell, has_command, has_dollar = bool(SHELL_FENCE.match(stripped)), False, False
            elif not marked and (shell or (has_command and not has_dollar)):
                found.append(opening)
            in_block = not in_block
        elif in_block and stripped.startswith("$ "):
            has_dollar = True
        elif in_block and COMMAND_START.match(stripped) and not SYNOPSIS.search(stripped):
            has_command = True
        if stripped:
            previous_nonblank = stripped
    return found


INLINE_COMMAND = re.compile(r"`((?:scripts/)?hetcoll [^`]+)`")
GROUPS_WITH_SUBCOMMANDS = ("steady", "generate")


def quoted_command_problems(page: Path, hetcoll, help_cache):
    """Commands quoted in the page's text (outside fenced blocks) that the
    command line does not know: a command, subcommand, option or experiment."""
    def help_of(path):
        if path not in help_cache:
            result = subprocess.run([hetcoll, *path, "--help"], capture_output=True, text=True, timeout=60)
            help_cache[path] = result.stdout if result.returncode == 0 else None
        return help_cache[path]

    problems, checked, in_block = [], 0, False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            continue
        for match in INLINE_COMMAND.finditer(line):
            words = match.group(1).split()[1:]
            # `hetcoll brodcast` → "did you mean ...": a mistake shown on purpose.
            if line[match.end():].lstrip().startswith("→"):
                continue
            if not words or words[0].startswith("-") or words[0] in ("...", "ARGS"):
                continue
            where = f"{page.name}:{number}: `{match.group(1)}`"
            checked += 1
            # "steady scatter|gossip|reduce" names three commands.
            depth = 2 if words[0] in GROUPS_WITH_SUBCOMMANDS and len(words) > 1 and not words[1].startswith("-") else 1
            alternatives = [words[:depth - 1] + [name] for name in words[depth - 1].split("|")]
            for path in alternatives:
                if path[-1] == "...":
                    continue
                # --help wins over an unknown subcommand, so look for it in
                # its parent's list of subcommands.
                parent = help_of(tuple(path[:-1])) or ""
                listed = re.search(r"^\s+" + re.escape(path[-1]) + r"(\s|$)", parent, re.MULTILINE)
                text = help_of(tuple(path)) if listed else None
                if text is None:
                    problems.append(f"{where}: `hetcoll {' '.join(path)}` is not a command")
                    continue
                for word in words[depth:]:
                    option = word.split("=")[0].strip("[]")
                    if option.startswith("--") and not re.search(re.escape(option) + r"\b", text):
                        problems.append(f"{where}: `hetcoll {' '.join(path)}` has no option {option}")
                if path == ["experiment"] and len(words) > 1 and not words[1].startswith("-") and not words[1].isupper():
                    if not re.search(r"^\s+" + re.escape(words[1]) + r"\s", text, re.MULTILINE):
                        problems.append(f"{where}: no experiment named {words[1]}")
    return checked, problems


def extract_commands(page: Path):
    lines = page.read_text(encoding="utf-8").splitlines()
    commands = []
    in_block = False
    skip_reason = None
    current = None
    previous_nonblank = ""
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            if not in_block:
                in_block = True
                skip_reason = previous_nonblank if SKIP_MARKER.search(previous_nonblank) else None
            else:
                in_block = False
                current = None
            previous_nonblank = stripped
            continue
        if not in_block:
            if stripped:
                previous_nonblank = stripped
            continue
        if line.startswith("$ "):
            current = Command(page, number, line[2:], [], skip_reason)
            commands.append(current)
        elif current is not None and current.text.endswith("\\") and not current.expected:
            current.text = current.text[:-1] + " " + line.strip()
        elif current is not None:
            current.expected.append(line.rstrip())
    return commands


def expected_pattern(expected_lines):
    parts = []
    for line in expected_lines:
        if line.strip() in ("...", "…"):
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.split("…")) + r"\n")
    return re.compile("".join(parts), re.DOTALL)


def normalise(text):
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def run(command, hetcoll, programs, scratch):
    words = shlex.split(command.text, comments=True)
    match = EXIT_COMMENT.search(command.text)
    expected_exit = int(match.group(1)) if match else 0
    env = dict(os.environ)
    program = words[0]
    if program in ("scripts/hetcoll", "hetcoll"):
        env["HETCOLL_INVOKED_AS"] = program
        words[0] = hetcoll
    elif program in programs:
        words[0] = programs[program]
    else:
        return (f"{command.page.name}:{command.line_number}: `{program}` cannot be run by the doc test; "
                "map it with --program or mark the block <!-- doc-test: skip (reason) -->")
    try:
        result = subprocess.run(words, cwd=scratch, env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return f"{command.page.name}:{command.line_number}: `{command.text}` took more than 300 s"
    where = f"{command.page.name}:{command.line_number}: `{command.text}`"
    if result.returncode != expected_exit:
        return (f"{where}: exit code {result.returncode}, the page expects {expected_exit}\n"
                f"stdout:\n{result.stdout[-2000:]}\nstderr:\n{result.stderr[-2000:]}")
    if command.expected:
        actual = normalise(result.stdout if expected_exit == 0 else result.stderr)
        if not expected_pattern(command.expected).fullmatch(actual):
            expected_text = "\n".join(command.expected)
            return f"{where}: the output differs from the page.\n--- page:\n{expected_text}\n--- actual:\n{actual}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hetcoll")
    parser.add_argument("source_dir")
    parser.add_argument("--program", action="append", default=[], help="NAME=PATH: run NAME as PATH")
    parser.add_argument("--only", help="run only the commands of this program")
    parser.add_argument("--elsewhere", action="append", default=[],
                        help="NAME: this program's commands are run and compared by another test; skip them here")
    parser.add_argument("pages", nargs="*", help="pages to check (default README.md and docs/*.md)")
    arguments = parser.parse_intermixed_args()
    source = Path(arguments.source_dir).resolve()
    hetcoll = str(Path(arguments.hetcoll).resolve())
    programs = dict(item.split("=", 1) for item in arguments.program)
    pages = [Path(p) for p in arguments.pages] or [source / "README.md"] + sorted((source / "docs").glob("*.md"))

    failures, ran, skipped, mismatches = [], 0, 0, 0
    help_cache, quoted_checked, quoted_problems = {}, 0, 0
    for page in pages:
        if not arguments.only:
            for number in unmarked_shell_blocks(page):
                failures.append(f"{page.name}:{number}: a block of commands that no test runs; show them as "
                                "\"$ \" lines with their output, or mark the block "
                                "<!-- doc-test: skip (reason) --> or <!-- doc-test: elsewhere (test) -->")
            checked, problems = quoted_command_problems(page, hetcoll, help_cache)
            quoted_checked += checked
            quoted_problems += len(problems)
            failures += problems
        commands = extract_commands(page)
        if arguments.only:
            commands = [c for c in commands if shlex.split(c.text, comments=True)[0] == arguments.only]
        if not commands:
            continue
        with tempfile.TemporaryDirectory(prefix="hetcoll-doc-test-") as scratch:
            os.symlink(source / "examples", Path(scratch) / "examples")
            for command in commands:
                if command.skip_reason or shlex.split(command.text, comments=True)[0] in arguments.elsewhere:
                    skipped += 1
                    continue
                failure = run(command, hetcoll, programs, scratch)
                ran += 1
                if failure:
                    failures.append(failure)
                    mismatches += 1
    for failure in failures:
        print("FAIL " + failure + "\n")
    print(f"doc test: {ran - mismatches} of {ran} commands match their pages ({skipped} skipped: marked skip or run by another test); "
          f"{quoted_checked} commands quoted in the text checked against --help, {quoted_problems} wrong")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
