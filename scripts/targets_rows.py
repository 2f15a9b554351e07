"""Reading the target rows (scripts/targets_rows.txt, whose comment says what
each field means) by column name, never by position.

A row is one line of fields separated by spaces, in the order COLUMNS names,
then the variants timed side by side (the rest of the line); blank lines and
lines starting with '#' are not rows. Read by scripts/targets_report.py and
scripts/peers_python.py and scripts/device/run.py (the device experiments).
"""
import sys

COLUMNS = ("filter", "size", "params", "targets")  # then the variants, the rest of the line


def rows(path):
    """The rows of `path` as dicts: the COLUMNS as written (strings) and "variants", a list."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split()
            if len(cells) < len(COLUMNS):
                sys.exit(f"{path}:{number}: a row is {' '.join(COLUMNS)} [variant...]")
            row = dict(zip(COLUMNS, cells))
            row["variants"] = cells[len(COLUMNS):]
            out.append(row)
    return out
