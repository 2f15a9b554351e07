#!/usr/bin/env python3
"""History stays out of code (issue 55): no comment in code cites a path under
reports/ or quotes a measurement ("71.1 us", "2984 GB/s", "85% of the
roofline", "1.15x faster"). A comment says why the code is the way it is, in
terms that stay true; what was measured, where and when, belongs in reports/,
whose pages may link the code.

Comments are `//` and `/* */` in C, C++, CUDA and OpenCL files, `#` and
docstrings in Python, `#` in shell and CMake. Code that names reports/ paths
as data, because its job is to read or write reports (REPORT_JOBS), is
spared; string literals are code, not comments, and are never read. A
measurement quoted inside a comment's own quotes ("697.7 µs") is an example
of a format, not a result, and is spared too.

usage: check_history.py ROOT   (checks ROOT's code folders, CODE_FOLDERS)"""
import io
import pathlib
import re
import sys
import tokenize

CODE_FOLDERS = ("handwritten", "runtime", "generators", "schedules", "scripts", "tests", "cmake", "filterlab_build")
C_LIKE = {".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh", ".cl", ".inc"}
HASH = {".cmake", ".sh"}

# Files whose job is reports: they read or write files under reports/ and name
# them as data (their usage, their inputs, the pages they make).
REPORT_JOBS = {
    "scripts/check_links.py",         # checks the reports' links and weight
    "scripts/fastest_variants.py",    # ranks the variants from runs kept in reports/
    "runtime/core/default_rankings.inc",  # written by fastest_variants.py: each ranking names its run
    "scripts/mpi_scaling.py",         # writes reports/mpi/scaling.md
    "scripts/stream_report.py",       # writes reports/mpi/streaming.md's tables
    "tests/lint/check_history.py",    # this rule, and its examples
}

# A path under reports/ (not the bare folder's name: "a run kept under reports/").
REPORT_PATH = re.compile(r"(?<![\w./-])reports/[\w.*-]")
# A number with a unit of time, bandwidth, a share or a ratio of speed.
MEASUREMENT = re.compile(
    r"\d(?:[.,]\d+)?\s?(?:µs|us|ms|ns)\b"
    r"|\d(?:[.,]\d+)?\s?[GMT]i?B/s\b"
    r"|\d(?:[.,]\d+)?\s?%\s+(?:faster|slower|of\s+(?:the\s+|its\s+)?(?:copy\s+)?"
    r"(?:roofline|peak|bandwidth|warps|time|the warps))\b"
    r"|\d(?:[.,]\d+)?\s?[x×]\s+(?:faster|slower)\b")
QUOTED = re.compile(r'"[^"\n]*"')


def c_comments(text):
    """(line, text) of each comment line of C, C++, CUDA or OpenCL source."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k, part in enumerate(text[i:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if end < 0 else end + len(m.group(1)) + 2
            line += text.count("\n", i, end)
            i = end
        elif c == '"' or (c == "'" and not (i and (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1 if j < n and text[j] == c else j
        else:
            i += 1
    return out


def python_comments(text):
    """(line, text) of each `#` comment and each line of a docstring (a string that is a statement of its own)."""
    out = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return hash_comments(text)
    starts = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
    previous = tokenize.NEWLINE
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and previous in starts:
            following = next((t.type for t in tokens[k + 1:] if t.type not in (tokenize.COMMENT, tokenize.NL)), None)
            if following in (tokenize.NEWLINE, tokenize.ENDMARKER):
                body = re.sub(r'^[rRbBuUfF]*("""|\'\'\'|"|\')', "", tok.string)
                body = re.sub(r'("""|\'\'\'|"|\')$', "", body)
                for d, part in enumerate(body.split("\n")):
                    out.append((tok.start[0] + d, part))
        if tok.type not in (tokenize.COMMENT,):
            previous = tok.type
    return out


