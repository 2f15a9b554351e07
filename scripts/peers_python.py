#!/usr/bin/env python3
"""The peers users of this field call from Python, timed with the bench's
protocol and written as a bench run directory that `filterlab report` merges
with the bench's own (same machine: the context is taken from a tiny
`filterlab bench` run made here first).

Peers: OpenCV (cv2: blur, medianBlur, GaussianBlur; max pooling as NumPy's
reshape-max) on the CPU; on the GPU CuPy (cupyx.scipy.ndimage: uniform_filter,
median_filter, gaussian_filter; max pooling as a reshape-max) and NVIDIA's
CV-CUDA (cvcuda: averageblur, median_blur, gaussian; skipped, and said so,
where the cvcuda module is not installed).
Each is checked first against `filterlab run`'s reference on the same input:
equal, or `differs` (with its largest difference and PSNR) for a peer that
computes another function (other rounding or weights), or `wrong` (not timed)
for one that should compute the contract's. Then timed: warm-up, then until
20 samples and 0.5 s, inputs and outputs rotating over enough buffers to
exceed the caches (CPU: 128 MB; GPU: twice the L2), CUDA events on the GPU
around 8 back-to-back calls queued behind an untimed one (as the bench).

usage: peers_python.py --filterlab PATH --out DIR [--sizes 4096] [--skip-gpu] [--skip-cpu] [--rows FILE]
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

# (filter, params for `filterlab run`, peer name, backend, computes the contract?)
PEERS = [
    ("box", {"radius": 1}, "py_cv2_blur", "cpu", False),
    ("box", {"radius": 7}, "py_cv2_blur", "cpu", False),
    ("box", {"radius": 15}, "py_cv2_blur", "cpu", False),
    ("median", {"size": 3}, "py_cv2_median_blur", "cpu", True),
    ("median", {"size": 5}, "py_cv2_median_blur", "cpu", True),
    ("median", {"size": 7}, "py_cv2_median_blur", "cpu", True),
    ("gaussian", {"sigma": 1}, "py_cv2_gaussian_blur", "cpu", False),
    ("maxpool", {}, "py_numpy_reshape_max", "cpu", True),
    ("box", {"radius": 1}, "py_cupy_uniform_filter", "cuda", False),
    ("box", {"radius": 7}, "py_cupy_uniform_filter", "cuda", False),
    ("box", {"radius": 15}, "py_cupy_uniform_filter", "cuda", False),
    ("median", {"size": 3}, "py_cupy_median_filter", "cuda", True),
    ("median", {"size": 5}, "py_cupy_median_filter", "cuda", True),
    ("median", {"size": 7}, "py_cupy_median_filter", "cuda", True),
    ("gaussian", {"sigma": 1}, "py_cupy_gaussian_filter", "cuda", False),
    ("maxpool", {}, "py_cupy_reshape_max", "cuda", True),
    ("box", {"radius": 1}, "py_cvcuda_averageblur", "cuda", True),
    ("box", {"radius": 7}, "py_cvcuda_averageblur", "cuda", True),
    ("box", {"radius": 15}, "py_cvcuda_averageblur", "cuda", True),
    ("median", {"size": 3}, "py_cvcuda_median_blur", "cuda", True),
    ("median", {"size": 5}, "py_cvcuda_median_blur", "cuda", True),
    ("median", {"size": 7}, "py_cvcuda_median_blur", "cuda", True),
    ("gaussian", {"sigma": 1}, "py_cvcuda_gaussian", "cuda", False),
]
COLUMNS = ("filter,variant,backend,kind,width,height,channels,params,status,samples,buffers,median_us,min_us,"
           "max_us,p25_us,p75_us,spread_pct,gb_per_s,roofline_pct,threads,note").split(",")


def peer_function(name, params):
    """The call a user makes, as f(input, output) writing into output."""
    window = 2 * int(params.get("radius", 1)) + 1  # the box's
    if name.startswith("py_cv2") or name == "py_numpy_reshape_max":
        import cv2
        replicate = cv2.BORDER_REPLICATE
        return {
            "py_cv2_blur": lambda i, o: cv2.blur(i, (window, window), dst=o, borderType=replicate),
            "py_cv2_median_blur": lambda i, o: cv2.medianBlur(i, int(params.get("size", 3)), dst=o),
            "py_cv2_gaussian_blur": lambda i, o: cv2.GaussianBlur(i, (5, 5), 1.0, dst=o, borderType=replicate),
            "py_numpy_reshape_max": lambda i, o: np.max(
                i[: o.shape[0] * 2, : o.shape[1] * 2].reshape(o.shape[0], 2, o.shape[1], 2), axis=(1, 3), out=o),
        }[name]
    if name.startswith("py_cvcuda"):
        return cvcuda_function(name, window, int(params.get("size", 3)))
    import cupy
    import cupyx.scipy.ndimage as ndi
    return {
        "py_cupy_uniform_filter": lambda i, o: ndi.uniform_filter(i, size=window, mode="nearest", output=o),
        "py_cupy_median_filter": lambda i, o: ndi.median_filter(i, size=int(params.get("size", 3)), mode="nearest",
                                                                output=o),
        "py_cupy_gaussian_filter": lambda i, o: ndi.gaussian_filter(i, sigma=1.0, truncate=2.0, mode="nearest",
                                                                    output=o),
        "py_cupy_reshape_max": lambda i, o: cupy.max(
            i[: o.shape[0] * 2, : o.shape[1] * 2].reshape(o.shape[0], 2, o.shape[1], 2), axis=(1, 3), out=o),
    }[name]


def cvcuda_function(name, window, size):
    """CV-CUDA's call on CuPy arrays, wrapped once each as a 1-image NHWC tensor,
    on the stream the timing events are recorded on (CuPy's current one)."""
    import cupy
    import cvcuda
    stream = cvcuda.as_stream(cupy.cuda.get_current_stream())
    tensors = {}

    def tensor(a):
        if a.data.ptr not in tensors:
            tensors[a.data.ptr] = (a, cvcuda.as_tensor(a.reshape(1, a.shape[0], a.shape[1], 1), "NHWC"))
        return tensors[a.data.ptr][1]

    replicate = cvcuda.Border.REPLICATE
    return {
        "py_cvcuda_averageblur": lambda i, o: cvcuda.averageblur_into(
            tensor(o), tensor(i), (window, window), (-1, -1), replicate, stream=stream),
        "py_cvcuda_median_blur": lambda i, o: cvcuda.median_blur_into(tensor(o), tensor(i), (size, size),
                                                                      stream=stream),
        "py_cvcuda_gaussian": lambda i, o: cvcuda.gaussian_into(tensor(o), tensor(i), (5, 5), (1.0, 1.0), replicate,
                                                                stream=stream),
    }[name]


def write_pgm(path, image):
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (image.shape[1], image.shape[0]))
        f.write(image.tobytes())


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = data.split(maxsplit=4)  # P5, width, height, 255, pixels
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(fields[4][: width * height], dtype=np.uint8).reshape(height, width)


