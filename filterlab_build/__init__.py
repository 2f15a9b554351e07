"""FilterLab's build machinery, apart from a user's tools (scripts/).

What the build runs and nothing else: the schedule registrations' grammar
and their one reader (schedule_grammar, schedule_manifest), the TVM
registry the TVM schedules register in and the generation of their CUDA C
(tvm_registry, tvm_generate, cuda_source), Halide's autoschedulers
(autoschedule), the kernels' resources (kernel_resources) and TVM's tuner
(tvm_metaschedule). Its modules import the TVM algorithms (generators.tvm)
and the TVM schedules (schedules.<filter>.tvm_<filter>) as packages of the
same import root, the source tree: CMake sets it once (FILTERLAB_PYTHON,
cmake/FilterLab.cmake), and from the source tree a module runs as

    .venv/bin/python -m filterlab_build.tvm_generate --schedule box/direct --out x.cu
"""
