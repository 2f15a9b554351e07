// Every registered variant of one backend against the reference over the
// full check matrix (the same as `filterlab check`). Run with
// --backend=cpu, --backend=cuda or --backend=opencl; without a GPU the CUDA
// run exits 77, and without an OpenCL device the OpenCL run, which CTest
// reports as skipped (CI has PoCL's CPU device: OpenCL runs there). --sanitizer-matrix takes check's smaller
// matrix for sanitizer builds (every parameter value, odd sizes); --quick-matrix, `check --quick`'s;
// --filter=NAME, one filter's variants. The CUDA and OpenCL runs check the
// backend's device image first, whose layout the harness's guards rely on.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstring>
#include <iostream>
#include <string>

#include "check.h"
#include "plugins.h"
#include "cuda_support.h"
#include "device_image_checks.h"
#include "opencl_support.h"
#include "registry.h"
#include "test_paths.h"

using namespace filterlab;

namespace {
Backend selected = Backend::cpu;
bool sanitizer_matrix = false;
bool quick_matrix = false;
std::string only_filter;  // --filter=NAME: this filter's variants alone
}

TEST_CASE("device image of the backend: guards, pitched rows and planes") {
    if (selected == Backend::cuda) device_image_checks::check_layouts<cuda::DeviceImage>();
    if (selected == Backend::opencl) device_image_checks::check_layouts<opencl::DeviceImage>();
}

TEST_CASE("every variant of the backend matches the reference on the whole matrix") {
    int checked = 0;
    for (const FilterInfo &filter : all_filters()) {
        if (!only_filter.empty() && filter.name != only_filter) continue;
        for (const Variant &v : all_variants()) {
            if (v.filter != filter.name || v.backend != selected || v.kind == Kind::reference) continue;
            CheckOptions options;
            options.filter = v.filter;
            options.variant = v.name;
            options.images_dir = test_images_dir();
            options.sanitizer = sanitizer_matrix;
            options.quick = quick_matrix;
            const auto results = run_check(options, std::cout);
            REQUIRE(results.size() == 1);
            const VariantResult &r = results[0];
            INFO(v.filter, "/", v.name, " first failures: ", r.failures.empty() ? "" : r.failures[0]);
            CHECK(r.failed == 0);
            CHECK(r.passed > 0);
            checked++;
        }
    }
    CHECK(checked > 0);
}

int main(int argc, char **argv) {
    doctest::Context context;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--backend=cuda") == 0) selected = Backend::cuda;
        if (std::strcmp(argv[i], "--backend=opencl") == 0) selected = Backend::opencl;
        if (std::strcmp(argv[i], "--sanitizer-matrix") == 0) sanitizer_matrix = true;
        if (std::strcmp(argv[i], "--quick-matrix") == 0) quick_matrix = true;
        if (std::strncmp(argv[i], "--filter=", 9) == 0) only_filter = argv[i] + 9;
    }
    if (selected == Backend::cuda && !cuda::gpu_info().available) {
        std::cout << "SKIPPED: CUDA variants not run: no GPU (" << cuda::gpu_info().why_not << ")\n";
        return 77;
    }
    if (selected == Backend::opencl && !opencl::device_info().available) {
        std::cout << "SKIPPED: OpenCL variants not run: no OpenCL device (" << opencl::device_info().why_not << ")\n";
        return 77;
    }
    if (selected == Backend::opencl) {
        std::cout << "OpenCL device: " << opencl::device_info().name << " (" << opencl::device_info().platform << ")\n";
    }
    load_plugins();  // the peers, as the CLI loads them
    context.applyCommandLine(argc, argv);
    if (selected == Backend::cpu) context.addFilter("test-case-exclude", "device image*");  // host memory: test_core's
    return context.run();
}
