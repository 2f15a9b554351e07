#include "halide_cuda_launch.h"

#include <HalideRuntime.h>
#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

namespace filterlab::halide_cuda {
namespace {

// The driver's functions as Halide looks them up (its names carry no _v2).
using ModuleLoadDataEx = CUresult (*)(CUmodule *, const void *, unsigned int, CUjit_option *, void **);
using LaunchKernel = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void **, void **);
using FuncSetAttribute = CUresult (*)(CUfunction, CUfunction_attribute, int);
using FuncGetAttribute = CUresult (*)(int *, CUfunction_attribute, CUfunction);

std::atomic<ModuleLoadDataEx> real_module_load{nullptr};
std::atomic<LaunchKernel> real_launch{nullptr};
std::atomic<FuncSetAttribute> real_set_attribute{nullptr};
std::atomic<FuncGetAttribute> real_get_attribute{nullptr};
halide_get_library_symbol_t previous_lookup = nullptr;

thread_local const Launch *current_launch = nullptr;
thread_local int registers_seen = 0;
thread_local bool counting_registers = false;  // from reset_registers_launched on: a test's, not every launch's

// Shared memory a kernel may have without opting in.
constexpr unsigned kDefaultSharedLimit = 48 * 1024;

CUresult module_load(CUmodule *module, const void *image, unsigned int count, CUjit_option *options, void **values) {
    const ModuleLoadDataEx real = real_module_load.load();
    if (!current_launch || current_launch->max_registers <= 0) return real(module, image, count, options, values);
    std::vector<CUjit_option> opts(options, options + count);
    std::vector<void *> vals(values, values + count);
    void *cap = reinterpret_cast<void *>(static_cast<std::uintptr_t>(current_launch->max_registers));
    auto at = std::find(opts.begin(), opts.end(), CU_JIT_MAX_REGISTERS);
    if (at == opts.end()) {
        opts.push_back(CU_JIT_MAX_REGISTERS);
        vals.push_back(cap);
    } else {
        vals[at - opts.begin()] = cap;
    }
    return real(module, image, static_cast<unsigned>(opts.size()), opts.data(), vals.data());
}

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                unsigned shared, CUstream stream, void **params, void **extra) {
    if (shared > kDefaultSharedLimit) {
        const CUresult opted = real_set_attribute.load()(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                         static_cast<int>(shared));
        if (opted != CUDA_SUCCESS) return opted;  // Halide reports it as the launch's failure
    }
    int registers = 0;
    if (counting_registers &&
        real_get_attribute.load()(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) {
        registers_seen = std::max(registers_seen, registers);
    }
    return real_launch.load()(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}

// Halide asks for each driver function by name once, when it loads libcuda.
void *lookup(void *lib, const char *name) {
    void *found = previous_lookup(lib, name);
    if (!found) return found;
    if (std::strcmp(name, "cuModuleLoadDataEx") == 0) {
        real_module_load.store(reinterpret_cast<ModuleLoadDataEx>(found));
        return reinterpret_cast<void *>(&module_load);
    }
    if (std::strcmp(name, "cuLaunchKernel") == 0) {
        auto set = reinterpret_cast<FuncSetAttribute>(previous_lookup(lib, "cuFuncSetAttribute"));
        auto get = reinterpret_cast<FuncGetAttribute>(previous_lookup(lib, "cuFuncGetAttribute"));
        if (!set || !get) return found;  // a driver without them: launches as Halide does
        real_set_attribute.store(set);
        real_get_attribute.store(get);
        real_launch.store(reinterpret_cast<LaunchKernel>(found));
        return reinterpret_cast<void *>(&launch);
    }
    return found;
}

}  // namespace

Launch Launch::from_point(const SchedulePoint &point) {
    Launch launch;
    for (const auto &[axis, value] : point) {
        if (axis == kMaxRegistersAxis) launch.max_registers = value;
    }
    return launch;
}

void install_hooks() {
    static std::once_flag once;
    std::call_once(once, [] {
        previous_lookup = halide_set_custom_get_library_symbol(lookup);
        if (!previous_lookup) previous_lookup = halide_default_get_library_symbol;
    });
}

ScopedLaunch::ScopedLaunch(const Launch &launch) : previous_(std::exchange(current_launch, &launch)) {}
ScopedLaunch::~ScopedLaunch() { current_launch = previous_; }

int current_max_registers() { return current_launch ? current_launch->max_registers : 0; }
int registers_launched() { return registers_seen; }
void reset_registers_launched() {
    registers_seen = 0;
    counting_registers = true;
}

Variant with_launch(Variant variant) {
    const Launch launch = Launch::from_point(variant.point);
    if (variant.backend != Backend::cuda || launch.max_registers <= 0) return variant;
    variant.run = [run = std::move(variant.run), launch](const PlanarView &in, const PlanarView &out,
                                                         const ParamValues &params) {
        const ScopedLaunch scope(launch);
        run(in, out, params);
    };
    return variant;
}

}  // namespace filterlab::halide_cuda
