"""The step kinds that run whole commands and judge their outcome: cmd (command
lines with an expectation), big_image (one large image on 1 rank and on many,
bytes compared) and oom (out of GPU memory). Each is function(runner, step, log) -> (ok, what)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from .experiment import words
from .selection import noise_pgm, param_args

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


def cmd_verdict(r, want, status):
    """The verdict on a command of a `cmd` step that exited with `status`, expected `want`."""
    if r.dry:
        return "ok (dry run)"
    if want == "fail":
        return "ok (failed as it must)" if status != 0 else "WRONG: passed"
    if want == "pass" and status != 0:
        return f"FAILED (rc {status})"
    return "ok"


def cmd(r, step, log):
    """Each line of `run`: NAME EXPECT COMMAND... (EXPECT pass, fail or any); the command's
    output in OUT/NAME.txt, a verdict line per command here."""
    bad = total = 0
    for line in (step.get("run") or "").splitlines():
        cells = shlex.split(r.expand(line))
        if len(cells) < 3:
            continue
        name, want, command = cells[0], cells[1], cells[2:]
        start = time.time()
        with open(os.path.join(r.out, name + ".txt"), "w") as out:
            status = r.run(out, command, timeout=r.timeout(step), env=r.pairs(step.get("env")))
        text = "" if r.dry else open(os.path.join(r.out, name + ".txt"), errors="replace").read()
        verdict = cmd_verdict(r, want, status)
        found = re.findall(r".*(?:passed|ERROR SUMMARY|RACECHECK SUMMARY|identical).*", text)
        log.write(f"{name:<24} {int(time.time() - start):4d} s  rc {status:<3} {verdict} | "
                  f"{found[-1].strip() if found else ''}\n")
        total += 1
        bad += not verdict.startswith("ok")
    return bad == 0, f"{total} commands, {bad} not as expected"


def big_image_line(r, step, out, work, image, cells):
    """One `run` line of big_image (filter variant params) on 1 rank, then on each of `ranks`:
    how many outputs differ from 1 rank's."""
    mpirun = r.mpirun(*(["--oversubscribe"] if step.get("oversubscribe") == "yes" else []))
    args = ["run", "--filter", cells[0], "--variant", cells[1], "-i", image,
            *param_args(cells[2] if len(cells) > 2 else "-")]
    shown = " ".join(args).replace(image, "in.pgm")
    bad = 0
    for ranks in ["1"] + words(step.get("ranks", "2")):
        name = "one.pgm" if ranks == "1" else "many.pgm"
        command = [r.fl, *args, "-o", os.path.join(work, name)]
        if ranks != "1":
            command = [*mpirun, "-n", ranks, *command]
        start = time.time()
        r.run(out, command, header=(f"filterlab {shown} -o one.pgm" if ranks == "1" else
                                    f"mpirun -n {ranks} filterlab {shown} -o many.pgm"), rc=False)
        out.write(f"wall {time.time() - start:.3f} s (reading and writing the file included)\n")
        if ranks != "1" and not r.dry:
            same = subprocess.run(["cmp", os.path.join(work, "one.pgm"), os.path.join(work, "many.pgm")],
                                  capture_output=True).returncode == 0
            out.write(f"bytes identical: 1 rank and {ranks} ranks\n" if same else
                      f"BYTES DIFFER: 1 rank and {ranks} ranks\n")
            bad += not same
        out.flush()
    return bad


def big_image(r, step, log):
    """One `size`² gray PGM of noise on local disk through `filterlab run` (each `run` line:
    filter variant params) on 1 rank, then on each of `ranks` (MPI-IO, each rank its own band),
    the outputs compared byte for byte with 1 rank's; into OUT/`file` (big_image.txt)."""
    size = int(step.get("size", 32768))
    work = tempfile.mkdtemp(prefix="filterlab_big_", dir=step.get("dir", "/tmp"))
    image = os.path.join(work, "in.pgm")
    bad = 0
    with open(os.path.join(r.out, step.get("file", "big_image.txt")), "a") as out:
        if not r.dry:
            noise_pgm(image, size, seed=size)
        for line in (step.get("run") or "").splitlines():
            cells = line.split()
            if cells:
                bad += big_image_line(r, step, out, work, image, cells)
    shutil.rmtree(work, ignore_errors=True)
    log.write(f"{step.get('file', 'big_image.txt')}: {bad} outputs differing from 1 rank's\n")
    return bad == 0, f"{bad} outputs differ"


def oom(r, step, log):
    """Out of GPU memory as a user meets it: a CuPy process holds the GPU's memory (all of it, then
    all but `free_mib`), and run, check (all of it only), bench and bench --batch on `variant`
    must each end with exit status 1, one `filterlab: error:` line and nothing left behind."""
    f, _, v = step.get("variant", "box/cuda_tile").partition("/")
    if r.dry:
        return True, "dry run"
    work = tempfile.mkdtemp(prefix="oom-")
    big = os.path.join(work, "big.pgm")
    noise_pgm(big, 16384)
    misses = 0
    for keep in ["0", step.get("free_mib", "400")]:
        log.write(f"== GPU filled, {keep} MiB left\n")
        log.flush()
        ready = os.path.join(work, "ready")
        filler = subprocess.Popen([sys.executable, "-c", FILLER, keep, ready], stdout=log, stderr=log, env=r.env)
        while not os.path.exists(ready):
            if filler.poll() is not None:
                log.write("the CuPy filler failed\n")
                return False, "the CuPy filler failed"
            time.sleep(0.2)
        os.unlink(ready)
        misses += oom_cases(r, log, work, f, v, big, with_check=keep == "0")
        filler.kill()
        filler.wait()
    shutil.rmtree(work, ignore_errors=True)
    log.write(f"{misses} miss(es)\n")
    return misses == 0, f"{misses} miss(es)"


def oom_cases(r, log, work, f, v, big, with_check):
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
        p = subprocess.run([r.fl, *args], capture_output=True, text=True, env=r.env, cwd=work)
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


KINDS = {"cmd": cmd, "big_image": big_image, "oom": oom}
