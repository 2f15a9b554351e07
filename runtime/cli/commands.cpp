#include "commands.h"

#include <chrono>
#include <climits>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <iostream>
#include <nlohmann/json.hpp>

#include "check.h"
#include "cuda_support.h"
#include "error.h"
#include "harness.h"
#include "image_io.h"
#include "machine.h"
#include "noise.h"
#include "numbers.h"
#include "plugins.h"
#include "registry.h"

namespace filterlab::cli {

std::string default_images_dir() {
    if (const char *env = std::getenv("FILTERLAB_IMAGES")) return env;
    for (const char *dir : {FILTERLAB_SOURCE_DIR "/tests/images", "tests/images"}) {
        if (std::filesystem::is_directory(dir)) return dir;
    }
    return "";
}

int list_variants(const ListOptions &options) {
    if (!options.filter.empty()) filter_info(options.filter);
    nlohmann::json array = nlohmann::json::array();
    for (const Variant &v : all_variants()) {
        if (!options.filter.empty() && v.filter != options.filter) continue;
        if (options.json) {
            array.push_back({{"filter", v.filter},
                             {"variant", v.name},
                             {"backend", to_string(v.backend)},
                             {"kind", to_string(v.kind)},
                             {"params", v.params_json()}});
        } else {
            fmt::print("{} {} {} {}\n", v.filter, v.name, to_string(v.backend), to_string(v.kind));
        }
    }
    if (options.json) std::cout << array.dump(2) << "\n";
    return 0;
}

namespace {

// "salt_pepper:0.1" or "gaussian:20" applied to `image`.
void add_noise(Image &image, const std::string &spec, uint64_t seed) {
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    const std::optional<double> amount =
        colon == std::string::npos ? std::nullopt : parse_decimal(std::string_view(spec).substr(colon + 1));
    if (!amount) throw Error("--noise: '" + spec + "' is not salt_pepper:DENSITY or gaussian:SIGMA");
    if (kind == "salt_pepper") add_salt_and_pepper(image, *amount, seed);
    else if (kind == "gaussian") add_gaussian_noise(image, *amount, seed);
    else throw Error("--noise: unknown noise '" + kind + "' (salt_pepper or gaussian)");
}

}  // namespace

int run_variant_on_file(const RunOptions &options) {
    // Everything that can be checked before work is done, is.
    const FilterInfo &filter = filter_info(options.filter);
    const Variant &variant = find_variant(options.filter, options.variant);
    const ParamValues params = filter.parse_params(options.params);
    if (std::string why = variant.unsupported_reason(params); !why.empty()) throw Error(why);
    if (!is_writable_image_path(options.output)) check_writable(options.output, 1);
    if (!options.noisy_output.empty() && options.noise.empty()) throw Error("--noisy-output needs --noise");
    if (!options.noisy_output.empty() && std::filesystem::weakly_canonical(options.noisy_output) ==
                                             std::filesystem::weakly_canonical(options.output)) {
        throw Error(options.output + ": named by both --output and --noisy-output");
    }
    if (!options.noisy_output.empty() && !is_writable_image_path(options.noisy_output)) {
        check_writable(options.noisy_output, 1);
    }
    const auto seed = parse_integer<uint64_t>(options.seed);
    if (!seed) throw Error("--seed: '" + options.seed + "' is not an integer in 0.." + std::to_string(UINT64_MAX));
    if (variant.backend == Backend::cuda) cuda::require_gpu();

    std::vector<std::string> notices;
    const Image clean = read_image(options.input, &notices);
    for (auto &n : notices) fmt::print(stderr, "filterlab: notice: {}\n", n);
    notices.clear();
    // Both outputs are checked before the filter runs (it may take long).
    check_writable(options.output, clean.channels());
    if (!options.noisy_output.empty()) check_writable(options.noisy_output, clean.channels());
    Image input = clean;
    if (!options.noise.empty()) add_noise(input, options.noise, *seed);

    const auto start = std::chrono::steady_clock::now();
    const Image output = run_variant(variant, input, params);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // All or nothing: both written to temporaries, then both renamed.
    ImageOutputs outputs;
    outputs.add(options.output, output, &notices);
    if (!options.noisy_output.empty()) outputs.add(options.noisy_output, input, &notices);
    outputs.commit();
    for (auto &n : notices) fmt::print(stderr, "filterlab: notice: {}\n", n);
    if (!options.noise.empty()) {
        const auto clean_size = filter.output_size(clean.width(), clean.height());
        if (clean_size.first == clean.width() && clean_size.second == clean.height()) {
            fmt::print("PSNR against the clean image ({} noise, seed {}): noisy input {:.2f} dB, filtered {:.2f} dB\n",
                       options.noise, *seed, psnr(clean, input), psnr(clean, output));
        } else {
            fmt::print("PSNR not reported: {} changes the image size\n", filter.name);
        }
    }
    fmt::print("{}/{} ({}, {}) {}: {}x{}x{} -> {} {}x{}x{} in {:.2f} ms (transfers included)\n", filter.name,
               variant.name, to_string(variant.backend), to_string(variant.kind), format_params(params),
               input.width(), input.height(), input.channels(), options.output, output.width(), output.height(),
               output.channels(), ms);
    return 0;
}

int check_variants(const CheckOptionsCli &options) {
    CheckOptions check;
    check.filter = options.filter;
    check.variant = options.variant;
    check.quick = options.quick;
    check.sanitizer = options.sanitizer;
    check.images_dir = options.images.empty() ? default_images_dir() : options.images;
    if (!options.filter.empty()) filter_info(options.filter);
    if (!options.variant.empty()) {
        if (options.filter.empty()) throw Error("--variant needs --filter");
        find_variant(options.filter, options.variant);
    }
    if (!check.images_dir.empty() && !std::filesystem::is_directory(check.images_dir)) {
        throw Error(check.images_dir + ": no such folder of images");
    }
    const auto &gpu = cuda::gpu_info();
    fmt::print("GPU: {}\n", gpu.available ? fmt::format("{} ({} SMs)", gpu.name, gpu.sm_count)
                                          : "none (" + gpu.why_not + "): CUDA variants are skipped");
    fmt::print("real images: {}\n", check.images_dir.empty() ? "none found" : check.images_dir);
    const auto results = run_check(check, std::cout);
    if (results.empty()) throw Error("no variant matches");
    std::cout << "\n";
    print_check_table(results, std::cout);
    int failed = 0, passed = 0, skipped = 0, differs = 0;
    for (auto &r : results) failed += r.failed, passed += r.passed, skipped += r.skipped, differs += r.differs;
    fmt::print("\n{} passed, {} failed, {} skipped (variant x case)", passed, failed, skipped);
    fmt::print("{}\n", differs ? fmt::format("; {} where a peer computes another function", differs) : "");
    return failed ? 1 : 0;
}

int show_info() {
    const auto facts = machine_facts();
    fmt::print("CPU:            {}\n", cpu_model());
    fmt::print("CPU features:   {}\n", cpu_features());
    fmt::print("threads:        {} hardware, {} for Halide (HL_NUM_THREADS)\n",
               facts["cpu"]["hardware_threads"].get<int>(), facts["cpu"]["halide_threads"].get<int>());
    fmt::print("Halide targets: {}\n", halide_targets());
    fmt::print("build commit:   {}\n", build_commit());
    for (const PluginStatus &p : load_plugins()) fmt::print("plugin:         {}: {}\n", p.name, p.detail);
    if (load_plugins().empty()) fmt::print("plugins:        none built (OpenCV peers need libopencv-dev at build time)\n");
    const auto &gpu = cuda::gpu_info();
    if (!gpu.available) {
        fmt::print("GPU:            none ({})\n", gpu.why_not);
        return 0;
    }
    fmt::print("GPU:            {} (compute {}.{}, {} SMs, {:.1f} GiB, L2 {:.0f} MiB)\n", gpu.name, gpu.compute_major,
               gpu.compute_minor, gpu.sm_count, gpu.memory_bytes / 1073741824.0, gpu.l2_bytes / 1048576.0);
    fmt::print("GPU clocks:     SM {} MHz, memory {} MHz (maximum)\n", gpu.sm_clock_mhz, gpu.memory_clock_mhz);
    fmt::print("CUDA:           driver {}.{}, runtime {}.{}\n", gpu.driver_version / 1000,
               gpu.driver_version % 1000 / 10, gpu.runtime_version / 1000, gpu.runtime_version % 1000 / 10);
    return 0;
}

}  // namespace filterlab::cli
