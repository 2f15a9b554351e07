#!/usr/bin/env python3
"""No shell pipeline under `set -o pipefail` may end in a reader that exits
before its writer is done (`grep -q`, `grep -m`, `grep -l`, `head`, `sed ...q`,
`awk ... exit`): the writer is then killed by SIGPIPE and pipefail makes the
pipeline's status 141 or not, as the race falls (issue 56). Read the
producer's output whole first (`out=$(cmd); grep -q x <<<"$out"`) or let the
reader read a file.

usage: check_pipes.py ROOT   (checks ROOT's tests/, scripts/ and .ci/)"""
import pathlib
import re
import sys

# A single `|` (not `||`), then a reader that may stop reading early.
EARLY_READER = re.compile(
    r"(?<![|])\|(?![|])\s*(?:"
    r"grep\b[^|;&]*\s(?:-[a-zA-Z]*[qlm]|--(?:quiet|silent|max-count|files-with-matches)\b)"
    r"|head\b"
    r"|sed\b[^|]*\bq\b"
    r"|awk\b[^|]*\bexit\b)")


def shell_files(root):
    for folder in ("tests", "scripts", ".ci"):
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file():
                continue
            if path.suffix == ".sh" or (path.suffix == "" and path.read_bytes()[:2] == b"#!"):
                yield path


def findings(text):
    """(line number, line) of each early-exit pipeline in a script that sets pipefail."""
    if "pipefail" not in text:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split(" #", 1)[0]
        if not code.lstrip().startswith("#") and EARLY_READER.search(code):
            found.append((number, line.strip()))
    return found


def self_check():
    """The rule catches what it is for and spares what is safe."""
    bad = ["awk 1 f | grep -q x", "ldd e | grep -q -e a", "ls | head -1", "cmd | grep -m1 y",
           "cmd | sed -n '1p;q'", "cmd | awk '{print; exit}'", "cmd | grep -lq z"]
    good = ["grep -q x f || exit 1", "out=$(cmd); grep -q x <<<\"$out\"", "cmd | grep -c x",
            "cmd | tail -1", "a || b | sort", "# ls | head"]
    for line in bad:
        assert findings("set -o pipefail\n" + line), f"not caught: {line}"
    for line in good:
        assert not findings("set -o pipefail\n" + line), f"caught wrongly: {line}"
    assert not findings("ls | head -1"), "a script without pipefail is not this rule's"


def main():
    self_check()
    root = pathlib.Path(sys.argv[1])
    bad = [(path.relative_to(root), n, line) for path in shell_files(root)
           for n, line in findings(path.read_text(errors="replace"))]
    for path, n, line in bad:
        print(f"{path}:{n}: a pipe into an early-exit reader under pipefail: {line}")
    if bad:
        return 1
    print("check_pipes: no early-exit reader in a pipeline under pipefail")
    return 0


if __name__ == "__main__":
    sys.exit(main())
