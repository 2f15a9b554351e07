"""The box algorithms against FILTERS.md's mean (rounded half up)."""
import numpy as np

from generators.tvm import box
from generators.tvm.plane import contract_range
from tvm_run import clamp_pad, run

R_MAX = contract_range("kBoxMaxRadius")  # the contract's largest radius


def box_model(image, r):
    p, k = clamp_pad(image, r), 2 * r + 1
    c, h, w = image.shape
    total = sum(p[:, j:j + h, i:i + w] for j in range(k) for i in range(k))
    return ((total + k * k // 2) // (k * k)).astype(np.uint8)


CASES = [
    ("box.Direct r=2", lambda im: run(box.Direct(2), im, im.shape), lambda im: box_model(im, 2)),
    ("box.Separable r=3", lambda im: run(box.Separable(3), im, im.shape), lambda im: box_model(im, 3)),
] + [  # the radii the schedules compile, the smallest, strips and runs other than the default, the frozen runs of 16
    (f"box.RunningSums r={r} strip={s} run={g}", lambda im, r=r, s=s, g=g: run(box.RunningSums(r, s, g), im, im.shape),
     lambda im, r=r: box_model(im, r))
    for r, s, g in ((1, 16, 4), (7, 16, 4), (R_MAX, 16, 4), (2, 1, 1), (3, 8, 8), (7, 16, 16), (R_MAX, 16, 16))
] + [  # other points of the running sums' sweep (strip; run), on fewer shapes
    (f"box.RunningSums r={r} strip={s} run={g}", lambda im, r=r, s=s, g=g: run(box.RunningSums(r, s, g), im, im.shape),
     lambda im, r=r: box_model(im, r), [(1, 1, 1), (2, 31, 29)])
    for r, s, g in ((7, 32, 16), (R_MAX, 32, 8))
] + [  # staged through whole tiles (running_sums_staged), its store stage guarded at the image's edge
    (f"box.RunningSums r={r} run={g} staged", lambda im, r=r, g=g: run(box.RunningSums(r, run=g, staged=True), im, im.shape),
     lambda im, r=r: box_model(im, r))
    for r, g in ((7, 16), (R_MAX, 16), (2, 4))
]


def framed_case(r, rows, lanes, staged=False):
    """box_framed.SeparableFramed: the interior (whole tiles of rows x lanes inside a frame of r, staged:
    from column 4k >= r) and its frame, on the shared shapes (most without a whole tile) and on shapes with
    one tile, several, rows and columns beside the last, and a frame with no inside."""
    from generators.tvm import box_framed

    left = (r + 3) // 4 * 4 if staged else r
    shapes = [(1, 1, 1), (1, 2, 2), (1, 7, 13), (3, 17, 5), (2, 31, 29), (1, 2 * r + rows, 2 * left + lanes),
              (1, 2 * r + rows - 1, 40), (1, 40, 2 * left + lanes - 1), (2, 45, 70), (1, 2 * r, 100),
              (1, 100, 2 * left + 1)]
    return (f"box_framed.SeparableFramed r={r} rows={rows} lanes={lanes}" + " staged" * staged,
            lambda im: run(box_framed.SeparableFramed(r, rows=rows, lanes=lanes, staged=staged), im, im.shape),
            lambda im: box_model(im, r), shapes)


CASES += [framed_case(r, rows, lanes) for r, rows, lanes in ((1, 8, 4), (2, 4, 2), (3, 8, 4), (7, 2, 4))]
CASES += [framed_case(r, 8, 4, staged=True) for r in (1, 3, 5)]  # register_rows_interior_staged's, and past a word
