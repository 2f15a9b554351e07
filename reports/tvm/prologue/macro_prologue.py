"""Can the calling convention's prologue (generators/tvm/plane.py: the two match_buffers every
algorithm writes) live in one TVMScript macro? Two forms, each parsed by TVM 0.27:
  1. a non-hygienic macro that declares the buffers, the function then using them by name;
  2. a macro that returns them.
Run: PYTHONPATH=. .venv/bin/python reports/tvm/prologue/macro_prologue.py"""
from tvm.script import tirx as T


@T.macro(hygienic=False)
def declares(input_h, output_h):
    input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
    output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))


@T.macro(hygienic=False)
def returns(input_h, output_h):
    input = T.match_buffer(input_h, (channels, height, width), "uint8", strides=(in_plane, in_row, 1))
    output = T.match_buffer(output_h, (channels, height, width), "uint8", strides=(out_plane, out_row, 1))
    return input, output


def declared():
    @T.prim_func(s_tir=True)
    def copy(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
             in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
        declares(input_h, output_h)
        for c, y, x in T.grid(channels, height, width):
            with T.sblock("output"):
                vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                output[vc, vy, vx] = input[vc, vy, vx]
    return copy


def returned():
    @T.prim_func(s_tir=True)
    def copy(input_h: T.handle, output_h: T.handle, channels: T.int32, height: T.int32, width: T.int32,
             in_plane: T.int32, in_row: T.int32, out_plane: T.int32, out_row: T.int32):
        input, output = returns(input_h, output_h)
        for c, y, x in T.grid(channels, height, width):
            with T.sblock("output"):
                vc, vy, vx = T.axis.remap("SSS", [c, y, x])
                output[vc, vy, vx] = input[vc, vy, vx]
    return copy


for form in (declared, returned):
    try:
        form()
        print(f"{form.__name__}: parsed")
    except Exception as e:  # TVM's DiagnosticError: its message's first line is the error
        print(f"{form.__name__}: {str(e).strip().splitlines()[0]}")
