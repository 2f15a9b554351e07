#include "commands.h"
#include "run_bands.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "check.h"
#include "check_reports.h"
#include "cuda_support.h"
#include "default_variant.h"
#include "distributed_run.h"
#include "file_bands.h"
#include "error.h"
#include "harness.h"
#include "image_io.h"
#include "machine.h"
#include "noise.h"
#include "opencl_support.h"
#include "numbers.h"
#include "plugins.h"
#include "registry.h"
#include "temp_files.h"
#include "world.h"

namespace filterlab::cli {

std::string version_text() {
    const auto &gpu = cuda::gpu_info();
    return fmt::format("filterlab {} (commit {})\nHalide {}; targets: {}\nCUDA runtime {}.{} (linked statically); GPU: {}",
                       FILTERLAB_VERSION, build_commit(), halide_version(), halide_targets(),
                       gpu.runtime_version / 1000, gpu.runtime_version % 1000 / 10,
                       gpu.available ? gpu.name : "none (" + gpu.why_not + ")");
}

std::string default_images_dir() {
    if (const char *env = std::getenv("FILTERLAB_IMAGES")) return env;
    for (const char *dir : {FILTERLAB_SOURCE_DIR "/tests/images", "tests/images"}) {
        if (std::filesystem::is_directory(dir)) return dir;
    }
    return "";
}

namespace {

constexpr int kListJsonFormat = 1;

// A Halide or TVM variant's libraries as installed (lib/filterlab/<archive>,
// include/<header>; cmake/Install.cmake) with their entry points (a Halide
// pipeline, a TVM launcher), as the build named them (Variant::libraries);
// every variant but a peer is also in libfilterlab.so.
nlohmann::json libraries_json(const Variant &v) {
    nlohmann::json libraries = nlohmann::json::array();
    for (const VariantLibrary &lib : v.libraries)
        libraries.push_back({{"library", lib.file}, {"header", lib.header}, {"entry_point", lib.entry_point}});
    return libraries;
}

// The point a variant was built at, each axis and its value; null for none.
nlohmann::json point_json(const SchedulePoint &point) {
    if (point.empty()) return nullptr;
    nlohmann::json values = nlohmann::json::object();
    for (const auto &[axis, value] : point) values[axis] = value;
    return values;
}

// A DSL variant's paths: "generic" (every shape), "aligned" (whether it has
// the aligned class's), each shape it was also compiled for
// (FILTERLAB_SHAPES), and those Halide refused with why ("aligned" for the
// class); null for a variant that is not a DSL's.
nlohmann::json paths_json(const Variant &v) {
    if (shape_path(v, {}).empty()) return nullptr;
    nlohmann::json exact = nlohmann::json::array(), refused = nlohmann::json::object();
    for (const ImageShape &shape : v.exact_shapes) exact.push_back(shape_text(shape));
    for (const auto &[shape, why] : v.refused_shapes) refused[shape_text(shape)] = why;
    return {{"generic", true}, {"aligned", v.aligned_path}, {"exact_shapes", exact}, {"refused_shapes", refused}};
}

nlohmann::json variant_json(const Variant &v) {
    const std::string why = v.why_unavailable();
    return {{"filter", v.filter},
            {"variant", v.name},
            {"backend", to_string(v.backend)},
            {"kind", to_string(v.kind)},
            {"origin", to_string(v.origin)},
            {"algorithm", v.algorithm},
            {"point", point_json(v.point)},
            {"paths", paths_json(v)},
            {"computes_contract", v.computes_contract},
            {"tolerance", filter_info(v.filter).tolerance()},
            {"available", why.empty()},
            {"why_unavailable", why.empty() ? nlohmann::json() : nlohmann::json(why)},
            {"params", v.params_json()},
            {"source", v.source.file.empty() ? nlohmann::json()
                                             : nlohmann::json{{"file", v.source.file},
                                                              {"first_line", v.source.first_line},
                                                              {"last_line", v.source.last_line}}},
            {"libraries", libraries_json(v)},
            {"api", v.kind == Kind::peer ? nlohmann::json()
                                         : nlohmann::json(fmt::format("filterlab::run(\"{}\", in, out, params, {{\"{}\"}})",
                                                                      v.filter, v.name))}};
}

}  // namespace

int list_variants(const ListOptions &options) {
    if (!options.filter.empty()) filter_info(options.filter);
    nlohmann::json variants = nlohmann::json::array();
    for (const Variant &v : all_variants()) {
        if (!options.filter.empty() && v.filter != options.filter) continue;
        if (options.json) {
            variants.push_back(variant_json(v));
        } else {
            fmt::print("{} {} {} {}\n", v.filter, v.name, to_string(v.backend), to_string(v.kind));
        }
    }
    if (options.json) std::cout << nlohmann::json{{"format_version", kListJsonFormat}, {"variants", variants}}.dump(2) << "\n";
    return kExitOk;
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

namespace {

constexpr const char *kStdio = "-";

// Everything about a run that can be checked before work is done.
struct RunPlan {
    const FilterInfo &filter;
    const Variant &variant;
    ParamValues params;
    uint64_t seed;
};

// `files`: check the output paths too (rank 0, which writes them).
RunPlan plan_run(const RunOptions &options, bool files) {
    const FilterInfo &filter = filter_info(options.filter);
    const Variant &variant = find_variant(options.filter, options.variant);
    const ParamValues params = filter.parse_params(options.params);
    if (std::string why = variant.unsupported_reason(params); !why.empty()) throw Error(why);
    const bool to_stdout = options.output == kStdio;
    if (to_stdout && options.format.empty()) throw Error("--output -: name the format with --format (png, pgm, ppm, pnm, bmp)");
    if (!to_stdout && !options.format.empty()) throw Error("--format is for --output - only (a file's extension names its format)");
    if (files && !to_stdout && !is_writable_image_path(options.output)) check_writable(options.output, 1);
    if (!options.noisy_output.empty() && options.noise.empty()) throw Error("--noisy-output needs --noise");
    if (options.noisy_output == kStdio) throw Error("--noisy-output -: only --output may be standard output");
    if (!options.noisy_output.empty() && std::filesystem::weakly_canonical(options.noisy_output) ==
                                             std::filesystem::weakly_canonical(options.output)) {
        throw Error(options.output + ": named by both --output and --noisy-output");
    }
    if (files && !options.noisy_output.empty() && !is_writable_image_path(options.noisy_output)) {
        check_writable(options.noisy_output, 1);
    }
    const auto seed = parse_integer<uint64_t>(options.seed);
    if (!seed) throw Error("--seed: '" + options.seed + "' is not an integer in 0.." + std::to_string(UINT64_MAX));
    if (variant.backend == Backend::cuda) cuda::require_gpu();
    if (variant.backend == Backend::opencl) opencl::require_device();
    if (options.gpus != 1 && mpi::world().distributed()) {
        throw Error("--gpus is for one process: under mpirun each rank drives the GPU it is given");
    }
    if (options.gpus != 1 && variant.backend != Backend::cuda) {
        throw Error("--gpus: " + filter.name + "/" + variant.name + " is not a CUDA variant");
    }
    if (options.gpus > 1 && options.gpus > cuda::device_count()) {
        throw Error("--gpus " + std::to_string(options.gpus) + ": " + std::to_string(cuda::device_count()) +
                    " GPUs visible");
    }
    return {filter, variant, params, *seed};
}


// All or nothing: the files are written to temporaries; standard output, if
// it is the output, is written next; the files are renamed only then.
void write_run_outputs(const RunOptions &options, const Image &output, const Image &noisy,
                       std::vector<std::string> &notices) {
    ImageOutputs files;
    if (options.output != kStdio) files.add(options.output, output, &notices);
    if (!options.noisy_output.empty()) files.add(options.noisy_output, noisy, &notices);
    if (options.output == kStdio) write_image_stdout(options.format, output, &notices);
    files.commit();
}

// What a whole-image run prints: PSNR (with --noise), the summary line and,
// under mpirun, each phase's slowest rank. With the image on standard
// output, the words go to standard error.
struct RunImages {
    const Image &clean, &input, &output;
};
void print_whole_run(const RunOptions &options, const RunPlan &plan, const RunImages &images, double ms,
                     const mpi::PhaseTimes &phases) {
    std::FILE *words = options.output == kStdio ? stderr : stdout;
    const Image &clean = images.clean, &input = images.input, &output = images.output;
    if (!options.noise.empty()) {
        const auto clean_size = plan.filter.output_size(clean.width(), clean.height());
        if (clean_size.first == clean.width() && clean_size.second == clean.height()) {
            fmt::print(words, "PSNR against the clean image ({} noise, seed {}): noisy input {:.2f} dB, filtered {:.2f} dB\n",
                       options.noise, plan.seed, psnr(clean, input), psnr(clean, output));
        } else {
            fmt::print(words, "PSNR not reported: {} changes the image size\n", plan.filter.name);
        }
    }
    if (options.quiet) return;
    fmt::print(words, "{}/{} ({}, {}) {}: {}x{}x{} -> {} {}x{}x{} in {:.2f} ms (transfers included)\n", plan.filter.name,
               plan.variant.name, to_string(plan.variant.backend), to_string(plan.variant.kind),
               format_params(plan.params), input.width(), input.height(), input.channels(), options.output,
               output.width(), output.height(), output.channels(), ms);
    if (mpi::world().distributed()) {
        fmt::print(words, "over {} ranks ({} with rows): scatter {:.2f} ms, halo exchange {:.2f} ms, filter {:.2f} ms, "
                          "gather {:.2f} ms (each the slowest rank's)\n",
                   mpi::world().size(), phases.bands, 1e3 * phases.scatter, 1e3 * phases.halo, 1e3 * phases.filter,
                   1e3 * phases.gather);
    }
}

}  // namespace

void print_notices(std::vector<std::string> &notices) {
    for (auto &n : notices) fmt::print(stderr, "filterlab: notice: {}\n", n);
    notices.clear();
}

// Under mpirun the image is filtered in bands over the ranks
// (mpi::run_in_bands); rank 0 alone reads, writes and prints, and every step
// that can fail is collective, so a failure anywhere is one line from rank 0.
int run_variant_on_file(const RunOptions &options) {
    const mpi::World &world = mpi::world();
    std::optional<RunPlan> planned;
    world.collective([&] { planned.emplace(plan_run(options, world.root())); });
    const RunPlan &plan = *planned;
    if (runs_in_bands(options, plan.variant)) {
        return world.distributed() ? run_file_over_ranks(options, plan.variant, plan.params)
                                   : run_streamed_file(options, plan.variant, plan.params);
    }
    std::vector<std::string> notices;
    if ((options.band_rows > 0 || options.pwrite || options.gpus != 1) && !options.whole_image) {
        notices.push_back("--band-rows, --pwrite and --gpus apply to a streamed run (a PGM/PPM or non-interlaced PNG into "
                          "a PGM/PPM or PNG, by a CPU or CUDA variant); this run reads the whole image (on one GPU)");
    }
    Image clean, input;
    world.collective([&] {
        if (!world.root()) return;
        clean = options.input == kStdio ? read_image_stdin(&notices) : read_image(options.input, &notices);
        print_notices(notices);
        // The outputs are checked before the filter runs (it may take long).
        if (options.output != kStdio) check_writable(options.output, clean.channels());
        if (!options.noisy_output.empty()) check_writable(options.noisy_output, clean.channels());
        input = clean;
        if (!options.noise.empty()) add_noise(input, options.noise, plan.seed);
    });

    const auto start = std::chrono::steady_clock::now();
    mpi::PhaseTimes phases;
    const Image output = world.distributed() ? mpi::run_in_bands(plan.variant, input, plan.params, phases)
                                             : run_variant(plan.variant, input, plan.params);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    world.collective([&] {
        if (world.root()) write_run_outputs(options, output, input, notices);
    });
    if (!world.root()) return kExitOk;
    print_notices(notices);
    print_whole_run(options, plan, {clean, input, output}, ms, phases);
    return kExitOk;
}

int check_variants(const CheckOptionsCli &options) {
    CheckOptions check;
    check.filter = options.filter;
    check.variant = options.variant;
    check.quick = options.quick;
    check.sanitizer = options.sanitizer;
    check.quiet = options.quiet;
    check.images_dir = options.images.empty() ? default_images_dir() : options.images;
    if (!options.filter.empty()) filter_info(options.filter);
    if (!options.variant.empty()) {
        if (options.filter.empty()) throw Error("--variant needs --filter");
        find_variant(options.filter, options.variant);
    }
    if (!check.images_dir.empty() && !std::filesystem::is_directory(check.images_dir)) {
        throw Error(check.images_dir + ": no such folder of images");
    }
    if (!options.junit.empty()) check_output_folder(options.junit);
    // Standard output holds the results alone (the table, or the JSON): the
    // progress goes to standard error, or nowhere with --quiet.
    std::ostringstream discarded;
    std::ostream &log = options.quiet ? static_cast<std::ostream &>(discarded) : std::cerr;
    const auto &gpu = cuda::gpu_info();
    log << fmt::format("GPU: {}\n", gpu.available ? fmt::format("{} ({} SMs)", gpu.name, gpu.sm_count)
                                                   : "none (" + gpu.why_not + "): CUDA variants are skipped");
    log << fmt::format("real images: {}\n", check.images_dir.empty() ? "none found" : check.images_dir);
    const auto results = run_check(check, log);
    if (results.empty()) throw Error("no variant matches");
    if (!options.junit.empty()) write_file_atomically(options.junit, check_junit_xml(results));
    const CheckTotals t = totals(results);
    if (options.json) {
        std::cout << check_json(results).dump(2) << "\n";
    } else {
        std::cout << "\n";
        print_check_table(results, std::cout);
        fmt::print("\n{} passed, {} failed, {} skipped (variant x case)", t.passed, t.failed, t.skipped);
        fmt::print("{}\n", t.differs ? fmt::format("; {} where a peer computes another function", t.differs) : "");
    }
    return t.failed ? kExitFailure : kExitOk;
}

// The public API's default variant per filter, for host and device images:
// the fastest in the reviewed ranking table (default_variant.h).
nlohmann::json api_defaults() {
    nlohmann::json defaults = nlohmann::json::object();
    for (const FilterInfo &f : all_filters()) {
        for (auto [memory, backend] : {std::pair{"host", Backend::cpu}, std::pair{"device", Backend::cuda}}) {
            try {
                defaults[f.name][memory] = default_variant(f.name, backend, f.defaults()).name;
            } catch (const Error &) {
                defaults[f.name][memory] = nullptr;  // no variant of that backend
            }
        }
    }
    return defaults;
}

int show_info(bool json) {
    if (json) {
        nlohmann::json facts = machine_facts();
        facts["format_version"] = 1;
        facts["api_defaults"] = api_defaults();
        std::cout << facts.dump(2) << "\n";
        return kExitOk;
    }
    const auto facts = machine_facts();
    fmt::print("CPU:            {}\n", cpu_model());
    fmt::print("CPU features:   {}\n", cpu_features());
    fmt::print("threads:        {} hardware, {} for Halide (HL_NUM_THREADS)\n",
               facts["cpu"]["hardware_threads"].get<int>(), facts["cpu"]["halide_threads"].get<int>());
    fmt::print("Halide targets: {}\n", halide_targets());
    fmt::print("build commit:   {}\n", build_commit());
    for (const PluginStatus &p : load_plugins()) fmt::print("plugin:         {}: {}\n", p.name, p.detail);
    if (load_plugins().empty()) fmt::print("plugins:        none built (OpenCV peers need libopencv-dev at build time)\n");
    const nlohmann::json defaults = api_defaults();
    for (auto it = defaults.begin(); it != defaults.end(); ++it) {
        auto name = [&](const char *memory) {
            const nlohmann::json &v = it.value()[memory];
            return v.is_null() ? std::string("none") : v.get<std::string>();
        };
        fmt::print("API default:    {}: {} on host images, {} on device images (fastest on the H100: runtime/core/default_rankings.inc)\n", it.key(),
                   name("host"), name("device"));
    }
    const auto &cl = opencl::device_info();
    if (cl.available) {
        fmt::print("OpenCL:         {} ({}; {}, driver {}, {} compute units)\n", cl.name, cl.platform, cl.version,
                   cl.driver, cl.compute_units);
    } else {
        fmt::print("OpenCL:         none ({})\n", cl.why_not);
    }
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
