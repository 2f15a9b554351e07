#!/usr/bin/env python3
"""The peers users of this field call from Python, timed with the bench's
protocol and handed to `filterlab import-peers`, which writes them as a bench
run directory through the bench's own statistics, schema and context of this
machine, so that `filterlab report` merges it with the bench's runs. The
protocol's numbers come from `filterlab import-peers --protocol`; this script
writes only raw samples (JSON lines, docs/measuring.md).

Peers: OpenCV (cv2: blur, medianBlur, GaussianBlur) on the CPU; PyTorch
(max_pool2d, avg_pool2d for the box, conv2d for the Gaussian: peers_torch.py)
on the CPU and the GPU; on the GPU CuPy (cupyx.scipy.ndimage: uniform_filter,
median_filter, gaussian_filter) and NVIDIA's CV-CUDA (cvcuda: averageblur,
median_blur, gaussian; skipped, and said so, where the cvcuda module is not
installed).
Each is checked first against `filterlab run`'s reference on the same input:
equal, or `differs` (with its largest difference and PSNR) for a peer that
computes another function (other rounding or weights), or `wrong` (not timed)
for one that should compute the contract's. Then timed as the bench times: warm-up,
then until its minimum samples and seconds, inputs and outputs rotating over
enough buffers to exceed twice the device's cache (the bench's rotation),
CUDA events on the GPU around back-to-back calls queued behind an untimed one,
each sample going on around the rotation where the last one stopped.

usage: peers_python.py --filterlab PATH --out DIR [--sizes 4096] [--skip-gpu] [--skip-cpu] [--rows FILE]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import peers_torch
import targets_rows

# (filter, params for `filterlab run`, peer name, backend, computes the contract?)
PEERS = [
    ("box", {"radius": 1}, "py_cv2_blur", "cpu", False),
    ("box", {"radius": 7}, "py_cv2_blur", "cpu", False),
    ("box", {"radius": 15}, "py_cv2_blur", "cpu", False),
    ("median", {"size": 3}, "py_cv2_median_blur", "cpu", True),
    ("median", {"size": 5}, "py_cv2_median_blur", "cpu", True),
    ("median", {"size": 7}, "py_cv2_median_blur", "cpu", True),
    ("gaussian", {"sigma": 1}, "py_cv2_gaussian_blur", "cpu", False),
    ("maxpool", {}, "py_torch_max_pool2d", "cpu", True),
    ("box", {"radius": 1}, "py_torch_avg_pool2d", "cpu", True),
    ("box", {"radius": 7}, "py_torch_avg_pool2d", "cpu", True),
    ("box", {"radius": 15}, "py_torch_avg_pool2d", "cpu", True),
    ("gaussian", {"sigma": 1}, "py_torch_conv2d", "cpu", True),
    ("box", {"radius": 1}, "py_cupy_uniform_filter", "cuda", False),
    ("box", {"radius": 7}, "py_cupy_uniform_filter", "cuda", False),
    ("box", {"radius": 15}, "py_cupy_uniform_filter", "cuda", False),
    ("median", {"size": 3}, "py_cupy_median_filter", "cuda", True),
    ("median", {"size": 5}, "py_cupy_median_filter", "cuda", True),
    ("median", {"size": 7}, "py_cupy_median_filter", "cuda", True),
    ("gaussian", {"sigma": 1}, "py_cupy_gaussian_filter", "cuda", False),
    ("maxpool", {}, "py_torch_max_pool2d", "cuda", True),
    ("box", {"radius": 1}, "py_torch_avg_pool2d", "cuda", True),
    ("box", {"radius": 7}, "py_torch_avg_pool2d", "cuda", True),
    ("box", {"radius": 15}, "py_torch_avg_pool2d", "cuda", True),
    ("gaussian", {"sigma": 1}, "py_torch_conv2d", "cuda", True),
    ("box", {"radius": 1}, "py_cvcuda_averageblur", "cuda", True),
    ("box", {"radius": 7}, "py_cvcuda_averageblur", "cuda", True),
    ("box", {"radius": 15}, "py_cvcuda_averageblur", "cuda", True),
    ("median", {"size": 3}, "py_cvcuda_median_blur", "cuda", True),
    ("median", {"size": 5}, "py_cvcuda_median_blur", "cuda", True),
    ("median", {"size": 7}, "py_cvcuda_median_blur", "cuda", True),
    ("gaussian", {"sigma": 1}, "py_cvcuda_gaussian", "cuda", False),
]


def peer_function(name, params, backend):
    """The call a user makes, as f(input, output) writing into output, and a note on how it computes ("")."""
    window = 2 * int(params.get("radius", 1)) + 1  # the box's
    if name.startswith("py_torch"):
        return peers_torch.torch_function(name, params, backend == "cuda")
    if name.startswith("py_cv2"):
        import cv2
        replicate = cv2.BORDER_REPLICATE
        return {
            "py_cv2_blur": lambda i, o: cv2.blur(i, (window, window), dst=o, borderType=replicate),
            "py_cv2_median_blur": lambda i, o: cv2.medianBlur(i, int(params.get("size", 3)), dst=o),
            "py_cv2_gaussian_blur": lambda i, o: cv2.GaussianBlur(i, (5, 5), 1.0, dst=o, borderType=replicate),
        }[name], ""
    if name.startswith("py_cvcuda"):
        return cvcuda_function(name, window, int(params.get("size", 3))), ""
    import cupyx.scipy.ndimage as ndi
    return {
        "py_cupy_uniform_filter": lambda i, o: ndi.uniform_filter(i, size=window, mode="nearest", output=o),
        "py_cupy_median_filter": lambda i, o: ndi.median_filter(i, size=int(params.get("size", 3)), mode="nearest",
                                                                output=o),
        "py_cupy_gaussian_filter": lambda i, o: ndi.gaussian_filter(i, sigma=1.0, truncate=2.0, mode="nearest",
                                                                    output=o),
    }[name], ""


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


def time_samples(call, buffers, gpu, protocol):
    """Per-call microseconds, as the bench takes them: warm-up, then until the
    protocol's minimum samples and seconds (at least 3 samples and at most its
    seconds per case)."""
    samples, start, next_ = [], time.perf_counter(), 0
    runs = protocol["gpu_runs_per_sample"]
    for b in buffers[:3]:
        call(*b)
    if gpu:
        import cupy
        begin, end = cupy.cuda.Event(), cupy.cuda.Event()
    while True:
        if gpu:  # `runs` back-to-back calls queued behind an untimed one
            call(*buffers[(next_ + len(buffers) - 1) % len(buffers)])
            begin.record()
            for r in range(runs):
                call(*buffers[(next_ + r) % len(buffers)])
            end.record()
            end.synchronize()
            samples.append(1000 * cupy.cuda.get_elapsed_time(begin, end) / runs)
            next_ = (next_ + runs) % len(buffers)
        else:
            i, o = buffers[next_]
            next_ = (next_ + 1) % len(buffers)
            t = time.perf_counter()
            call(i, o)
            samples.append(1e6 * (time.perf_counter() - t))
        elapsed = time.perf_counter() - start
        if len(samples) >= protocol["min_samples"] and elapsed >= protocol["min_seconds"]:
            return samples
        if len(samples) >= 3 and elapsed >= protocol["max_seconds_per_case"]:
            return samples


def rotation(pair_bytes, backend, protocol):
    """The bench's buffer count: twice the device's cache, at least 2, at most its maximum."""
    cache = protocol["cache_bytes"][backend]
    return int(min(protocol["max_buffers"], max(2, math.ceil(2 * cache / pair_bytes) + 1)))


def measure(peer, image, expected, protocol):
    """One case: checked against the reference, then timed; its fields for `filterlab import-peers`."""
    filter_, params, name, backend, exact = peer
    gpu = backend == "cuda"
    call, how = peer_function(name, params, backend)
    xp = np
    if gpu:
        import cupy as xp
    count = rotation(image.nbytes + expected.nbytes, backend, protocol)
    buffers = [(xp.asarray(image), xp.empty(expected.shape, dtype=np.uint8)) for _ in range(count)]
    call(*buffers[0])
    first = buffers[0][1].get() if gpu else buffers[0][1]
    max_diff, differing, psnr = compare(expected, first)
    case = {"status": "ok", "note": how, "buffers": count, "samples_us": []}
    if max_diff:
        case["note"] = f"{differing} samples differ, max |diff| {max_diff}; PSNR {psnr:.1f} dB against the reference" \
            + (f" ({how})" if how else "")
        case["status"] = "wrong" if exact else "differs"
        if exact:
            return case
    case["samples_us"] = time_samples(call, buffers, gpu, protocol)
    return case


def param_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items()))


def rows_of(path):
    """{(filter, backend, size, params)} of a rows file (a row with a peer>= target is a CPU row)."""
    out = set()
    for row in targets_rows.rows(path):
        params = {} if row["params"] == "-" else dict(kv.split("=") for kv in row["params"].split(","))
        backend = "cpu" if "peer>=" in row["targets"] else "cuda"
        out.add((row["filter"], backend, int(row["size"]), param_text({k: int(v) if v.isdigit() else v
                                                                       for k, v in params.items()})))
    return out


def filterlab_json(filterlab, *args):
    return json.loads(subprocess.run([filterlab, *args], check=True, capture_output=True, text=True).stdout)


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
    protocol = filterlab_json(a.filterlab, "import-peers", "--protocol")
    versions = {"numpy": np.__version__}
    missing = {}  # peer name prefix: why it is skipped
    try:
        versions["torch"] = peers_torch.torch_version()
    except ImportError as e:
        missing["py_torch"] = f"torch not installed ({e})"
    import cv2
    versions["opencv"] = cv2.__version__
    if not a.skip_gpu:
        import cupy
        versions["cupy"] = cupy.__version__
        try:
            import cvcuda
            versions["cvcuda"] = cvcuda.__version__
        except ImportError as e:
            missing["py_cvcuda"] = f"cvcuda not installed ({e})"
    samples = os.path.join(work, "samples.jsonl")
    with open(samples, "w") as out:
        out.write(json.dumps({"context": {"python_peers": versions}}) + "\n")
        for size in sizes:
            image = np.random.default_rng(size).integers(0, 256, (size, size), dtype=np.uint8)
            for peer in PEERS:
                filter_, params, name, backend, _ = peer
                if (backend == "cuda" and a.skip_gpu) or (backend == "cpu" and a.skip_cpu):
                    continue
                if a.rows and (filter_, backend, size, param_text(params)) not in wanted:
                    continue
                why = next((w for prefix, w in missing.items() if name.startswith(prefix)), "")
                if why:
                    case = {"status": "skipped", "note": why, "buffers": 0, "samples_us": []}
                else:
                    expected = reference(a.filterlab, filter_, params, image, work)
                    case = measure(peer, image, expected, protocol)
                case.update(filter=filter_, variant=name, backend=backend, width=size, height=size, channels=1,
                            params=[f"{k}={v}" for k, v in sorted(params.items())],
                            threads=0 if backend != "cpu" or why else peers_torch.torch_threads() if
                            name.startswith("py_torch") else cv2.getNumThreads())
                print(f"{filter_} {name} {size}x{size} {param_text(params)}: {case['status']} "
                      f"{len(case['samples_us'])} samples {case['note']}", file=sys.stderr)
                out.write(json.dumps(case, default=float) + "\n")
    imported = subprocess.run([a.filterlab, "import-peers", samples, "--out", a.out, "--quiet"], check=True,
                              capture_output=True, text=True).stdout
    print(imported.splitlines()[-1].removeprefix("run: "))


if __name__ == "__main__":
    main()
