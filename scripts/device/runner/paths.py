"""Where things are: the repository, the bundle's folder, the experiment files."""
import os
import shutil

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/device
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPERIMENTS = os.path.join(HERE, "experiments")
BIN = os.path.join(ROOT, ".device-build")  # the bundle of scripts/device_bundle.sh, unpacked


def filterlab_exe():
    """The binary every command runs: FILTERLAB_EXE, else the bundle's."""
    return os.environ.get("FILTERLAB_EXE") or os.path.join(BIN, "filterlab")


def sanitizer_exe():
    """compute-sanitizer: on the PATH, else the CUDA toolkit's."""
    return shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
