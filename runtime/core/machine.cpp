#include "machine.h"

#include <HalideRuntime.h>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "build_commit.h"
#include "cuda_support.h"
#include "opencl_support.h"
#include "plugins.h"

namespace filterlab {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown";
}

std::string cpu_features() {
    std::string s;
    auto add = [&](const char *name, bool present) {
        if (present) s += (s.empty() ? "" : " ") + std::string(name);
    };
    __builtin_cpu_init();
    add("sse4.1", __builtin_cpu_supports("sse4.1"));
    add("avx", __builtin_cpu_supports("avx"));
    add("avx2", __builtin_cpu_supports("avx2"));
    add("fma", __builtin_cpu_supports("fma"));
    add("avx512f", __builtin_cpu_supports("avx512f"));
    add("avx512bw", __builtin_cpu_supports("avx512bw"));
    add("avx512vl", __builtin_cpu_supports("avx512vl"));
    add("avx512dq", __builtin_cpu_supports("avx512dq"));
    return s;
}

std::string build_commit() { return FILTERLAB_GIT_COMMIT; }

std::string halide_targets() {
    return "cpu: " FILTERLAB_CPU_TARGETS "; cuda: " FILTERLAB_CUDA_TARGET "; opencl: " FILTERLAB_OPENCL_TARGET;
}

int halide_thread_count() {
    const char *env = std::getenv("HL_NUM_THREADS");
    if (env && std::atoi(env) > 0) return std::atoi(env);
    return static_cast<int>(std::thread::hardware_concurrency());
}

std::string halide_version() {
    return std::to_string(HALIDE_VERSION_MAJOR) + "." + std::to_string(HALIDE_VERSION_MINOR) + "." +
           std::to_string(HALIDE_VERSION_PATCH);
}

double last_level_cache_bytes() {
    double largest = 0;
    for (int index = 0; index < 8; index++) {
        std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
        std::string text;
        if (!(in >> text) || text.empty()) continue;
        double bytes = std::atof(text.c_str());
        if (text.back() == 'K') bytes *= 1024;
        else if (text.back() == 'M') bytes *= 1024 * 1024;
        largest = std::max(largest, bytes);
    }
    return largest;
}

nlohmann::json machine_facts() {
    const auto &gpu = cuda::gpu_info();
    nlohmann::json facts = {
        {"cpu", {{"model", cpu_model()},
                 {"features", cpu_features()},
                 {"hardware_threads", std::thread::hardware_concurrency()},
                 {"last_level_cache_bytes", last_level_cache_bytes()},
                 {"halide_threads", halide_thread_count()}}},
        {"build", {{"commit", build_commit()},
                   {"halide_version", halide_version()},
                   {"halide_targets", halide_targets()},
                   {"cuda_runtime_version", gpu.runtime_version}}},
    };
    for (const PluginStatus &p : load_plugins()) facts["plugins"][p.name] = p.detail;
    if (gpu.available) {
        facts["gpu"] = {{"name", gpu.name},
                        {"compute_capability", std::to_string(gpu.compute_major) + "." + std::to_string(gpu.compute_minor)},
                        {"sm_count", gpu.sm_count},
                        {"memory_bytes", gpu.memory_bytes},
                        {"l2_bytes", gpu.l2_bytes},
                        {"sm_clock_mhz", gpu.sm_clock_mhz},
                        {"memory_clock_mhz", gpu.memory_clock_mhz},
                        {"driver_version", gpu.driver_version},
                        {"runtime_version", gpu.runtime_version}};
    } else {
        facts["gpu"] = {{"absent", gpu.why_not}};
    }
    const auto &cl = opencl::device_info();
    if (cl.available) {
        facts["opencl"] = {{"platform", cl.platform},     {"device", cl.name},
                           {"version", cl.version},       {"driver", cl.driver},
                           {"is_gpu", cl.is_gpu},         {"compute_units", cl.compute_units},
                           {"memory_bytes", cl.memory_bytes}, {"cache_bytes", cl.cache_bytes}};
    } else {
        facts["opencl"] = {{"absent", cl.why_not}};
    }
    return facts;
}

}  // namespace filterlab
