"""FILTERLAB_SHAPES' one reader: the image shapes every DSL CUDA library is also compiled for.

"3840x2160,aligned": each WIDTHxHEIGHT (each extent 1..65536), or "aligned", the class of every image whose
width and row pitch are multiples of 64 (runtime/base/image_shape.h: kAlignedClass); commas or semicolons
between them. The manifest (filterlab_build.manifest) reads the option once and writes the shapes down; a Halide
CUDA library gets a twin per shape (generator parameter shape=), a TVM library a function per shape inside it
(tvm_generate --shapes).
"""
import re

from .schedule_grammar import fail

ALIGNED = "aligned"
MAX_EXTENT = 65536


def read_shapes(text):
    """The shapes of FILTERLAB_SHAPES, each once, in their order ("1920x1080", "aligned")."""
    shapes = []
    for item in filter(None, re.split(r"[,;]", text)):
        m = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", item)
        if item != ALIGNED and not (m and int(m[1]) <= MAX_EXTENT and int(m[2]) <= MAX_EXTENT):
            fail("FILTERLAB_SHAPES", f"'{item}' is not WIDTHxHEIGHT (each 1..{MAX_EXTENT}), as in 3840x2160, "
                                     f"nor {ALIGNED}")
        if item not in shapes:
            shapes.append(item)
    return shapes


def extents(shape):
    """(height, width) of a shape WIDTHxHEIGHT."""
    width, _, height = shape.partition("x")
    return int(height), int(width)


def shape_cxx(shape):
    """A shape as an ImageShape's C++ initializer: {1920, 1080}, or the aligned class's constant."""
    if shape == ALIGNED:
        return "filterlab::kAlignedClass"
    height, width = extents(shape)
    return f"{{{width}, {height}}}"
