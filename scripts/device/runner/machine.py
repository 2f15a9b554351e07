"""The machine a run measures on: the bundle unpacked (once per bundle), the
environment every command gets, the build's variants (`filterlab list --json`)
and OUT/machine.txt, the header of every experiment."""
import json
import os
import shlex
import subprocess
import sys
import time

from .paths import BIN, ROOT, filterlab_exe, sanitizer_exe


def unpack_bundle(dry):
    """Unpacks .device-build/bundle.tar.xz there, unless this bundle (size and time) already was."""
    bundle = os.path.join(BIN, "bundle.tar.xz")
    marker = os.path.join(BIN, ".unpacked")
    if os.path.isfile(bundle):
        stamp = f"{os.path.getsize(bundle)} {os.path.getmtime(bundle)}"
        if not os.path.isfile(marker) or open(marker).read() != stamp:
            print(f"unpacking {os.path.relpath(bundle, ROOT)}", file=sys.stderr, flush=True)
            if not dry:
                subprocess.run(["tar", "-xJf", bundle, "-C", BIN], check=True)
                with open(marker, "w") as f:
                    f.write(stamp)


def environment(r):
    """Sets r.env: the images, the binary, its libraries, an OpenCL vendors folder
    (`opencl_icd`) and the experiment's `env`."""
    r.env.update(base_env(r.fl))
    icd = r.exp.get("opencl_icd")
    if icd:  # NVIDIA's OpenCL through a vendors folder of our own (the machine's lists only PoCL)
        folder = os.path.join(r.out, "icd")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "nvidia.icd"), "w") as f:
            f.write(icd + "\n")
        r.env["OCL_ICD_VENDORS"] = folder
    r.env.update(r.pairs(r.exp.get("env")))


def base_env(fl):
    """What every command on the machine gets: the images, the binary and its libraries."""
    return {"FILTERLAB_IMAGES": os.path.join(ROOT, "tests", "images"), "FILTERLAB_EXE": fl,
            "LD_LIBRARY_PATH": ":".join(p for p in (os.path.join(BIN, "lib"), os.environ.get("LD_LIBRARY_PATH")) if p)}


def shell_env():
    """The bundle unpacked, and the exports that give a call script's own commands what the
    runner's commands get (base_env), $fl the binary and $san compute-sanitizer."""
    unpack_bundle(False)
    fl = filterlab_exe()
    values = {**base_env(fl), "fl": fl, "san": sanitizer_exe()}
    return "export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in values.items())


def listing(fl, env):
    """The variants `filterlab list --json` names; None without a binary or a listing."""
    if not (os.path.isfile(fl) and os.access(fl, os.X_OK)):
        return None
    text = subprocess.run([fl, "list", "--json"], capture_output=True, text=True, env=env).stdout
    try:
        return json.loads(text)["variants"]
    except (ValueError, KeyError):
        return None


def setup(r):
    """OUT, the bundle, the environment and the build's variants of run r."""
    os.makedirs(r.out, exist_ok=True)
    unpack_bundle(r.dry)
    environment(r)
    r.listing = listing(r.fl, r.env)
    if r.listing is None and not r.dry:
        sys.exit(f"run.py: {r.fl} did not list its variants (is the bundle unpacked?)")


def write_header(r):
    """OUT/machine.txt: GPUs, clocks, CPU, MPI, disk, `filterlab info`, libraries not found."""
    commands = [
        ["nvidia-smi", "--query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,"
         "temperature.gpu,pcie.link.gen.current,pcie.link.width.current", "--format=csv"],
        ["nvidia-smi", "-q", "-d", "CLOCK"],
        ["nvidia-smi", "topo", "-m"],
        ["sh", "-c", "lscpu | grep -E 'Model name|^CPU\\(s\\)'; nproc; uptime"],
        ["sh", "-c", "mpirun --version | head -1"],
        ["sh", "-c", "df -h /tmp | tail -1"],
        [r.fl, "info"],
        ["sh", "-c", f"ldd {shlex.quote(r.fl)} | grep -i 'not found' || echo 'no library missing'"],
    ]
    with open(os.path.join(r.out, "machine.txt"), "w") as log:
        log.write(f"experiment {r.name}, steps {' '.join(r.steps)}, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n")
        for key in [k for k in ("OCL_ICD_VENDORS", *r.pairs(r.exp.get("env"))) if k in r.env]:
            log.write(f"env {key}={r.env.get(key, '')}\n")
        for cmd in commands:
            r.run(log, cmd, timeout=60, rc=False)
