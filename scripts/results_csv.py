"""Reading a bench run's results.csv by column name, never by position.

The schema has one owner, the C++ side (runtime/results/results_schema.*:
`filterlab bench` and `filterlab import-peers` write every results.csv through
it); its header names the columns. A script names the columns it reads, and a
file without one of them (not a results.csv, or of a format that lacks it)
stops the script with one line saying which.
"""
import csv
import sys


def rows(path, columns):
    """The rows of `path` as dicts, after checking its header holds every name in `columns`."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            sys.exit(f"{path}: no column {', '.join(missing)} in its header (not a results.csv of filterlab?)")
        return list(reader)
