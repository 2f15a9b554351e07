"""TVM schedules: each one registration, the twin of FILTERLAB_SCHEDULE for
Halide (schedule_registry.h). A schedule is written for one algorithm of
generators/tvm/<filter>.py and receives it built,

    @tvm_schedule("box", box.Separable, compiled={"radius": range(1, 16)},
                  why="...", frontier="...")
    def rows_shared(sch, alg):          # an s_tir.Schedule, a box.Separable
        rows = sch.get_sblock(alg.rows)
        ...

and is built as the CUDA variant tvm_<name> (scripts/tvm_generate.py): one
library per combination of its compiled values (each constructs the
algorithm: Separable(radius=3)), which the runtime picks by the call's
parameters. `supports` narrows a run-time parameter further (the contract's
syntax, "sigma=0.5..3"); `specialised` adds, to each library, the same
schedule compiled for fixed image shapes ((8192, 8192)), which its launcher
takes when a call has that shape (TVM's native mode: with every extent known
it drops guards and vectorises; scripts/tvm_generate.py); `shaped`, an
algorithm built for one shape (called with height, width and the library's
compiled values),
replaces the algorithm in those compilations (an interior without clamps
beside its border: the schedule body tells which it is given); `frontier` (why it is built by default) puts it in the
default build, as FRONTIER does a Halide schedule's; the others are built
with -DFILTERLAB_ALL_SCHEDULES=ON.
"""
import itertools
from dataclasses import dataclass, field


@dataclass
class TvmSchedule:
    filter: str
    name: str
    algorithm: type
    body: object
    why: str
    compiled: dict = field(default_factory=dict)
    supports: str = ""
    frontier: str = ""
    source: tuple = ("", 0, 0)  # file, first line, last line of the body
    specialised: tuple = ()  # image shapes (height, width) also compiled with every extent known
    shaped: object = None  # a callable (height, width, **compiled values) -> the algorithm of the specialised shapes

    def libraries(self):
        """[(library name, {parameter: value})], one per combination of compiled values."""
        names = list(self.compiled)
        out = []
        for values in itertools.product(*(self.compiled[n] for n in names)):
            fixed = dict(zip(names, values))
            suffix = "".join(f"_{n}{v}" for n, v in fixed.items())
            out.append((f"tvm_{self.filter}_{self.name}{suffix}", fixed))
        return out

    def supports_text(self):
        parts = [f"{n}={','.join(str(v) for v in vs)}" for n, vs in self.compiled.items()]
        return ";".join(parts + ([self.supports] if self.supports else []))


REGISTRY = []


def tvm_schedule(filter, algorithm, *, why, compiled=None, supports="", frontier="", name=None, specialised=(),
                 shaped=None):
    def register(body):
        import inspect
        lines, first = inspect.getsourcelines(body)
        REGISTRY.append(TvmSchedule(filter, name or body.__name__, algorithm, body, why, dict(compiled or {}),
                                    supports, frontier, (inspect.getsourcefile(body), first, first + len(lines) - 1),
                                    tuple(specialised), shaped))
        return body
    return register
