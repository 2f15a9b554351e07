"""The step kind stream_image: one large gray PGM of noise on local disk, each `run` line
(filter variant params) through `filterlab run` file to file — once reading the whole image
(`--whole-image`, where it fits), then `repeats` times streamed in bands on 1 rank, on each
of `gpus` in one process (`--gpus N`) and on each of `ranks` (mpirun, one GPU a rank), with `flags` added to each and `env` set for each, and the OpenCV peer (`peer = yes`,
scripts/opencv_file_peer.py) — every output compared byte for byte with the first streamed one
(or with the run of `reference`, a variant of the same filter, where given). Wall times of the
whole command (process start and exit included) beside filterlab's own phases."""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from .experiment import words
from .selection import noise_pgm, param_args

PEER = os.path.join(os.path.dirname(__file__), "..", "..", "opencv_file_peer.py")


def timed(r, out, command, header, env=None):
    """Runs one command into `out`; its wall seconds (None when it failed)."""
    start = time.time()
    status = r.run(out, command, header=header, env=env)
    wall = time.time() - start
    out.write(f"wall {wall:.3f} s\n")
    out.flush()
    return wall if status == 0 else None


def same(r, out, a, b, what):
    """Whether files a and b hold the same bytes (said in `out`)."""
    if r.dry:
        return True
    equal = subprocess.run(["cmp", a, b], capture_output=True).returncode == 0
    out.write(f"bytes identical: {what}\n" if equal else f"BYTES DIFFER: {what}\n")
    return equal


def one_line(r, step, out, work, image, cells):
    """The runs of one line; returns (misses, {label: [walls]})."""
    filter_, variant, params = cells[0], cells[1], cells[2] if len(cells) > 2 else "-"
    flags = words(step.get("flags", ""))
    args = ["run", "--filter", filter_, "-i", image, *param_args(params), *flags]
    shown = f"--filter {filter_} {' '.join(param_args(params) + flags)} -i in.pgm"
    first = os.path.join(work, "first.pgm")
    walls, misses = {}, 0
    if step.get("reference"):
        timed(r, out, [r.fl, *args, "--variant", step["reference"], "-o", first],
              f"filterlab run {shown} --variant {step['reference']} -o first.pgm")
    repeats = int(step.get("repeats", 3))
    plans = [("whole image", "1", [])] if step.get("whole") == "yes" else []
    plans += [("streamed", "1", [])] * repeats
    plans += [(f"{n} GPUs, one process", "1", ["--gpus", n]) for n in words(step.get("gpus", "")) for _ in range(repeats)]
    plans += [(f"{n} ranks", n, []) for n in words(step.get("ranks", "")) for _ in range(repeats)]
    for label, ranks, more in plans:
        target = os.path.join(work, "out.pgm")
        if os.path.exists(target):  # replacing a file of a GiB costs its unlinking: not the filter's time
            os.unlink(target)
        command = [r.fl, *args, "--variant", variant, "-o", target, *more,
                   *(["--whole-image"] if label == "whole image" else [])]
        if ranks != "1":
            command = [*r.mpirun(*words(step.get("mpi_args", ""))), "-n", ranks, *command]
        shown_cmd = ("" if ranks == "1" else f"mpirun -n {ranks} ") + f"filterlab run {shown} --variant {variant}" + \
            (" --whole-image" if label == "whole image" else "") + "".join(" " + m for m in more) + " -o out.pgm"
        wall = timed(r, out, command, shown_cmd, env=r.pairs(step.get("env")))
        walls.setdefault(label, []).append(wall)
        if wall is None:
            misses += 1
        elif r.dry:
            continue
        elif not os.path.exists(first):
            os.replace(target, first)
        else:
            misses += not same(r, out, first, target, f"{label} and the first run")
    if step.get("peer") == "yes" and filter_ in ("box", "median", "gaussian"):
        peer_params = [] if params == "-" else params.split(",")
        for _ in range(int(step.get("repeats", 3))):
            walls.setdefault("opencv", []).append(
                timed(r, out, ["python3", PEER, image, os.path.join(work, "peer.pgm"), filter_, *peer_params],
                      f"python3 scripts/opencv_file_peer.py in.pgm peer.pgm {filter_} {' '.join(peer_params)}"))
    for name in ("first.pgm", "out.pgm", "peer.pgm"):
        if os.path.exists(os.path.join(work, name)):
            os.unlink(os.path.join(work, name))
    return misses, walls


def stream_image(r, step, log):
    """See the module's text; into OUT/`file` (stream.txt), a table of median walls at its end."""
    size = int(step.get("size", 32768))
    folder = step.get("dir", "/tmp")
    work = tempfile.mkdtemp(prefix="filterlab_stream_", dir=folder)
    image = os.path.join(work, "in.pgm")
    name = step.get("file", "stream.txt")
    misses, table = 0, []
    with open(os.path.join(r.out, name), "a") as out:
        r.run(out, ["df", "-hT", folder])
        if not r.dry:
            start = time.time()
            noise_pgm(image, size, seed=size)
            out.write(f"made {size}x{size} PGM of noise in {time.time() - start:.1f} s\n")
        for line in (step.get("run") or "").splitlines():
            cells = line.split()
            if cells:
                bad, walls = one_line(r, step, out, work, image, cells)
                misses += bad
                for label, values in walls.items():
                    ok = [v for v in values if v is not None]
                    table.append(f"| {' '.join(cells)} | {label} | "
                                 f"{statistics.median(ok) if ok else float('nan'):.3f} | "
                                 f"{min(ok) if ok else float('nan'):.3f}–{max(ok) if ok else float('nan'):.3f} | "
                                 f"{len(ok)}/{len(values)} |")
        out.write("\n| line | how | median wall (s) | range | runs ok |\n| --- | --- | ---: | --- | --- |\n")
        out.write("".join(t + "\n" for t in table))
    shutil.rmtree(work, ignore_errors=True)
    log.write(f"{name}: {misses} runs failed or differed\n")
    return misses == 0, f"{misses} runs failed or differed"


KINDS = {"stream_image": stream_image}
