#!/usr/bin/env python3
"""The host peer of `filterlab run` on a large image file: what a user would
write with OpenCV (cv2.imread, one cv2 call, cv2.imwrite, with OpenCV's own
threads), timed per phase in the same process, wall time included. The
filters are OpenCV's nearest to the contract's (the same window and border;
rounding and Gaussian weights may differ), so its output is timed, not
compared.

usage: opencv_file_peer.py IN OUT FILTER [NAME=VALUE...]   (box radius=R, median size=S, gaussian sigma=S)
"""
import math
import resource
import sys
import time

import cv2


def filtered(image, name, params):
    replicate = cv2.BORDER_REPLICATE
    if name == "box":
        window = 2 * int(params.get("radius", 1)) + 1
        return cv2.blur(image, (window, window), borderType=replicate)
    if name == "median":
        return cv2.medianBlur(image, int(params.get("size", 3)))
    if name == "gaussian":
        sigma = float(params.get("sigma", 1.0))
        window = 2 * math.ceil(3 * sigma) + 1
        return cv2.GaussianBlur(image, (window, window), sigma, borderType=replicate)
    raise SystemExit(f"opencv_file_peer: no OpenCV peer for {name}")


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    source, target, name = sys.argv[1:4]
    params = dict(a.split("=", 1) for a in sys.argv[4:])
    start = time.perf_counter()
    image = cv2.imread(source, cv2.IMREAD_UNCHANGED)
    if image is None:
        raise SystemExit(f"opencv_file_peer: cannot read {source}")
    read = time.perf_counter()
    out = filtered(image, name, params)
    done = time.perf_counter()
    if not cv2.imwrite(target, out):
        raise SystemExit(f"opencv_file_peer: cannot write {target}")
    end = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"opencv {cv2.__version__} ({cv2.getNumThreads()} threads) {name} {' '.join(sys.argv[4:])}: "
          f"{image.shape[1]}x{image.shape[0]} read {read - start:.3f} s, filter {done - read:.3f} s, "
          f"write {end - done:.3f} s, {end - start:.3f} s in all; peak RSS {rss:.1f} MiB")


if __name__ == "__main__":
    main()
