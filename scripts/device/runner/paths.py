"""Where things are: the repository, the bundle's folder, the experiment files."""
import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/device
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPERIMENTS = os.path.join(HERE, "experiments")
BIN = os.path.join(ROOT, ".device-build")  # the bundle of scripts/device_bundle.sh, unpacked
