"""The step kinds around NVIDIA's tools and Halide's probes: ncu (Nsight Compute
of each selected variant), ptx (the PTX nvcc embedded, cut by kernel) and probe
(a probe's harness at register caps). Each is function(runner, step, log) -> (ok, what)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import selection as sel
from .experiment import words
from .paths import BIN, ROOT

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


def ncu(r, step, log):
    """Nsight Compute (`metrics`: full, short or a list; clocks left alone) of each selected
    variant at each case, one launch on a gray noise image: OUT/ncu/CASE.csv, then its table."""
    folder = step.get("out", "ncu")
    os.makedirs(os.path.join(r.out, folder), exist_ok=True)
    images = tempfile.mkdtemp(prefix="ncu-images-")
    done = bad = 0
    try:
        for case in sel.cases(r, step):
            for v in sel.variants_at(r, step, case, log):
                done += 1
                bad += profile(r, step, log, case, v, folder, images) != 0
    finally:
        shutil.rmtree(images, ignore_errors=True)
    if done and not r.dry:
        r.run(log, [sys.executable, os.path.join(ROOT, "scripts", "ncu_summary.py"),
                    os.path.join(r.out, folder)], header=f"python3 scripts/ncu_summary.py {folder}", rc=False)
    return bad == 0, f"{done} kernels profiled, {bad} failed"


def profile(r, step, log, case, v, folder, images):
    """One ncu run of variant v at case into OUT/folder/FILTER_PARAMS_SIZE_VARIANT.csv; its status."""
    image = os.path.join(images, f"noise{case['size']}.pgm")
    tag = f"{case['filter']}_{re.sub('[=,]', '-', case['params'])}_{case['size']}_{v}"
    metrics = METRICS.get(step.get("metrics", "full"), step.get("metrics"))
    cmd = ["ncu", "--clock-control", "none", "--csv", "--metrics", metrics, r.fl, "run", "--filter",
           case["filter"], "--variant", v, *sel.param_args(case["params"]), "-i", image, "-o",
           os.path.join(images, "out.pgm"), "--whole-image", "--quiet"]  # one call over the image, not its bands
    log.write(f"$ ncu --clock-control none --csv --metrics {step.get('metrics', 'full')} filterlab run --filter "
              f"{case['filter']} --variant {v} {' '.join(sel.param_args(case['params']))} -i noise{case['size']}.pgm"
              f" --whole-image > {folder}/{tag}.csv\n")
    log.flush()
    if r.dry:
        return 0
    if not os.path.isfile(image):
        sel.noise_pgm(image, case["size"])
    try:
        with open(os.path.join(r.out, folder, tag + ".csv"), "w") as out:
            status = subprocess.run(cmd, stdout=out, stderr=log, env={**r.env, **r.pairs(step.get("env"))},
                                    timeout=r.timeout(step, 120), cwd=ROOT).returncode
    except subprocess.TimeoutExpired:
        status = 124
    except OSError as e:
        log.write(f"{e}\n")
        status = 127
    log.write(f"rc={status}\n")
    log.flush()
    r.keep(folder)
    return status


def cut_entries(text, kernel):
    """The lines of PTX `text` of the .entry whose line names `kernel`, through its closing }."""
    keep, lines = False, []
    for line in text.splitlines():
        if re.match(r"^(\.visible )?\.entry", line):
            keep = kernel in line
        if keep:
            lines.append(line)
            if line.startswith("}"):
                keep = False
    return lines


def ptx(r, step, log):
    """The PTX nvcc embedded in filterlab (cuobjdump -ptx), each of `kernels`' .entry cut out into
    OUT/cuda/KERNEL.ptx; with FILTERLAB_OPENCL_BINARIES set (the experiment's env), the OpenCL
    programs NVIDIA's compiler built are in that folder."""
    folder = os.path.join(r.out, "cuda")
    os.makedirs(folder, exist_ok=True)
    cuobjdump = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    log.write("$ cuobjdump -ptx filterlab\n")
    if r.dry:
        return True, "dry run"
    text = subprocess.run([cuobjdump, "-ptx", r.fl], capture_output=True, text=True).stdout
    cut = 0
    for kernel in words(step.get("kernels")):
        lines = cut_entries(text, kernel)
        with open(os.path.join(folder, kernel + ".ptx"), "w") as out:
            out.write("".join(l + "\n" for l in lines))
        log.write(f"{kernel}: {len(lines)} lines\n")
        cut += bool(lines)
    for sub in ("opencl", "cuda"):
        path = os.path.join(r.out, sub)
        if os.path.isdir(path):
            log.write(f"{sub}/: {' '.join(sorted(os.listdir(path)))}\n")
    return cut == len(words(step.get("kernels"))), f"{cut} kernels cut out"


def probe(r, step, log):
    """A Halide probe's GPU harness (built by the probes' build_probe.sh NAME .device-build/probes/NAME,
    as scripts/device/README.md says, and carried with the bundle) at each register cap of `caps`
    (- for the runtime's default, 64)."""
    name = step.get("name")
    if not name:
        return True, "no probe named"
    harness = os.path.join(BIN, "probes", name, step.get("harness", "probe_time"))
    packed = os.path.join(BIN, "probes", name + ".tar.xz")
    if not os.path.isfile(harness) and os.path.isfile(packed) and not r.dry:
        subprocess.run(["tar", "-xJf", packed, "-C", os.path.dirname(packed)], check=True)
    bad = 0
    for cap in words(step.get("caps", "-")):
        env = {} if cap == "-" else {"HL_CUDA_JIT_MAX_REGISTERS": cap}
        status = r.run(log, [harness], env=env, timeout=r.timeout(step, 150),
                       header=f"{'' if cap == '-' else f'HL_CUDA_JIT_MAX_REGISTERS={cap} '}{step.get('harness', 'probe_time')}"
                              f"   ({name}{', the runtime cap: 64' if cap == '-' else ''})")
        bad += status != 0
    return bad == 0, f"{len(words(step.get('caps', '-')))} runs, {bad} failed"


KINDS = {"ncu": ncu, "ptx": ptx, "probe": probe}