def hash_comments(text):
    """(line, text) of each `#` comment of a shell, CMake or Python file: a `#` at a
    line's start or after a blank, outside quotes."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        quote = None
        for i, c in enumerate(line):
            if quote:
                if c == "\\":
                    continue
                if c == quote and (i == 0 or line[i - 1] != "\\"):
                    quote = None
            elif c in "\"'":
                quote = c
            elif c == "#" and (i == 0 or line[i - 1] in " \t"):
                out.append((number, line[i:]))
                break
    return out


def comments(path, text):
    if path.suffix in C_LIKE:
        return c_comments(text)
    if path.suffix == ".py":
        return python_comments(text)
    if path.suffix in HASH or path.name == "CMakeLists.txt":
        return hash_comments(text)
    return []


def findings(path, text):
    """(line, what, comment) of each report path or measurement in the file's comments."""
    found = []
    for number, comment in comments(path, text):
        if REPORT_PATH.search(comment):
            found.append((number, "a path under reports/", comment.strip()))
        elif MEASUREMENT.search(QUOTED.sub('""', comment)):
            found.append((number, "a measurement", comment.strip()))
    return found


def code_files(root):
    yield from (root / "CMakeLists.txt",) if (root / "CMakeLists.txt").is_file() else ()
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and rel not in REPORT_JOBS and (
                    path.suffix in C_LIKE | HASH | {".py"} or path.name == "CMakeLists.txt"):
                yield path


def self_check():
    """The rule catches what it is for and spares what is safe."""
    P = pathlib.PurePath
    bad = [
        (P("k.cu"), "int x;  // tuned on the H100 (reports/targets/tuning/)\n"),
        (P("k.cu"), "/* the halo's cost:\n   see reports/box/README.md */\nint x;\n"),
        (P("k.cl"), "// 16-pixel strips took 52.8 us at 8192^2\n"),
        (P("k.h"), "// reaches 2984 GB/s, 85% of the roofline\n"),
        (P("k.h"), "// 20% of the warps an SM can hold\n"),
        (P("a.py"), "x = 1  # see reports/h100/run-main/results.csv\n"),
        (P("a.py"), 'def f():\n    """Slow: 1.15x faster in OpenCL."""\n'),
        (P("a.py"), '"""Module.\n\nAs reports/tvm/README.md found.\n"""\nimport os\n'),
        (P("a.sh"), "set -e\nrun  # its output: reports/explore/check_auto.txt\n"),
        (P("CMakeLists.txt"), "# the matrix took 850 ms (reports/ci.md)\nadd_test(NAME x COMMAND y)\n"),
    ]
    good = [
        (P("k.cu"), "// a running sum walks a strip serially, so few threads on a small image\n"),
        (P("k.cu"), 'const char *p = "reports/h100/x.csv";  // where the run is read from\n'),
        (P("k.cpp"), 'auto s = R"(// reports/x.md 5 us)";\n'),
        (P("k.h"), '// Four significant digits in the unit that suits: "697.7 µs", "2.360 s".\n'),
        (P("k.cpp"), "// A run kept without its pictures (as under reports/) still reports.\n"),
        (P("k.cpp"), "int n = 1'000'000;  // a million samples, at least 99% equal\n"),
        (P("a.py"), '"""Within 1 of the model and at least 99% of the samples equal to it."""\n'),
        (P("a.py"), 'print("made by scripts/x.py reports/mpi")  # the page\'s first line\n'),
        (P("a.py"), 'x = f("reports/a.txt")\ny = """\nreports/b.txt\n"""\n'),
        (P("a.sh"), 'out="$OUT/reports/x"  # the runs\necho ${#out} $#\n'),
        (P("CMakeLists.txt"), '# The timing (median µs) is the harness\'s.\nset(x "reports/y")\n'),
    ]
    for path, text in bad:
        assert findings(path, text), f"not caught: {path}: {text!r}"
    for path, text in good:
        assert not findings(path, text), f"caught wrongly: {path}: {text!r}: {findings(path, text)}"


def main():
    self_check()
    if len(sys.argv) != 2:
        print("usage: check_history.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    bad = [(path.relative_to(root), n, what, comment) for path in code_files(root)
           for n, what, comment in findings(path, path.read_text(errors="replace"))]
    for path, n, what, comment in bad:
        print(f"{path}:{n}: {what} in a comment (say why, timelessly; results belong in reports/): {comment}")
    if bad:
        return 1
    print("check_history: no report path or measurement in a comment of code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
