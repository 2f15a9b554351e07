#!/usr/bin/env python3
"""The one runner of the GPU machine: runs a named experiment, a data file
scripts/device/experiments/NAME.conf, and writes what it measured under OUT.

usage, from the repository root on the GPU machine (the bundle of
scripts/device_bundle.sh carried there; the runner unpacks it):
    python3 scripts/device/run.py EXPERIMENT OUT [--only STEP[,STEP...]]
                                  [--set STEP.KEY=VALUE]... [--dry-run]
    python3 scripts/device/run.py --list

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
scripts/device/README.md. Standard library only.
"""
import argparse
import concurrent.futures
import configparser
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPERIMENTS = os.path.join(HERE, "experiments")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import targets_rows  # noqa: E402  (scripts/targets_rows.py: the rows file's reader)

BIN = os.path.join(ROOT, ".device-build")
HALIDE_ORIGINS = {"schedule", "autoscheduler", "sweep_point", "frozen_point"}
METRICS = {
    # What bounds a kernel: time, memory, issue, pipes, occupancy, stalls (the targets' profile).
    "full": "gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,"
            "dram__bytes_write.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,"
            "sm__inst_issued.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,launch__registers_per_thread,"
            "launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,"
            "sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active,"
            "launch__grid_size,launch__block_size,"
            "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,"
            "smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,"
            "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,"
            "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,"
            "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,"
            "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,"
            "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,"
            "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    # A schedule against the hand kernel: instructions, registers, spills, shared memory, DRAM.
    "short": "gpu__time_duration.sum,sm__inst_executed.sum,launch__registers_per_thread,"
             "sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,"
             "dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed_pipe_xu.sum,"
             "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
}


# Holds all of the GPU's memory but argv[1] MiB until killed; writes argv[2] when it does.
FILLER = """
import sys, time, cupy
rt = cupy.cuda.runtime
keep, held, chunk = int(sys.argv[1]) << 20, 0, 1 << 30
blocks = []
while chunk >= 1 << 20:
    free, total = rt.memGetInfo()
    if free < keep + chunk:
        chunk >>= 1
        continue
    try:
        blocks.append(rt.malloc(chunk)); held += chunk
    except Exception:
        chunk >>= 1
free, total = rt.memGetInfo()
print(f'filler: holds {held >> 20} MiB; {free >> 20} MiB of {total >> 20} MiB free', flush=True)
open(sys.argv[2], 'w').write('ready')
time.sleep(3600)
"""


def noise_pgm(path, size, seed=1):
    """A size x size gray PGM of uniform noise (the same pixels for the same seed)."""
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (size, size))
        f.write(random.Random(seed).randbytes(size * size))


def words(text):
    return (text or "").split()


def per_filter(text, filter_):
    """'8192 nlmeans:1024' -> '1024' for nlmeans, '8192' for any other filter."""
    plain = [t for t in words(text) if ":" not in t]
    own = [t.partition(":")[2] for t in words(text) if t.partition(":")[0] == filter_]
    return (own or plain or [None])[0]


def param_args(params):
    """'a=1,b=2' -> ['-p', 'a=1', '-p', 'b=2']; '-' -> []."""
    if params in ("", "-", None):
        return []
    return [a for kv in params.split(",") for a in ("-p", kv)]


def side_of_row(row):
    """A row with a peer>= target is a CPU row (scripts/targets_rows.txt), every other a GPU row."""
    return "cpu" if "peer>=" in row.get("targets", "") else "gpu"


