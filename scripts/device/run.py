#!/usr/bin/env python3
"""The one runner of the GPU machine: runs a named experiment, a data file
scripts/device/experiments/NAME.conf, and writes what it measured under OUT.

usage, from the repository root on the GPU machine (the bundle of
scripts/device_bundle.sh carried there; the runner unpacks it):
    python3 scripts/device/run.py EXPERIMENT OUT [--only STEP[,STEP...]]
                                  [--set STEP.KEY=VALUE]... [--dry-run]
    python3 scripts/device/run.py --list
    eval "$(python3 scripts/device/run.py --shell-env)"    (a call's own commands)

Every experiment first writes OUT/machine.txt (GPU, clocks, CPU, MPI, the
build's `filterlab info`, libraries the binary cannot find), then runs its
steps in order (or the experiment's `default` steps, or those --only names),
each step's log in OUT/STEP.txt: every command it ran, after `$ `, its output
and `rc=N`. Bench, sweep and profiler output folders (runs/, ncu/, scaling/)
are tarred after every command, so that a call cut short keeps what it
measured, and end as OUT/runs.tar etc. A verdict line per step goes to
OUT/summary.txt and the terminal; the exit status is 1 when a step failed
(a check, a sanitizer finding, an expectation of a `cmd` step).

The step kinds, their keys and the experiment file's format are in
scripts/device/README.md, and so are the modules of the runner's package,
scripts/device/runner/. Standard library only.
"""
import argparse
import os
import sys

# Run as a file of a copied tree, without the build's environment: the tree is
# the runner's import root, stated here once, so that its package
# (scripts.device.runner) reads the rows with the user tools' own reader
# (scripts.targets_rows).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from scripts.device.runner.core import Runner  # noqa: E402
from scripts.device.runner.experiment import list_experiments  # noqa: E402
from scripts.device.runner.machine import shell_env  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Experiments, steps and keys: scripts/device/README.md")
    ap.add_argument("experiment", nargs="?")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--only", action="append", help="run these steps (comma-separated), not the experiment's default")
    ap.add_argument("--set", action="append", default=[], metavar="STEP.KEY=VALUE",
                    help="set a key of a step (or experiment.KEY) for this run")
    ap.add_argument("--dry-run", action="store_true", help="write the commands to the logs without running them")
    ap.add_argument("--list", action="store_true", help="the experiments, their steps and what they are for")
    ap.add_argument("--shell-env", action="store_true",
                    help="unpack the bundle (once) and print the exports a call's own commands need: "
                         "eval \"$(python3 scripts/device/run.py --shell-env)\" gives $fl, $san and the libraries")
    a = ap.parse_intermixed_args(argv)
    if a.list:
        list_experiments()
        return 0
    if a.shell_env:
        print(shell_env())
        return 0
    if not (a.experiment and a.out):
        ap.error("EXPERIMENT and OUT are needed (or --list)")
    return Runner(a.experiment, a.out, a.only, a.set, a.dry_run).main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
