"""Runner: one run of an experiment. It holds what the steps share (OUT, the
environment, the build's variants, the folders tarred) and runs commands for
them: each written to the step's log after `$ `, with its output and rc=N."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import traceback

from . import experiment, kinds_filterlab, kinds_runs, kinds_stream, kinds_tools, machine
from .experiment import words
from .paths import BIN, ROOT, filterlab_exe

KINDS = {**kinds_filterlab.KINDS, **kinds_tools.KINDS, **kinds_runs.KINDS, **kinds_stream.KINDS}  # kind -> function(runner, step, log)


class Runner:
    def __init__(self, name, out, only, settings, dry_run):
        self.name, self.out, self.dry = name, os.path.abspath(out), dry_run
        self.conf = experiment.load(name, settings)
        self.exp = experiment.header(self.conf)
        self.steps = experiment.chosen_steps(self.conf, name, only)
        self.fl = filterlab_exe()
        self.listing = None
        self.tarred = set()
        self.reported = set()  # the variants a step said it left out
        self.env = dict(os.environ)

    def pairs(self, text):
        out = {}
        for kv in words(self.expand(text or "")):
            k, _, v = kv.partition("=")
            out[k] = v
        return out

    @staticmethod
    def mpirun(*options):
        """mpirun's command, allowed to run as root where it is root, with `options`."""
        return ["mpirun", *(["--allow-run-as-root"] if os.geteuid() == 0 else []), *options]

    def expand(self, text):
        """{filterlab} {bin} {out} {root} {mpirun} in a step's text."""
        return (text.replace("{filterlab}", self.fl).replace("{bin}", BIN).replace("{out}", self.out)
                .replace("{root}", ROOT).replace("{mpirun}", " ".join(self.mpirun())))

    # ------------------------------------------------------------- commands
    def show(self, cmd):
        text = " ".join(shlex.quote(c) for c in cmd).replace(sys.executable, "python3")
        return text.replace(self.fl, "filterlab").replace(BIN + "/", ".device-build/").replace(self.out, "$OUT")

    def run(self, log, cmd, timeout=None, env=None, grep=None, drop=None, tail=None, header=None, rc=True):
        """Runs cmd, writes `$ cmd`, its output (lines matching grep, not matching drop, the last
        tail of them) and rc=N to log; returns the exit status (124 on a timeout)."""
        log.write(f"$ {header or self.show(cmd)}\n")
        log.flush()
        if self.dry:
            return 0
        full = dict(self.env)
        full.update(env or {})
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=full, timeout=timeout,
                               cwd=ROOT)
            status, text = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            status, text = 124, (e.stdout or b"").decode(errors="replace") + f"\n(timed out after {timeout} s)\n"
        except OSError as e:
            status, text = 127, f"{e}\n"
        lines = text.splitlines()
        if grep:
            lines = [l for l in lines if re.search(grep, l)]
        if drop:
            lines = [l for l in lines if not re.search(drop, l)]
        if tail:
            lines = lines[-tail:]
        log.write("".join(l + "\n" for l in lines))
        if rc:
            log.write(f"rc={status}\n")
        log.flush()
        return status

    def keep(self, folder):
        """Tars OUT/folder beside it (a call cut short keeps what it measured)."""
        path = os.path.join(self.out, folder)
        if self.dry or not os.path.isdir(path):
            return
        with tarfile.open(path + ".tar", "w") as t:
            t.add(path, arcname=folder)
        self.tarred.add(folder)

    def timeout(self, step, default=None):
        value = step.get("timeout", default)
        return float(value) if value not in (None, "", "none") else None

    # ----------------------------------------------------------------- main
    def main(self):
        machine.setup(self)
        machine.write_header(self)
        summary = []
        failed = 0
        for name in self.steps:
            ok, line = self.step(name)
            print(line, flush=True)
            summary.append(line)
            failed += not ok
        for folder in sorted(self.tarred):
            shutil.rmtree(os.path.join(self.out, folder), ignore_errors=True)
        with open(os.path.join(self.out, "summary.txt"), "a") as f:
            f.write(f"{self.name} {time.strftime('%Y-%m-%d %H:%M:%S')}{' (dry run)' if self.dry else ''}\n")
            f.write("".join(l + "\n" for l in summary))
        return 1 if failed else 0

    def step(self, name):
        """Runs step `name` into OUT/name.txt: whether it went well, and its verdict line."""
        step = dict(self.conf[name])
        kind = experiment.kind_of(name, step)
        method = KINDS.get(kind)
        if method is None:
            sys.exit(f"run.py: step {name}: no kind {kind}")
        start = time.time()
        print(f"== {name} ({kind})", flush=True)
        self.reported = set()
        with open(os.path.join(self.out, name + ".txt"), "a") as log:
            log.write(f"# {self.name}/{name} ({kind}), {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            try:
                ok, what = method(self, step, log)
            except Exception as e:  # a step that breaks is a failed step; the others still run
                log.write(traceback.format_exc())
                ok, what = False, f"{type(e).__name__}: {e}"
        return ok, f"{name:<14} {int(time.time() - start):5d} s  {'ok' if ok else 'FAILED'}: {what}"
