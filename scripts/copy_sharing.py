#!/usr/bin/env python3
"""What two GPUs' copies share on one host (issue 44's batch question).

Pinned host <-> device copies (PyTorch, CUDA events), each GPU alone and
both at once from two processes started together, for host-to-device,
device-to-host and both directions at once; then the host's own memory
bandwidth (NumPy copies of 1 GiB) from one process and from two at once.
Each number is the median of `--reps` copies of `--mib` MiB, in GB/s a
direction (GB = 1e9 bytes). Where the two-process sum falls short of twice
one, the two share what limits it.

    python3 scripts/copy_sharing.py [--mib 256] [--reps 20]
"""
import argparse
import multiprocessing as mp
import statistics
import time


def gpu_copies(device, mode, mib, reps, barrier, results):
    """One process: `reps` copies on `device`; GB/s a direction, the median."""
    import torch

    torch.cuda.set_device(device)
    n = mib << 20
    host_in = torch.empty(n, dtype=torch.uint8).pin_memory()
    host_out = torch.empty(n, dtype=torch.uint8).pin_memory()
    dev_in = torch.empty(n, dtype=torch.uint8, device=device)
    dev_out = torch.empty(n, dtype=torch.uint8, device=device)
    up, down = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def once():
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(torch.cuda.current_stream())
        up.wait_stream(torch.cuda.current_stream())
        down.wait_stream(torch.cuda.current_stream())
        if mode in ("h2d", "both"):
            with torch.cuda.stream(up):
                dev_in.copy_(host_in, non_blocking=True)
        if mode in ("d2h", "both"):
            with torch.cuda.stream(down):
                host_out.copy_(dev_out, non_blocking=True)
        torch.cuda.current_stream().wait_stream(up)
        torch.cuda.current_stream().wait_stream(down)
        end.record(torch.cuda.current_stream())
        end.synchronize()
        return n / (start.elapsed_time(end) * 1e-3) / 1e9

    for _ in range(3):
        once()
    barrier.wait()
    results[device] = statistics.median(once() for _ in range(reps))


def host_copies(worker, mib, reps, barrier, results):
    """One process: `reps` NumPy copies of `mib` MiB; GB/s (read or written), the median."""
    import numpy as np

    a = np.ones(mib << 20, dtype=np.uint8)
    b = np.empty_like(a)
    np.copyto(b, a)
    barrier.wait()
    speeds = []
    for _ in range(reps):
        start = time.perf_counter()
        np.copyto(b, a)
        speeds.append(a.nbytes / (time.perf_counter() - start) / 1e9)
    results[worker] = statistics.median(speeds)


def together(target, workers, *args):
    """Runs `target(worker, *args, barrier, results)` in one process per worker, started together."""
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(len(workers)), ctx.Manager().dict()
    procs = [ctx.Process(target=target, args=(w, *args, barrier, results)) for w in workers]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise SystemExit(f"copy_sharing: a worker failed (exit {p.exitcode})")
    return [results[w] for w in workers]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--reps", type=int, default=20)
    args = parser.parse_args()
    import torch

    gpus = torch.cuda.device_count()
    print(f"{gpus} GPUs: {', '.join(torch.cuda.get_device_name(d) for d in range(gpus))}; "
          f"pinned copies of {args.mib} MiB, median of {args.reps}, GB/s a direction")
    print("| copy | GPU 0 alone | GPU 1 alone | GPU 0 with 1 | GPU 1 with 0 | together / alone |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for mode in ("h2d", "d2h", "both"):
        alone = [together(gpu_copies, [d], mode, args.mib, args.reps)[0] for d in range(min(gpus, 2))]
        pair = together(gpu_copies, [0, 1], mode, args.mib, args.reps) if gpus >= 2 else [float("nan")] * 2
        ratio = sum(pair) / sum(alone) if gpus >= 2 else float("nan")
        cells = [f"{v:.1f}" for v in alone + [float("nan")] * (2 - len(alone)) + pair]
        print(f"| {mode} | {' | '.join(cells)} | {ratio:.2f} |")
    one = together(host_copies, [0], 1024, 10)[0]
    two = together(host_copies, [0, 1], 1024, 10)
    print(f"\nhost memory, NumPy copy of 1 GiB (GB/s read, as much written): one process {one:.1f}; "
          f"two at once {two[0]:.1f} + {two[1]:.1f} = {sum(two):.1f} ({sum(two) / one:.2f}x one)")


if __name__ == "__main__":
    main()
