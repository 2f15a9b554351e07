"""The schedule registrations' grammar: tokens, macro calls, SUPPORTS, AXES, points.

Read by halide_registrations (beside it), the one reader of the Halide
registrations (its docstring states the grammar), and by the TVM registry
and the manifest; this module only splits a schedule
source into tokens and reads one call's arguments, a SUPPORTS("...") spec, an
AXES("...") space and a point. An ill-formed one raises GrammarError
("<file>:<line>: <what>").

A point (a value for each axis of a schedule's space) is spelled one way
wherever a person reads or types it: "tile_x=64+tile_y=4" (each axis
name=value, a name [a-z][a-z0-9_]*, an integer without leading zeros; joined
by '+'; "" for no axes). read_point is its one Python reader,
runtime/base/schedule_point.h (filterlab::schedules::Point) its one C++ reader:
both say the same of the cases in tests/schedule_grammar/points.json.
point_forms derives the forms the build needs from it mechanically: the
generator parameter "tile_x:64+tile_y:4" (Halide's generator command line
takes no '=' in a value) and the library tag "tile_x64_tile_y4".
"""
import itertools
import re

MACROS = ("FILTERLAB_SCHEDULE", "FILTERLAB_FROZEN")
RETIRED = {"FILTERLAB_SCHEDULE_OF": "FILTERLAB_SCHEDULE(<filter>, <Algorithm>, cpu|gpu, <name>...)"}
KEYWORDS = ("SUPPORTS", "AXES", "READS", "WRITES", "CUDA_ONLY", "FRONTIER")
VIEWS = ("bytes", "words")  # how a pipeline reads its 8-bit image (READS) or writes its output (WRITES)
# The launch's axis, one for every language's CUDA schedules: each kernel's
# register cap. A point that sets it caps every kernel of the library: Halide's
# module is loaded with the cap (runtime/languages/halide_cuda_launch.h; not a
# generator parameter, the PTX is the same at every value), TVM's kernels carry
# TVM's own attribute tirx.max_registers, which its CUDA C writes as
# __maxnreg__(cap) in place of __launch_bounds__(threads)
# (cuda_source.with_register_cap). "own" is each language's own choice, what a
# library gets where its point leaves the axis out: Halide's runtime loads a
# module with 64 registers a thread, one of the caps; TVM writes
# __launch_bounds__(threads) and ptxas chooses, which no cap says: 0, "none
# written". The runtime reads both from here (launch_axis_header).
LAUNCH_AXIS = {"name": "max_registers", "caps": [64, 96, 128, 168, 255], "own": {"halide": 64, "tvm": 0}}
# Why a frozen point that sets it is CUDA only (not a refusal of Halide's: scripts/opencl_refusals.sh skips it).
LAUNCH_ONLY = f"its point sets the CUDA register cap ({LAUNCH_AXIS['name']}), which OpenCL has not"
# Why OpenCL cannot have a gpu schedule, for the reasons several schedules share:
# CUDA_ONLY("<name>") names one of these (CUDA_ONLY("<why>") states another once).
OPENCL_REFUSALS = {
    "predicated_vectors": "predicated vectors: OpenCL C in Halide 21 has no extract_mask_element",
    "warp_shuffles": "warp shuffles: OpenCL in Halide 21 does not support gpu_lanes()",
    "pocl_unwritten": "its OpenCL code leaves outputs unwritten on PoCL (the schedule refuses OpenCL)",
}
NAME = re.compile(r"[a-z][a-z0-9_]*")
ALGORITHM = re.compile(r"[A-Z][A-Za-z0-9]*")  # a type of generators/<filter>.h
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<number>[0-9][0-9A-Za-z_.']*)
  | (?P<char>'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<space>\s+)
  | (?P<punct>.)""", re.VERBOSE | re.DOTALL)


class GrammarError(Exception):
    pass


def fail(where, message):
    raise GrammarError(f"{where}: {message}")


def tokens_of(text):
    """(kind, text, line) of every token but comments and white space."""
    line = 1
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind not in ("comment", "space"):
            yield kind, m.group(), line
        line += m.group().count("\n")


class Call:
    """One macro call: its arguments, each an identifier, a string, or KEYWORD("string")."""

    def __init__(self, macro, line, args, end):
        self.macro, self.line, self.args, self.end = macro, line, args, end


def read_argument(tokens, where):
    kinds = [t[0] for t in tokens]
    if kinds == ["ident"]:
        return ("ident", tokens[0][1])
    if kinds and all(k == "string" for k in kinds):  # adjacent literals are one string, as in C++
        return ("string", "".join(t[1][1:-1] for t in tokens))
    if len(kinds) >= 4 and kinds[:2] == ["ident", "punct"] and tokens[1][1] == "(" and tokens[-1][1] == ")" \
            and all(k == "string" for k in kinds[2:-1]):
        return ("keyword", tokens[0][1], "".join(t[1][1:-1] for t in tokens[2:-1]))
    fail(where, "cannot read argument '" + " ".join(t[1] for t in tokens) + "'")


def read_call(tokens, at, path):
    """The call whose macro name is tokens[at]; its end is the index after ')'."""
    macro, line = tokens[at][1], tokens[at][2]
    where = f"{path}:{line}"
    if at + 1 >= len(tokens) or tokens[at + 1][1] != "(":
        fail(where, f"{macro} without its arguments")
    args, current, depth, i = [], [], 0, at + 2
    while i < len(tokens):
        kind, text, _ = tokens[i]
        if kind == "punct" and text == "(":
            depth += 1
        elif kind == "punct" and text == ")":
            if depth == 0:
                args.append(read_argument(current, where) if current else fail(where, "an empty argument"))
                return Call(macro, line, args, i + 1)
            depth -= 1
        if kind == "punct" and text == "," and depth == 0:
            args.append(read_argument(current, where) if current else fail(where, "an empty argument"))
            current = []
        else:
            current.append(tokens[i])
        i += 1
    fail(where, f"{macro}(...: no closing ')'")


def body_end(tokens, at, where):
    """The line of the '}' that closes the body opening at tokens[at]."""
    if at >= len(tokens) or tokens[at][1] != "{":
        fail(where, "the registration must be followed by the schedule's body, { ... }")
    depth = 0
    for kind, text, line in tokens[at:]:
        if kind == "punct" and text == "{":
            depth += 1
        elif kind == "punct" and text == "}":
            depth -= 1
            if depth == 0:
                return line
    fail(where, "the schedule's body has no closing '}'")


def identifier(arg, what, where, pattern=NAME):
    if arg[0] != "ident" or not pattern.fullmatch(arg[1]):
        fail(where, f"the {what} must be a name ([a-z][a-z0-9_]*), not {arg[-1]!r}")
    return arg[1]


def algorithm_type(arg, where):
    """The algorithm a registration names: a C++ type of its filter's namespace, CamelCase."""
    if arg[0] != "ident" or not ALGORITHM.fullmatch(arg[1]):
        fail(where, f"the algorithm must be a type name ([A-Z][A-Za-z0-9]*, as RunningSums), not {arg[-1]!r}")
    return arg[1]


def algorithm_key(type_name):
    """The name the runtime knows an algorithm by (FilterInfo::algorithms, results.csv, reports): its type's
    name in snake_case ("RunningSums" -> "running_sums", "ColumnsFirstU16" -> "columns_first_u16")."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", type_name).lower()


def read_supports(spec, where):
    """'radius=1..7;size=3,5' as [{"param", "min", "max"} or {"param", "values"}]."""
    supports = []
    for item in spec.split(";"):
        m = re.fullmatch(rf"([a-z][a-z0-9_]*)=(?:({NUMBER})\.\.({NUMBER})|({NUMBER}(?:,{NUMBER})*))", item.strip())
        if not m:
            fail(where, f"SUPPORTS(\"{spec}\"): '{item}' is neither name=min..max nor name=v,v,...")
        number = lambda s: int(s) if re.fullmatch(r"-?[0-9]+", s) else float(s)
        if any(s["param"] == m[1] for s in supports):
            fail(where, f"SUPPORTS(\"{spec}\"): {m[1]} given twice")
        if m[4]:
            supports.append({"param": m[1], "values": [number(v) for v in m[4].split(",")]})
        else:
            supports.append({"param": m[1], "min": number(m[2]), "max": number(m[3])})
    return supports


def read_axes(spec, where):
    """'tile_x=16,[32],64 tile_y=2,[8]' as [{"name", "values", "default"}]."""
    axes = []
    for item in spec.split():
        m = re.fullmatch(r"([a-z][a-z0-9_]*)=(\[?-?[0-9]+\]?(?:,\[?-?[0-9]+\]?)*)", item)
        if not m:
            fail(where, f"AXES(\"{spec}\"): cannot read axis '{item}' (name=v,[default],v)")
        values = m[2].split(",")
        defaults = [v for v in values if v.startswith("[") and v.endswith("]")]
        if len(defaults) != 1 or any(("[" in v) != (v in defaults) or ("]" in v) != (v in defaults) for v in values):
            fail(where, f"AXES(\"{spec}\"): axis {m[1]} must mark exactly one default value, as [value]")
        numbers = [int(v.strip("[]")) for v in values]
        if len(set(numbers)) != len(numbers) or any(a["name"] == m[1] for a in axes):
            fail(where, f"AXES(\"{spec}\"): axis {m[1]} declared twice, or a value of it twice")
        axes.append({"name": m[1], "values": numbers, "default": int(defaults[0].strip("[]"))})
    if not axes:
        fail(where, "AXES(\"\"): no axis (leave AXES out for a schedule of one point)")
    return axes


POINT_ITEM = "(axis: [a-z][a-z0-9_]*; value: an integer, no leading zeros)"


def read_point(text, where):
    """The spelling "a=1+b=2" ("" no axes) as [{"axis", "value"}], in its order; the one Python reader
    (runtime/base/schedule_point.h's Point says the same, in the same words)."""
    def bad(what):
        fail(where, f"point '{text}': {what}")
    if text == "":
        return []
    if "," in text:
        bad(f"axes are joined by '+', not ',' ({text.replace(',', '+')})")
    values = []
    for item in text.split("+"):
        if item == "":
            bad("an empty axis (axis=value items joined by one '+')")
        axis, equals, value = item.partition("=")
        if not equals or not NAME.fullmatch(axis) or not re.fullmatch(r"-?[0-9]+", value):
            bad(f"'{item}' is not axis=value {POINT_ITEM}")
        if not -2**31 <= int(value) < 2**31:
            bad(f"the value of {axis} is out of range")
        if str(int(value)) != value:  # one spelling per value
            bad(f"'{item}' is not axis=value {POINT_ITEM}")
        if any(v["axis"] == axis for v in values):
            bad(f"axis {axis} given twice")
        values.append({"axis": axis, "value": int(value)})
    return values


def point_forms(values):
    """A point ([{"axis", "value"}]) with the forms derived from it: its spelling "a=1+b=2", the generator
    parameter "a:1+b:2" (a generator's command line takes no '=' in a value) and its library tag "a1_b2"."""
    text = "+".join(f"{v['axis']}={v['value']}" for v in values)
    return {"values": values, "text": text, "parameter": text.replace("=", ":"),
            "tag": "_".join(f"{v['axis']}{v['value']}".replace("-", "m") for v in values)}


def launch_axis(language):
    """The launch's axis of `language` ("halide", "tvm") as read_axes gives an axis: its values, the
    language's own choice first and then the caps (a point may set each; a register-cap sweep runs each),
    and its default, the language's own choice."""
    own = LAUNCH_AXIS["own"][language]
    values = [own] + [cap for cap in LAUNCH_AXIS["caps"] if cap != own]
    return {"name": LAUNCH_AXIS["name"], "values": values, "default": own}


def default_point(axes):
    return point_forms([{"axis": a["name"], "value": a["default"]} for a in axes])


def every_point(axes):
    """Every point of the space; the first axis varies fastest (the build's order of variants)."""
    names = [a["name"] for a in axes]
    return [point_forms([{"axis": n, "value": v} for n, v in zip(names, reversed(values))])
            for values in itertools.product(*[a["values"] for a in reversed(axes)])]