def reference(filterlab, filter_, params, image, work):
    """`filterlab run`'s reference output of `image`."""
    src, dst = os.path.join(work, "in.pgm"), os.path.join(work, "ref.pgm")
    write_pgm(src, image)
    args = [filterlab, "run", "--filter", filter_, "--input", src, "--output", dst, "--quiet"]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    subprocess.run(args, check=True)
    return read_pgm(dst)


def compare(expected, actual):
    diff = np.abs(expected.astype(np.int16) - actual.astype(np.int16))
    mse = float(np.mean(diff.astype(np.float64) ** 2))
    psnr = math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)
    return int(diff.max()), int(np.count_nonzero(diff)), psnr


RUNS = 8  # GPU calls per sample (runtime/bench/bench.cpp: kMinTimedRuns)


def time_samples(call, buffers, gpu):
    """Per-call microseconds: warm-up, then until 20 samples and 0.5 s."""
    samples, k, start = [], 0, time.perf_counter()
    for b in buffers[:3]:
        call(*b)
    if gpu:
        import cupy
        begin, end = cupy.cuda.Event(), cupy.cuda.Event()
    while len(samples) < 20 or time.perf_counter() - start < 0.5:
        i, o = buffers[k]
        k = (k + 1) % len(buffers)
        if gpu:  # as the bench: RUNS back-to-back calls queued behind an untimed one
            call(*buffers[-1])
            begin.record()
            for r in range(RUNS):
                call(*buffers[r % len(buffers)])
            end.record()
            end.synchronize()
            samples.append(1000 * cupy.cuda.get_elapsed_time(begin, end) / RUNS)
        else:
            t = time.perf_counter()
            call(i, o)
            samples.append(1e6 * (time.perf_counter() - t))
    return np.array(samples)


def measure(peer, image, expected, gpu_l2):
    filter_, params, name, backend, exact = peer
    gpu = backend == "cuda"
    out_shape = expected.shape
    call = peer_function(name, params)
    xp = np
    if gpu:
        import cupy as xp
    pair_bytes = image.nbytes + expected.nbytes
    budget = 2 * gpu_l2 if gpu else 128e6
    count = int(min(64, max(2, math.ceil(budget / pair_bytes) + 1)))
    buffers = [(xp.asarray(image), xp.empty(out_shape, dtype=np.uint8)) for _ in range(count)]
    call(*buffers[0])
    first = buffers[0][1].get() if gpu else buffers[0][1]
    max_diff, differing, psnr = compare(expected, first)
    row = {"status": "ok", "note": "", "buffers": count}
    if max_diff:
        row["note"] = f"{differing} samples differ, max |diff| {max_diff}; PSNR {psnr:.1f} dB against the reference"
        row["status"] = "wrong" if exact else "differs"
        if exact:
            return row
    t = time_samples(call, buffers, gpu)
    median, p25, p75 = np.median(t), np.percentile(t, 25), np.percentile(t, 75)
    row.update(samples=len(t), median_us=median, min_us=t.min(), max_us=t.max(), p25_us=p25, p75_us=p75,
               spread_pct=100 * (p75 - p25) / median, gb_per_s=pair_bytes / (median * 1e-6) / 1e9)
    return row


