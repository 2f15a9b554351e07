// A CUDA schedule's launch (runtime/languages/halide_cuda_launch.h): the register
// cap a variant's point names is in force for its calls only, on its thread;
// on the GPU, a library loaded first under a cap of 32 runs its kernels with
// at most 32 registers, where Halide alone would give it 64 (the driver's
// count, cuFuncGetAttribute). Run with --gpu, the GPU case alone, which
// exits 77 without a GPU (CTest: skipped).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstring>
#include <iostream>
#include <thread>

#include "cuda_support.h"
#include "halide_cuda_launch.h"
#include "harness.h"
#include "image.h"
#include "registry.h"

using namespace filterlab;

namespace {

// A CUDA variant whose run only records the cap in force while it runs.
Variant recording(SchedulePoint point, int *seen) {
    Variant v;
    v.filter = "box";
    v.name = "recording";
    v.backend = Backend::cuda;
    v.kind = Kind::halide;
    v.point = std::move(point);
    v.run = [seen](const PlanarView &, const PlanarView &, const ParamValues &) {
        *seen = halide_cuda::current_max_registers();
    };
    return v;
}

}  // namespace

TEST_CASE("the cap of a variant's point is in force during its calls only, on its own thread") {
    CHECK(halide_cuda::Launch::from_point({{"tile_x", 32}, {"max_registers", 128}}).max_registers == 128);
    CHECK(halide_cuda::Launch::from_point({{"tile_x", 32}}).max_registers == 0);
    int seen = -1;
    const Variant capped = halide_cuda::with_launch(recording({{"max_registers", 96}}, &seen));
    capped.run({}, {}, {});
    CHECK(seen == 96);
    CHECK(halide_cuda::current_max_registers() == 0);
    int other = -1;
    std::thread beside([&] { other = halide_cuda::current_max_registers(); });
    beside.join();
    CHECK(other == 0);
    Variant cpu = recording({{"max_registers", 96}}, &seen);
    cpu.backend = Backend::cpu;
    halide_cuda::with_launch(cpu).run({}, {}, {});
    CHECK(seen == 0);  // a CPU variant has no launch
    halide_cuda::with_launch(recording({}, &seen)).run({}, {}, {});
    CHECK(seen == 0);  // no max_registers: Halide's own
}

TEST_CASE("GPU: a library loaded under a cap of 32 runs its kernels at 32 registers or fewer") {
    // The median's 7x7 at 4x1 tiles of 32-bit samples: ptxas gives its kernel
    // more than 64 registers unbounded, so Halide's 64 would show here.
    const Variant &base = find_variant("median", "cuda_sep_tile_4x1_u32");
    Variant at32 = base;
    at32.point.push_back({halide_cuda::kMaxRegistersAxis, 32});
    at32 = halide_cuda::with_launch(at32);
    Image input(64, 48, 1);
    for (int i = 0; i < 64 * 48; i++) input.data()[i] = static_cast<uint8_t>(i * 37);
    halide_cuda::reset_registers_launched();
    run_variant(at32, input, {{"size", 7}});
    const int registers = halide_cuda::registers_launched();
    INFO("registers of the kernels launched: ", registers);
    CHECK(registers > 0);
    CHECK(registers <= 32);
}

int main(int argc, char **argv) {
    doctest::Context context(argc, argv);
    bool gpu = false;
    for (int i = 1; i < argc; i++) gpu = gpu || std::strcmp(argv[i], "--gpu") == 0;
    if (gpu && !cuda::gpu_info().available) {
        std::cout << "SKIPPED: the GPU case: no GPU (" << cuda::gpu_info().why_not << ")\n";
        return 77;
    }
    context.setOption(gpu ? "test-case" : "test-case-exclude", "GPU:*");
    return context.run();
}
