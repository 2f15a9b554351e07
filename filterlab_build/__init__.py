"""FilterLab's build machinery, apart from a user's tools (scripts/).

What the build runs and nothing else: the one manifest of both languages'
variants (manifest: the registrations' grammar and their readers,
schedule_grammar, halide_registrations, tvm_registry; the options' readers,
sweeps, shapes; each language's variants, halide_variants, tvm_variants;
every name, library_names; the registrations' values, registrations), the
generation of the TVM variants' CUDA C (tvm_generate, cuda_source), Halide's autoschedulers
(autoschedule), the kernels' resources (kernel_resources) and TVM's tuner
(tvm_metaschedule). Its modules import the TVM algorithms (generators.tvm)
and the TVM schedules (schedules.<filter>.tvm_<filter>) as packages of the
same import root, the source tree: CMake sets it once (FILTERLAB_PYTHON,
the root CMakeLists.txt), and from the source tree a module runs as

    .venv/bin/python -m filterlab_build.tvm_generate --schedule box/direct --out x.cu
"""
