"""The cut of an image into an interior of whole thread tiles and its frame,
shared by the framed algorithms (gaussian_framed, gaussian_maxpool_framed,
box_framed): TVMScript expressions over the symbolic sizes, which each
algorithm's function writes into its `tile` and `frame` stages.

`border` is the frame's side at the top and left: the window's reach past an
output (the 5x5 Gaussian's 2, a box's radius, a pooled output's 1). The
tiles lie from row and column `border`, as many whole tiles of `unit` as fit
in extent - 2 border; the frame is the rest, at least `border` wide at the
bottom and right (more where the tiles do not fill the inside), listed as
one run of pixels: first the rows above and below the tiles whole, then the
columns left and right of them in each of the tiles' rows.
"""
from tvm.script import tirx as T


def tiles(extent, unit, border):
    """The whole tiles of `unit` inside extent - 2 border, negative where extent < 2 border."""
    return T.floordiv(extent - 2 * border, unit)


def whole(extent, unit, border):
    """The tiles' side: the largest multiple of `unit` at most extent - 2 border, 0 where there is none."""
    return T.max(tiles(extent, unit, border), 0) * unit


def frame_size(height, width, rows, lanes, border, column_border=None):
    """The frame's pixels: the rows that are not the tiles' whole, then the rest of the tiles' rows;
    `column_border` the frame's side at the left where it is not `border`."""
    left = border if column_border is None else column_border
    return (height - whole(height, rows, border)) * width + whole(height, rows, border) * (
        width - whole(width, lanes, left))


def band(k, inner, border):
    """The frame's k-th row (or column) across the tiles: the first `border` before the tiles, the
    rest after their `inner` rows (columns)."""
    return k + T.Select(k < border, 0, inner)


def frame_row(n, m, width, inner, side, border):
    """The frame's pixel n's row; m = n less the whole rows' pixels (< 0: one of them), inner the
    tiles' rows, side the frame's columns in each of them."""
    return T.Select(m < 0, band(n // width, inner, border), border + m // side)


def frame_column(n, m, width, side, border):
    """The frame's pixel n's column (frame_row's arguments): a whole row's, or `border` left of the
    tiles and the rest right of them."""
    return T.Select(m < 0, n % width, band(m % side, width - side, border))
