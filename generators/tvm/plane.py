"""What every TVM algorithm of the suite shares.

An algorithm is a TVMScript function over one planar image, every channel
in one call, with these parameters in this order (filterlab_build/cuda_source.py's launcher
passes them by name):

    input, output                    uint8 buffers: (channels, height, width)
                                     with strides (in_plane, in_row, 1), the
                                     output's (out_plane, out_row, 1)
    channels, height, width          the input's extent
    in_plane, in_row, out_plane, out_row
    then the algorithm's scalars     (Algorithm.scalars: name and dtype)

A stage over the image and its border (height + 2r rows) is sized
bordered(height, r) below, not height + 2 * r: TVM's buffer compaction
bounds a staged tile by the largest value of each term, and int32's largest
height plus 2r overflows it.

The border is the contract's clamp (`../shared/FILTERS.md`), written as
clamp(...) below. An algorithm is a value of a Python class per filter's
algorithm (box.Separable(radius=3), ...): its stages are named blocks, which
its schedules fetch by name (`sch.get_sblock(alg.rows)`), and the settings
that shape it are its constructor's arguments.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

from tvm import tirx


@dataclass
class Algorithm:
    func: tirx.PrimFunc
    scalars: list = field(default_factory=list)  # [(name, "int32" | "float32")]
    # The contract's name of this algorithm (FilterInfo::algorithms), and the
    # runtime's function that fills the scalars (tvm_variant.h: tvm_scalars).
    contract = "direct"
    binding = "none"
    # The output's width and height are the input's divided by this (pooling: 2).
    output_scale = 1
    # Whether a shape it is compiled for also fixes the planes' strides (filterlab_build/tvm_generate.py).
    fixed_planes = False

    @classmethod
    def at_shape(cls, height, width, **args):
        """Its own form for one image shape, built from the same arguments, or
        None: a library compiled for the shape then specialises the algorithm
        it compiles for every shape (filterlab_build/tvm_generate.py)."""
        return None


# Larger than any image TVM's 32-bit indexing can address.
LARGEST_EXTENT = 1 << 30

CONTRACT_RANGES = Path(__file__).resolve().parent.parent.parent / "runtime" / "base" / "contract_ranges.h"


def contract_range(name):
    """The contract's range `name` (kBoxMaxRadius, kMedianSizes, ...) as its one
    owner, runtime/base/contract_ranges.h, states it: an int, or a tuple of
    ints for a list."""
    text = CONTRACT_RANGES.read_text()
    m = re.search(rf"^constexpr (?:int {name} = (\d+);|std::array {name}\{{([\d, ]+)\}};)", text, re.M)
    if not m:
        raise ValueError(f"plane.py: runtime/base/contract_ranges.h states no {name}")
    return int(m[1]) if m[1] else tuple(int(v) for v in m[2].split(","))


def bordered(extent, r):
    """extent + 2r, for the extent of a stage over the image and its border."""
    return tirx.min(extent, LARGEST_EXTENT) + 2 * r


def clamp(value, upper):
    """clamp(value, 0, upper - 1): the contract's border, inside TVMScript."""
    return tirx.max(tirx.min(value, upper - 1), 0)


def whole(extent, size):
    """The image side rounded up to whole multiples of size, and at least
    size: TVM then knows a tile of up to size fits (a shared tile's size is
    otherwise min(tile, image): not a constant, which CUDA codegen refuses)."""
    return (tirx.max(tirx.min(extent, LARGEST_EXTENT), 1) + size - 1) // size * size