def param_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items()))


def rows_of(path):
    """{(filter, backend, size, params)} of a rows file (a row with a peer>= target is a CPU row)."""
    out = set()
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                filter_, size, params, targets = line.split()[:4]
                params = {} if params == "-" else dict(kv.split("=") for kv in params.split(","))
                backend = "cpu" if "peer>=" in targets else "cuda"
                out.add((filter_, backend, int(size), param_text({k: int(v) if v.isdigit() else v
                                                                  for k, v in params.items()})))
    return out


def context_of_this_machine(filterlab, work):
    """The context of a tiny bench run made here, so the report sees the same machine."""
    runs = os.path.join(work, "context-run")
    subprocess.run([filterlab, "bench", "--filter", "maxpool", "--variant", "reference", "--backend", "cpu",
                    "--sizes", "64", "--min-reps", "3", "--min-time", "0", "-q", "--out", runs], check=True,
                   stdout=subprocess.DEVNULL)
    run = os.path.join(runs, os.listdir(runs)[0])
    with open(os.path.join(run, "results.json")) as f:
        return json.load(f)["context"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filterlab", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sizes", default="4096")
    ap.add_argument("--skip-gpu", action="store_true")
    ap.add_argument("--skip-cpu", action="store_true")
    ap.add_argument("--rows", help="only the peers of these rows (scripts/targets_rows.txt's format), each at "
                                   "its row's size: GPU peers on GPU rows, CPU peers on CPU rows")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    wanted = rows_of(a.rows) if a.rows else set()
    work = tempfile.mkdtemp(prefix="filterlab-peers-")
    context = context_of_this_machine(a.filterlab, work)
    context["command"] = " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:])
    versions = {"numpy": np.__version__}
    import cv2
    versions["opencv"] = cv2.__version__
    gpu_l2 = context.get("gpu", {}).get("l2_bytes", 0)
    no_cvcuda = ""
    if not a.skip_gpu:
        import cupy
        versions["cupy"] = cupy.__version__
        try:
            import cvcuda
            versions["cvcuda"] = cvcuda.__version__
        except ImportError as e:
            no_cvcuda = f"cvcuda not installed ({e})"
    context["python_peers"] = versions
    roofline = context.get("copy_roofline_gb_per_s", 0)
    rows = []
    for size in sizes:
        image = np.random.default_rng(size).integers(0, 256, (size, size), dtype=np.uint8)
        for peer in PEERS:
            filter_, params, name, backend, _ = peer
            if (backend == "cuda" and a.skip_gpu) or (backend == "cpu" and a.skip_cpu):
                continue
            if a.rows and (filter_, backend, size, param_text(params)) not in wanted:
                continue
            if name.startswith("py_cvcuda") and no_cvcuda:
                r = {"status": "skipped", "note": no_cvcuda, "buffers": 0}
            else:
                expected = reference(a.filterlab, filter_, params, image, work)
                r = measure(peer, image, expected, gpu_l2)
            r.update(filter=filter_, variant=name, backend=backend, kind="peer", width=size, height=size, channels=1,
                     params=param_text(params),
                     threads=cv2.getNumThreads() if backend == "cpu" else 0)
            if backend == "cuda" and "gb_per_s" in r and roofline:
                r["roofline_pct"] = 100 * r["gb_per_s"] / roofline
            print(f"{filter_} {name} {size}x{size} {r['params']}: {r['status']} "
                  f"{r.get('median_us', 0):.1f} us {r['note']}", file=sys.stderr)
            rows.append(r)
    run = os.path.join(a.out, "run-python-peers-" + time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(os.path.join(run, "gallery"))
    with open(os.path.join(run, "results.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([format_cell(c, r.get(c)) for c in COLUMNS])
    with open(os.path.join(run, "results.json"), "w") as f:
        json.dump({"context": context, "benchmarks": rows}, f, indent=2, default=float)
    with open(os.path.join(run, "gallery", "gallery.json"), "w") as f:
        json.dump({"filters": []}, f)
    print(run)


def format_cell(column, value):
    if value is None:
        return "0" if column in ("samples",) else ("0.000" if column.endswith(("_us", "_pct", "_per_s")) else "")
    if isinstance(value, (float, np.floating)):
        return f"{value:.3f}"
    return str(value).replace(",", ";")


if __name__ == "__main__":
    main()