class Runner:
    def __init__(self, name, out, only, settings, dry_run):
        self.name, self.out, self.dry = name, os.path.abspath(out), dry_run
        path = os.path.join(EXPERIMENTS, name + ".conf")
        if not os.path.isfile(path):
            sys.exit(f"run.py: no experiment {name} (scripts/device/experiments/{name}.conf); --list names them")
        self.conf = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=("#",))
        self.conf.optionxform = str
        self.conf.read(path, encoding="utf-8")
        for setting in settings:
            key, sep, value = setting.partition("=")
            section, dot, option = key.partition(".")
            if not (sep and dot):
                sys.exit(f"run.py: --set {setting}: STEP.KEY=VALUE")
            if section == "experiment" and not self.conf.has_section(section):
                self.conf.add_section(section)
            if not self.conf.has_section(section):
                sys.exit(f"run.py: --set {setting}: {name} has no step {section}")
            self.conf.set(section, option, value)
        self.exp = self.conf["experiment"] if self.conf.has_section("experiment") else {}
        steps = [s for s in self.conf.sections() if s != "experiment"]
        chosen = [s for part in only for s in part.split(",") if s] if only else words(self.exp.get("default")) or steps
        for s in chosen:
            if s not in steps:
                sys.exit(f"run.py: {name} has no step {s} (its steps: {' '.join(steps)})")
        self.steps = chosen
        self.fl = os.environ.get("FILTERLAB_EXE") or os.path.join(BIN, "filterlab")
        self.listing = None
        self.tarred = set()
        self.reported = set()  # the variants a step said it left out
        self.env = dict(os.environ)

    # ---------------------------------------------------------------- setup
    def setup(self):
        os.makedirs(self.out, exist_ok=True)
        bundle = os.path.join(BIN, "bundle.tar.xz")
        marker = os.path.join(BIN, ".unpacked")
        if os.path.isfile(bundle):
            stamp = f"{os.path.getsize(bundle)} {os.path.getmtime(bundle)}"
            if not os.path.isfile(marker) or open(marker).read() != stamp:
                print(f"unpacking {os.path.relpath(bundle, ROOT)}", flush=True)
                if not self.dry:
                    subprocess.run(["tar", "-xJf", bundle, "-C", BIN], check=True)
                    with open(marker, "w") as f:
                        f.write(stamp)
        self.env.update(FILTERLAB_IMAGES=os.path.join(ROOT, "tests", "images"), FILTERLAB_EXE=self.fl,
                        LD_LIBRARY_PATH=":".join(p for p in (os.path.join(BIN, "lib"),
                                                             os.environ.get("LD_LIBRARY_PATH")) if p))
        icd = self.exp.get("opencl_icd")
        if icd:  # NVIDIA's OpenCL through a vendors folder of our own (the machine's lists only PoCL)
            folder = os.path.join(self.out, "icd")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "nvidia.icd"), "w") as f:
                f.write(icd + "\n")
            self.env["OCL_ICD_VENDORS"] = folder
        self.env.update(self.pairs(self.exp.get("env")))
        if os.path.isfile(self.fl) and os.access(self.fl, os.X_OK):
            text = subprocess.run([self.fl, "list", "--json"], capture_output=True, text=True, env=self.env).stdout
            try:
                self.listing = json.loads(text)["variants"]
            except (ValueError, KeyError):
                self.listing = None
        if self.listing is None and not self.dry:
            sys.exit(f"run.py: {self.fl} did not list its variants (is the bundle unpacked?)")

    def pairs(self, text):
        out = {}
        for kv in words(self.expand(text or "")):
            k, _, v = kv.partition("=")
            out[k] = v
        return out

    def expand(self, text):
        """{filterlab} {bin} {out} {root} {mpirun} in a step's text."""
        mpirun = "mpirun --allow-run-as-root" if os.geteuid() == 0 else "mpirun"
        return (text.replace("{filterlab}", self.fl).replace("{bin}", BIN).replace("{out}", self.out)
                .replace("{root}", ROOT).replace("{mpirun}", mpirun))

    # ------------------------------------------------------------ the build
    def variant(self, filter_, name):
        for v in self.listing or []:
            if v["filter"] == filter_ and v["variant"] == name:
                return v
        return None

    def known(self, filter_, name, log):
        if self.listing is None or self.variant(filter_, name):
            return True
        if (filter_, name) not in self.reported:
            log.write(f"not in this build, left out: {filter_}/{name}\n")
            self.reported.add((filter_, name))
        return False

    def filters(self, step):
        listed = list(dict.fromkeys(v["filter"] for v in self.listing or []))
        wanted = words(step.get("filters", "all"))
        return listed if wanted in ([], ["all"]) else wanted

    def keeps(self, step, v):
        """Whether variant entry v passes the step's kinds, backends, origins and skip."""
        if v is None:
            return self.listing is None
        for key, field in (("kinds", "kind"), ("backends", "backend"), ("origins", "origin")):
            if step.get(key) and v[field] not in words(step[key]):
                return False
        return f"{v['filter']}/{v['variant']}" not in words(step.get("skip"))

    def side(self, filter_, name):
        v = self.variant(filter_, name)
        return None if v is None else ("cpu" if v["backend"] == "cpu" else "gpu")

    # ---------------------------------------------------------------- cases
    def rows(self, step):
        """The rows file's rows the step selects: rows = all | gpu | cpu | match, filters = ..."""
        path = os.path.join(ROOT, self.exp.get("rows") or "scripts/targets_rows.txt")
        wanted = words(step.get("filters", "all"))
        out = []
        for row in targets_rows.rows(path):
            which = step.get("rows", "all")
            if which in ("gpu", "cpu") and side_of_row(row) != which:
                continue
            if wanted not in ([], ["all"]) and row["filter"] not in wanted:
                continue
            out.append(row)
        return out

    def cases(self, step):
        """Where a step measures: explicit `cases` (filter size params [variant...] a line), the
        rows of the rows file, or each of `filters` at `sizes` (per filter: '8192 nlmeans:1024')."""
        if step.get("cases"):
            out = []
            for line in step["cases"].splitlines():
                cells = line.split()
                if cells:
                    out.append({"filter": cells[0], "size": cells[1], "params": cells[2] if len(cells) > 2 else "-",
                                "targets": "", "variants": cells[3:]})
            return out
        if step.get("sizes"):
            return [{"filter": f, "size": per_filter(step["sizes"], f), "params": "-", "targets": "", "variants": []}
                    for f in self.filters(step)]
        return self.rows(step)

    def variants_at(self, step, case, log):
        """The variants a step runs at a case: `variants` = row (the row's own), all (every variant of
        the filter but sweep points), or filter/variant names (at the rows of their side)."""
        spec = words(step.get("variants", "row"))
        if spec == ["row"]:
            names = case["variants"]
        elif spec == ["all"]:
            names = [v["variant"] for v in self.listing or [] if v["filter"] == case["filter"]
                     and v["origin"] != "sweep_point"]
        else:
            names = [t.partition("/")[2] for t in spec if t.partition("/")[0] == case["filter"]]
            if case.get("targets") and step.get("rows", "match") == "match":
                names = [n for n in names if self.side(case["filter"], n) in (None, side_of_row(case))]
        out = []
        for n in names:
            if self.known(case["filter"], n, log) and self.keeps(step, self.variant(case["filter"], n)):
                out.append(n)
        return out

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

    # ---------------------------------------------------------------- steps
    def machine(self):
        commands = [
            ["nvidia-smi", "--query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,"
             "temperature.gpu,pcie.link.gen.current,pcie.link.width.current", "--format=csv"],
            ["nvidia-smi", "-q", "-d", "CLOCK"],
            ["nvidia-smi", "topo", "-m"],
            ["sh", "-c", "lscpu | grep -E 'Model name|^CPU\\(s\\)'; nproc; uptime"],
            ["sh", "-c", "mpirun --version | head -1"],
            ["sh", "-c", "df -h /tmp | tail -1"],
            [self.fl, "info"],
            ["sh", "-c", f"ldd {shlex.quote(self.fl)} | grep -i 'not found' || echo 'no library missing'"],
        ]
        with open(os.path.join(self.out, "machine.txt"), "w") as log:
            log.write(f"experiment {self.name}, steps {' '.join(self.steps)}, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n")
            for key in [k for k in ("OCL_ICD_VENDORS", *self.pairs(self.exp.get("env"))) if k in self.env]:
                log.write(f"env {key}={self.env.get(key, '')}\n")
            for cmd in commands:
                self.run(log, cmd, timeout=60, rc=False)

    def step_check(self, step, log):
        """`filterlab check` (full matrix, or `matrix` = quick | sanitizer), then each of `tools`
        (compute-sanitizer) over the sanitizer matrix."""
        spec = words(step.get("variants", "all"))
        matrix = {"full": [], "quick": ["--quick"], "sanitizer": ["--sanitizer-matrix"]}[step.get("matrix", "full")]
        narrowed = any(step.get(k) for k in ("kinds", "backends", "origins"))
        if spec == ["all"] and not narrowed:
            targets = [(f, None) for f in self.filters(step)]
        elif spec in (["row"], ["all"]):
            cases = self.rows(step) if spec == ["row"] else [{"filter": f, "variants": []} for f in self.filters(step)]
            targets = list(dict.fromkeys((c["filter"], v) for c in cases for v in self.variants_at(step, c, log)))
        else:
            targets = [tuple(t.split("/", 1)) for t in spec]
            targets = [(f, v) for f, v in targets if self.known(f, v, log)]
        sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
        bad = 0
        for f, v in targets:
            which = ["--filter", f] + (["--variant", v] if v else [])
            status = self.run(log, [self.fl, "check", *which, *matrix, "-q"], timeout=self.timeout(step, 150),
                              drop="cases done", tail=int(step.get("tail", 12)))
            bad += status != 0
            for tool in words(step.get("tools")):
                extra = ["--leak-check", "full"] if tool == "memcheck" else []
                status = self.run(log, [sanitizer, "--tool", tool, *extra, "--error-exitcode", "99", "--print-limit",
                                        "10", self.fl, "check", *which, "--sanitizer-matrix", "-q"],
                                  timeout=self.timeout(step, 150), grep="SUMMARY|passed|failed|rror", drop="cases done",
                                  tail=6)
                bad += status != 0
        return bad == 0, f"{len(targets)} checked, {bad} failed" if targets else "nothing to check"

    def step_sanitize(self, step, log):
        """compute-sanitizer's `tools` over every CUDA variant of `filters`, `jobs` at a time, each on
        `filterlab check --sanitizer-matrix`; logs in OUT/sanitizer-logs/, a line per variant."""
        logs = os.path.join(self.out, "sanitizer-logs")
        os.makedirs(logs, exist_ok=True)
        results = os.path.join(logs, "results.txt")
        sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
        tools = words(step.get("tools", "memcheck racecheck initcheck"))
        filters = self.filters(step)
        # NL-means, the slowest under the tools, first: the reverse of `filterlab list`.
        todo = [(v["filter"], v["variant"], t) for v in reversed(self.listing or [])
                if v["backend"] == "cuda" and v["origin"] != "sweep_point" and v["filter"] in filters for t in tools]

        def one(job):
            f, v, tool = job
            path = os.path.join(logs, f"{f}.{v}.{tool}.log")
            extra = ["--leak-check", "full"] if tool == "memcheck" else []
            start = time.time()
            with open(path, "w") as out:
                status = subprocess.run([sanitizer, "--tool", tool, *extra, "--error-exitcode", "99", "--print-limit",
                                         "20", self.fl, "check", "--filter", f, "--variant", v, "--sanitizer-matrix"],
                                        stdout=out, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT).returncode
            text = open(path, errors="replace").read()
            found = re.findall(r"RACECHECK SUMMARY: (\d+) hazards" if tool == "racecheck"
                               else r"ERROR SUMMARY: (\d+) errors?$", text, re.M)
            cases = re.findall(r"^(\d+) passed, (\d+) failed", text, re.M)
            passed, failed = cases[-1] if cases else ("?", "?")
            return f"{f} {v} {tool} {found[-1] if found else '?'} {passed} {failed} {int(time.time() - start)} {status}"

        for f, v, tool in todo:
            log.write(f"$ compute-sanitizer --tool {tool} filterlab check --filter {f} --variant {v} --sanitizer-matrix\n")
        if not self.dry:
            with concurrent.futures.ThreadPoolExecutor(int(step.get("jobs", 8))) as pool, open(results, "a") as r:
                for line in pool.map(one, todo):
                    r.write(line + "\n")
                    r.flush()
        lines, bad = self.sanitizer_summary(results, len(tools))
        log.write("".join(l + "\n" for l in lines))
        return bad == 0, lines[-1] if lines else "nothing run"

    @staticmethod
    def sanitizer_summary(results, expected):
        """One line per variant of results.txt (where a tool ran more than once, its last line)."""
        last = {}
        for line in open(results) if os.path.isfile(results) else []:
            cells = line.split()
            if len(cells) == 8:
                last.setdefault((cells[0], cells[1]), {})[cells[2]] = cells
        lines, bad = [], 0
        for (f, v), tools in last.items():
            text = ", ".join(f"{t} {c[3]} {'hazards' if t == 'racecheck' else 'errors'}" for t, c in tools.items())
            worst = any(c[3] != "0" or c[5] != "0" or c[7] != "0" for c in tools.values())
            cells = list(tools.values())[-1]
            verdict = "INCOMPLETE" if len(tools) < expected else "FAIL" if worst else "ok"
            bad += verdict != "ok"
            seconds = sum(int(c[6]) for c in tools.values())
            lines.append(f"{f + ' ' + v:<40} {text}, check {cells[4]} passed, {cells[5]} failed "
                         f"({seconds} s under the tools) {verdict}")
        lines.append(f"{len(last)} variants, {bad} with a finding, a failed case or a tool not finished")
        return lines, bad

    def step_ncu(self, step, log):
        """Nsight Compute (`metrics`: full, short or a list; clocks left alone) of each selected
        variant at each case, one launch on a gray noise image: OUT/ncu/CASE.csv, then its table."""
        folder = step.get("out", "ncu")
        os.makedirs(os.path.join(self.out, folder), exist_ok=True)
        images = tempfile.mkdtemp(prefix="ncu-images-")
        done = bad = 0
        try:
            for case in self.cases(step):
                for v in self.variants_at(step, case, log):
                    done += 1
                    bad += self.profile(step, log, case, v, folder, images) != 0
        finally:
            shutil.rmtree(images, ignore_errors=True)
        if done and not self.dry:
            self.run(log, [sys.executable, os.path.join(ROOT, "scripts", "ncu_summary.py"),
                           os.path.join(self.out, folder)], header=f"python3 scripts/ncu_summary.py {folder}", rc=False)
        return bad == 0, f"{done} kernels profiled, {bad} failed"

    def profile(self, step, log, case, v, folder, images):
        """One ncu run of variant v at case into OUT/folder/FILTER_PARAMS_SIZE_VARIANT.csv; its status."""
        image = os.path.join(images, f"noise{case['size']}.pgm")
        tag = f"{case['filter']}_{re.sub('[=,]', '-', case['params'])}_{case['size']}_{v}"
        metrics = METRICS.get(step.get("metrics", "full"), step.get("metrics"))
        cmd = ["ncu", "--clock-control", "none", "--csv", "--metrics", metrics, self.fl, "run", "--filter",
               case["filter"], "--variant", v, *param_args(case["params"]), "-i", image, "-o",
               os.path.join(images, "out.pgm"), "--quiet"]
        log.write(f"$ ncu --clock-control none --csv --metrics {step.get('metrics', 'full')} filterlab run --filter "
                  f"{case['filter']} --variant {v} {' '.join(param_args(case['params']))} -i noise{case['size']}.pgm"
                  f" > {folder}/{tag}.csv\n")
        log.flush()
        if self.dry:
            return 0
        if not os.path.isfile(image):
            noise_pgm(image, int(case["size"]))
        try:
            with open(os.path.join(self.out, folder, tag + ".csv"), "w") as out:
                status = subprocess.run(cmd, stdout=out, stderr=log, env={**self.env, **self.pairs(step.get("env"))},
                                        timeout=self.timeout(step, 120), cwd=ROOT).returncode
        except subprocess.TimeoutExpired:
            status = 124
        except OSError as e:
            log.write(f"{e}\n")
            status = 127
        log.write(f"rc={status}\n")
        log.flush()
        self.keep(folder)
        return status

    def bench_flags(self, step, filter_):
        return ["--min-reps", per_filter(step.get("reps", "20"), filter_), "--min-time",
                per_filter(step.get("min_time", "0.3"), filter_), "--quiet"]

    def step_bench(self, step, log):
        """`filterlab bench` of the selected variants at each case, side by side (`threads`: at each
        thread count), into OUT/`out` (runs/); `peers` = yes: the rows' Python peers after them."""
        folder = step.get("out", "runs")
        env = self.pairs(step.get("env"))
        threads = ["--threads", step["threads"]] if step.get("threads") else []
        runs = bad = 0
        cases = self.cases(step)
        for case in cases:
            vs = self.variants_at(step, case, log)
            if not vs:
                continue
            cmd = [self.fl, "bench", "--filter", case["filter"], "--sizes", case["size"], *param_args(case["params"]),
                   *[a for v in vs for a in ("--variant", v)], *threads, *self.bench_flags(step, case["filter"]),
                   "--out", os.path.join(self.out, folder)]
            status = self.run(log, cmd, env=env, timeout=self.timeout(step), drop="cases done",
                              tail=int(step.get("tail", 40)))
            runs += 1
            bad += status != 0
            self.keep(folder)
        if step.get("peers") == "yes" and cases:
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as rows:
                for c in cases:
                    rows.write(f"{c['filter']} {c['size']} {c['params']} {c['targets'] or '-'} {' '.join(c['variants'])}\n")
            sizes = ",".join(dict.fromkeys(c["size"] for c in cases))
            status = self.run(log, [sys.executable, os.path.join(ROOT, "scripts", "peers_python.py"), "--filterlab",
                                    self.fl, "--out", os.path.join(self.out, folder), "--sizes", sizes, "--rows",
                                    rows.name], env=env, timeout=self.timeout(step))
            os.unlink(rows.name)
            bad += status != 0
            self.keep(folder)
        return bad == 0, f"{runs} bench runs, {bad} failed"

    def step_sweep(self, step, log):
        """`filterlab sweep` of each of `schedules` (filter/schedule, or `built`: every schedule whose
        points this build has, of `backends`) at the rows of its filter and side (or at `sizes`),
        every point checked (`quick`: on the quick matrix) then timed; `then` (kinds): the row's
        variants of those kinds timed after each."""
        folder = step.get("out", "runs")
        env = self.pairs(step.get("env"))
        spec = words(step.get("schedules"))
        if spec == ["built"]:
            every = self.listing or []
            points = [v for v in every if v["origin"] == "sweep_point"]
            spec = [f"{s['filter']}/{s['variant']}" for s in every if s["origin"] == "schedule" and self.keeps(step, s)
                    and any((p["filter"], p["backend"], p.get("source")) == (s["filter"], s["backend"], s.get("source"))
                            for p in points)]
        runs = bad = 0
        for token in spec:
            f, _, s = token.partition("/")
            if not self.known(f, s, log):
                continue
            entry = self.variant(f, s)
            if step.get("sizes"):
                fixed = [a for n, d in (entry or {}).get("params", {}).items() if "values" in d
                         for a in ("--param", f"{n}={d['default']}")]
                cases = [{"filter": f, "size": per_filter(step["sizes"], f), "params": "-", "targets": "",
                          "variants": [], "fixed": fixed}]
            else:
                side = self.side(f, s)
                cases = [r for r in self.rows({**step, "filters": f, "rows": "all"})
                         if side is None or side_of_row(r) == side]
            quick = words(step.get("quick", "all"))
            for case in cases:
                cmd = [self.fl, "sweep", "--filter", f, "--schedule", s, "--sizes", case["size"],
                       *param_args(case["params"]), *case.get("fixed", []),
                       *(["--quick"] if "all" in quick or f in quick else []),
                       *self.bench_flags({"reps": "10", "min_time": "0.1", **step}, f), "--out",
                       os.path.join(self.out, folder)]
                status = self.run(log, cmd, env=env, timeout=self.timeout(step), grep=step.get("grep"),
                                  drop="cases done", tail=int(step.get("tail", 60)))
                runs += 1
                bad += status != 0
                self.keep(folder)
                then = words(step.get("then"))  # the kinds timed after the sweep at its row
                hand = [v for v in case["variants"] if (self.variant(f, v) or {}).get("kind") in then]
                if hand:
                    self.run(log, [self.fl, "bench", "--filter", f, "--sizes", case["size"], *param_args(case["params"]),
                                   *[a for v in hand for a in ("--variant", v)],
                                   *self.bench_flags({"reps": step.get("then_reps", "20"),
                                                      "min_time": step.get("then_min_time", "0.2")}, f),
                                   "--out", os.path.join(self.out, folder)], env=env, drop="cases done", tail=20)
                    self.keep(folder)
        return bad == 0, f"{runs} sweeps, {bad} failed" if runs else "nothing to sweep"

    def step_cmd(self, step, log):
        """Each line of `run`: NAME EXPECT COMMAND... (EXPECT pass, fail or any); the command's
        output in OUT/NAME.txt, a verdict line per command here."""
        bad = total = 0
        for line in (step.get("run") or "").splitlines():
            cells = shlex.split(self.expand(line))
            if len(cells) < 3:
                continue
            name, want, cmd = cells[0], cells[1], cells[2:]
            start = time.time()
            with open(os.path.join(self.out, name + ".txt"), "w") as out:
                status = self.run(out, cmd, timeout=self.timeout(step), env=self.pairs(step.get("env")))
            text = "" if self.dry else open(os.path.join(self.out, name + ".txt"), errors="replace").read()
            verdict = "ok"
            if self.dry:
                verdict = "ok (dry run)"
            elif want == "fail":
                verdict = "ok (failed as it must)" if status != 0 else "WRONG: passed"
            elif want == "pass" and status != 0:
                verdict = f"FAILED (rc {status})"
            found = re.findall(r".*(?:passed|ERROR SUMMARY|RACECHECK SUMMARY|identical).*", text)
            log.write(f"{name:<24} {int(time.time() - start):4d} s  rc {status:<3} {verdict} | "
                      f"{found[-1].strip() if found else ''}\n")
            total += 1
            bad += not verdict.startswith("ok")
        return bad == 0, f"{total} commands, {bad} not as expected"

    def step_big_image(self, step, log):
        """One `size`² gray PGM of noise on local disk through `filterlab run` (each `run` line:
        filter variant params) on 1 rank, then on each of `ranks` (MPI-IO, each rank its own band),
        the outputs compared byte for byte with 1 rank's; into OUT/`file` (big_image.txt)."""
        size = int(step.get("size", 32768))
        work = tempfile.mkdtemp(prefix="filterlab_big_", dir=step.get("dir", "/tmp"))
        image = os.path.join(work, "in.pgm")
        mpirun = ["mpirun", *(["--oversubscribe"] if step.get("oversubscribe") == "yes" else []),
                  *(["--allow-run-as-root"] if os.geteuid() == 0 else [])]
        bad = 0
        with open(os.path.join(self.out, step.get("file", "big_image.txt")), "a") as out:
            if not self.dry:
                noise_pgm(image, size, seed=size)
            for line in (step.get("run") or "").splitlines():
                cells = line.split()
                if not cells:
                    continue
                args = ["run", "--filter", cells[0], "--variant", cells[1], "-i", image,
                        *param_args(cells[2] if len(cells) > 2 else "-")]
                shown = " ".join(args).replace(image, "in.pgm")
                for ranks in ["1"] + words(step.get("ranks", "2")):
                    name = "one.pgm" if ranks == "1" else "many.pgm"
                    cmd = [self.fl, *args, "-o", os.path.join(work, name)]
                    if ranks != "1":
                        cmd = [*mpirun, "-n", ranks, *cmd]
                    start = time.time()
                    self.run(out, cmd, header=(f"filterlab {shown} -o one.pgm" if ranks == "1" else
                                               f"mpirun -n {ranks} filterlab {shown} -o many.pgm"), rc=False)
                    out.write(f"wall {time.time() - start:.3f} s (reading and writing the file included)\n")
                    if ranks != "1" and not self.dry:
                        same = subprocess.run(["cmp", os.path.join(work, "one.pgm"), os.path.join(work, "many.pgm")],
                                              capture_output=True).returncode == 0
                        out.write(f"bytes identical: 1 rank and {ranks} ranks\n" if same else
                                  f"BYTES DIFFER: 1 rank and {ranks} ranks\n")
                        bad += not same
                    out.flush()
        shutil.rmtree(work, ignore_errors=True)
        log.write(f"{step.get('file', 'big_image.txt')}: {bad} outputs differing from 1 rank's\n")
        return bad == 0, f"{bad} outputs differ"

    def step_oom(self, step, log):
        """Out of GPU memory as a user meets it: a CuPy process holds the GPU's memory (all of it, then
        all but `free_mib`), and run, check (all of it only), bench and bench --batch on `variant`
        must each end with exit status 1, one `filterlab: error:` line and nothing left behind."""
        f, _, v = step.get("variant", "box/cuda_tile").partition("/")
        if self.dry:
            return True, "dry run"
        work = tempfile.mkdtemp(prefix="oom-")
        big = os.path.join(work, "big.pgm")
        noise_pgm(big, 16384)
        misses = 0
        for keep in ["0", step.get("free_mib", "400")]:
            log.write(f"== GPU filled, {keep} MiB left\n")
            log.flush()
            ready = os.path.join(work, "ready")
            filler = subprocess.Popen([sys.executable, "-c", FILLER, keep, ready], stdout=log, stderr=log, env=self.env)
            while not os.path.exists(ready):
                if filler.poll() is not None:
                    log.write("the CuPy filler failed\n")
                    return False, "the CuPy filler failed"
                time.sleep(0.2)
            os.unlink(ready)
            misses += self.oom_cases(log, work, f, v, big, with_check=keep == "0")
            filler.kill()
            filler.wait()
        shutil.rmtree(work, ignore_errors=True)
        log.write(f"{misses} miss(es)\n")
        return misses == 0, f"{misses} miss(es)"

    def oom_cases(self, log, work, f, v, big, with_check):
        """run, check, bench and bench --batch under a full GPU: the misses (no single error line,
        another exit status than 1, or something left behind)."""
        cases = [("run", ["run", "--filter", f, "--variant", v, "--input", big, "--output",
                          os.path.join(work, "out.png")]),
                 ("check", ["check", "--filter", f, "--variant", v, "--quick"]) if with_check else None,
                 ("bench", ["bench", "--filter", f, "--variant", v, "--sizes", "16384", "--min-reps", "3",
                            "--min-time", "0", "--out", os.path.join(work, "runs")]),
                 ("bench --batch", ["bench", "--batch", "8", "--batch-size", "8192x8192", "--filter", f, "--variant",
                                    v, "--min-reps", "3", "--min-time", "0", "--out", os.path.join(work, "runs")])]
        misses = 0
        for label, args in filter(None, cases):
            p = subprocess.run([self.fl, *args], capture_output=True, text=True, env=self.env, cwd=work)
            errors = p.stderr.splitlines()
            left = [n for n in os.listdir(work) if re.match(r"(out|\.out|runs)", n)]
            ok = p.returncode == 1 and len(errors) == 1 and errors[0].startswith("filterlab: error: ") and not left
            misses += not ok
            log.write(f"  {label}: exit {p.returncode}, {len(errors)} stderr line(s), left behind: "
                      f"[{' '.join(left)}] -> {'ok' if ok else 'MISS'}\n")
            log.write("".join(f"    {e}\n" for e in errors[:5]))
            for n in left:
                path = os.path.join(work, n)
                shutil.rmtree(path) if os.path.isdir(path) else os.unlink(path)
        return misses

    def step_ptx(self, step, log):
        """The PTX nvcc embedded in filterlab (cuobjdump -ptx), each of `kernels`' .entry cut out into
        OUT/cuda/KERNEL.ptx; with FILTERLAB_OPENCL_BINARIES set (the experiment's env), the OpenCL
        programs NVIDIA's compiler built are in that folder."""
        folder = os.path.join(self.out, "cuda")
        os.makedirs(folder, exist_ok=True)
        cuobjdump = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
        log.write(f"$ cuobjdump -ptx filterlab\n")
        if self.dry:
            return True, "dry run"
        text = subprocess.run([cuobjdump, "-ptx", self.fl], capture_output=True, text=True).stdout
        cut = 0
        for kernel in words(step.get("kernels")):
            keep, lines = False, []
            for line in text.splitlines():
                if re.match(r"^(\.visible )?\.entry", line):
                    keep = kernel in line
                if keep:
                    lines.append(line)
                    if line.startswith("}"):
                        keep = False
            with open(os.path.join(folder, kernel + ".ptx"), "w") as out:
                out.write("".join(l + "\n" for l in lines))
            log.write(f"{kernel}: {len(lines)} lines\n")
            cut += bool(lines)
        for sub in ("opencl", "cuda"):
            path = os.path.join(self.out, sub)
            if os.path.isdir(path):
                log.write(f"{sub}/: {' '.join(sorted(os.listdir(path)))}\n")
        return cut == len(words(step.get("kernels"))), f"{cut} kernels cut out"

    def step_probe(self, step, log):
        """A Halide probe's GPU harness (reports/halide/probes/build_probe.sh NAME .device-build/probes/NAME,
        carried with the bundle) at each register cap of `caps` (- for the runtime's default, 64)."""
        name = step.get("name")
        if not name:
            return True, "no probe named"
        harness = os.path.join(BIN, "probes", name, step.get("harness", "probe_time"))
        packed = os.path.join(BIN, "probes", name + ".tar.xz")
        if not os.path.isfile(harness) and os.path.isfile(packed) and not self.dry:
            subprocess.run(["tar", "-xJf", packed, "-C", os.path.dirname(packed)], check=True)
        bad = 0
        for cap in words(step.get("caps", "-")):
            env = {} if cap == "-" else {"HL_CUDA_JIT_MAX_REGISTERS": cap}
            status = self.run(log, [harness], env=env, timeout=self.timeout(step, 150),
                              header=f"{'' if cap == '-' else f'HL_CUDA_JIT_MAX_REGISTERS={cap} '}{step.get('harness', 'probe_time')}"
                                     f"   ({name}{', the runtime cap: 64' if cap == '-' else ''})")
            bad += status != 0
        return bad == 0, f"{len(words(step.get('caps', '-')))} runs, {bad} failed"

    # ----------------------------------------------------------------- main
    def main(self):
        self.setup()
        self.machine()
        summary = []
        failed = 0
        for name in self.steps:
            step = dict(self.conf[name])
            kind = step.get("kind", name.partition(".")[0])
            method = getattr(self, f"step_{kind}", None)
            if method is None:
                sys.exit(f"run.py: step {name}: no kind {kind}")
            start = time.time()
            print(f"== {name} ({kind})", flush=True)
            self.reported = set()
            with open(os.path.join(self.out, name + ".txt"), "a") as log:
                log.write(f"# {self.name}/{name} ({kind}), {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
                try:
                    ok, what = method(step, log)
                except Exception as e:  # a step that breaks is a failed step; the others still run
                    import traceback
                    log.write(traceback.format_exc())
                    ok, what = False, f"{type(e).__name__}: {e}"
            line = f"{name:<14} {int(time.time() - start):5d} s  {'ok' if ok else 'FAILED'}: {what}"
            print(line, flush=True)
            summary.append(line)
            failed += not ok
        for folder in sorted(self.tarred):
            shutil.rmtree(os.path.join(self.out, folder), ignore_errors=True)
        with open(os.path.join(self.out, "summary.txt"), "a") as f:
            f.write(f"{self.name} {time.strftime('%Y-%m-%d %H:%M:%S')}{' (dry run)' if self.dry else ''}\n")
            f.write("".join(l + "\n" for l in summary))
        return 1 if failed else 0


def list_experiments():
    for path in sorted(os.listdir(EXPERIMENTS)):
        if path.endswith(".conf"):
            conf = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=("#",))
            conf.read(os.path.join(EXPERIMENTS, path), encoding="utf-8")
            about = conf.get("experiment", "about", fallback="").split("\n")[0] if conf.has_section("experiment") else ""
            steps = [s for s in conf.sections() if s != "experiment"]
            print(f"{path[:-5]:<18} {' '.join(steps):<34} {about}")


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
    a = ap.parse_intermixed_args(argv)
    if a.list:
        list_experiments()
        return 0
    if not (a.experiment and a.out):
        ap.error("EXPERIMENT and OUT are needed (or --list)")
    return Runner(a.experiment, a.out, a.only, a.set, a.dry_run).main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
