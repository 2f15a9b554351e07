// filterlab: the command line. Each verb is a small function over the
// registry; every error ends as one line on stderr: exit status 2 for a
// command line that cannot be parsed, 1 for every other failure (commands.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>

#include "bench.h"
#include "bench_batch.h"
#include "bench_threads.h"
#include "commands.h"
#include "import_peers_verb.h"
#include "world.h"
#include "error.h"
#include "filters.h"
#include "image.h"
#include "numbers.h"
#include "registry.h"
#include "plugins.h"
#include "report.h"
#include "sweep.h"
#include "temp_files.h"

namespace {

// A comma-separated list of integers in lo..hi, typed plainly: CLI11's own
// lists would drop the empty item of "1,,2" and take "0x10".
CLI::Option *add_integer_list(CLI::App *verb, const std::string &name, std::vector<int> &target, int lo, int hi,
                              const std::string &help) {
    auto parse = [&target, name, lo, hi](const std::string &text) {
        std::vector<int> values;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = text.find(',', start);
            const auto value = filterlab::parse_integer<int>(std::string_view(text).substr(start, comma - start));
            if (!value || *value < lo || *value > hi) {
                throw CLI::ValidationError(name, fmt::format("'{}' is not a comma-separated list of integers in {}..{}",
                                                             text, lo, hi));
            }
            values.push_back(*value);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        target = values;
    };
    return verb->add_option_function<std::string>(name, parse, help);
}

std::string command_line_of(int argc, char **argv) {
    std::string line;
    for (int i = 0; i < argc; i++) line += (i ? " " : "") + std::string(argv[i]);
    return line;
}

// The filters the contract lists, for the help of --filter.
std::string filter_names() {
    std::string names;
    for (const filterlab::FilterInfo &f : filterlab::all_filters()) names += (names.empty() ? "" : ", ") + f.name;
    return names;
}

// Every option of the command line, each declared once.
struct Options {
    filterlab::cli::ListOptions list;
    filterlab::cli::RunOptions run;
    filterlab::cli::CheckOptionsCli check;
    filterlab::BenchOptions bench;
    std::vector<int> bench_threads;
    filterlab::cli::SweepOptions sweep;
    filterlab::ReportOptions report;
    bool info_json = false;
    filterlab::cli::ImportPeersCli import_peers;
};

struct Verbs {
    CLI::App *list, *run, *check, *bench, *sweep, *report, *info;
};

void add_list_verb(CLI::App &app, Options &o, Verbs &verbs) {
    verbs.list = app.add_subcommand("list", "List the registered variants: <filter> <variant> <backend> <kind>");
    verbs.list->add_flag("--json", o.list.json,
                         "Print JSON: a format version and per variant whether it computes the contract, its "
                         "tolerance, whether it runs here (and why not), each parameter's default and supported values");
    verbs.list->add_option("--filter", o.list.filter, "Only this filter");
}

void add_run_verb(CLI::App &app, Options &o, Verbs &verbs) {
    auto *v = verbs.run = app.add_subcommand("run", "Apply one variant to one image file (a PGM/PPM into a PGM/PPM "
                                                    "streamed in bands of rows; under `mpirun -n N`: in bands of rows "
                                                    "over the ranks, byte-identical, each rank streaming its own rows "
                                                    "of a PGM/PPM, other formats (PNG, BMP) passing through rank 0)");
    v->add_option("--filter", o.run.filter, "Filter: " + filter_names())->required();
    v->add_option("--variant", o.run.variant, "Variant name (see `filterlab list`)")->default_val("reference");
    v->add_option("--input,-i", o.run.input, "Input image: PNG, binary PGM/PPM or 24-bit BMP; - reads standard input")
        ->required();
    v->add_option("--output,-o", o.run.output,
                  "Output image; the format follows the extension; - writes standard output (with --format)")
        ->required();
    v->add_option("--format", o.run.format, "With --output -: png, pgm, ppm, pnm or bmp");
    v->add_flag("--quiet,-q", o.run.quiet, "No summary line");
    v->add_option("--param,-p", o.run.params, "Filter parameter NAME=VALUE (repeatable), e.g. radius=2");
    v->add_option("--noise", o.run.noise,
                  "Add noise to the input first and report PSNR against the clean image before and after "
                  "the filter: salt_pepper:DENSITY (0..1) or gaussian:SIGMA");
    v->add_option("--seed", o.run.seed, "Seed of the noise (the same seed gives the same image everywhere)")
        ->default_val(1);
    v->add_option("--noisy-output", o.run.noisy_output, "Also write the noisy input here");
    v->add_option("--band-rows", o.run.band_rows,
                  "A PGM/PPM or non-interlaced PNG into a PGM/PPM or PNG is streamed in bands of rows (reading, filtering and writing overlap; "
                  "host memory is the bands in flight): output rows a band (default: about 32 MiB of input)")
        ->check(CLI::Range(1, 1 << 24));
    v->add_flag("--whole-image", o.run.whole_image, "Read the whole image into memory instead of streaming it");
    v->add_flag("--pwrite", o.run.pwrite,
                "Streamed runs: write the output's rows with pwrite (measured slower into one ext4 file) instead of "
                "copying them into mapped windows of the file");
    v->add_option("--gpus", o.run.gpus,
                  "Streamed runs of a CUDA variant in one process: spread the bands over this many visible GPUs, "
                  "band b on GPU b mod N (0: every visible one)")
        ->check(CLI::Range(0, 64));
}

void add_check_verb(CLI::App &app, Options &o, Verbs &verbs) {
    auto *v = verbs.check = app.add_subcommand("check", "Check variants against the reference over a matrix of inputs");
    v->add_option("--filter", o.check.filter, "Only this filter");
    v->add_option("--variant", o.check.variant, "Only this variant");
    v->add_option("--images", o.check.images, "Folder of real test images (default: the bundled ones)");
    v->add_flag("--quick", o.check.quick, "A smaller matrix: small sizes, fewer parameter values");
    v->add_flag("--json", o.check.json, "Print the results as JSON on stdout (progress on stderr)");
    v->add_option("--junit", o.check.junit, "Also write the results as JUnit XML to this file");
    v->add_flag("--quiet,-q", o.check.quiet, "No progress");
    v->add_flag("--sanitizer-matrix", o.check.sanitizer,
                "The matrix for compute-sanitizer: odd and degenerate sizes, random contents, 1 and 3 "
                "channels, every parameter value");
}

// The timing options `bench` and `sweep` share; returns --sizes.
CLI::Option *add_timing_options(CLI::App *verb, filterlab::BenchOptions &b, const std::string &out_help) {
    std::string sizes;
    for (auto s : b.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(s.width);
    auto parse = [&b](const std::string &text) {
        std::vector<filterlab::ImageShape> shapes;
        for (std::size_t start = 0;;) {
            const std::size_t comma = text.find(',', start);
            const auto shape = filterlab::read_shape(std::string_view(text).substr(start, comma - start));
            if (!shape) {
                throw CLI::ValidationError("--sizes", fmt::format("'{}' is not a comma-separated list of sizes (8192 "
                                                                  "for a square, or 1920x1080), sides in 1..{}",
                                                                  text, filterlab::kMaxSide));
            }
            shapes.push_back(*shape);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        b.sizes = shapes;
    };
    auto *sizes_opt = verb->add_option_function<std::string>("--sizes", parse,
                                                             "Image sizes, comma-separated: 8192 (a square) or "
                                                             "1920x1080 (WIDTHxHEIGHT)")
                          ->default_str(sizes);
    verb->add_option("--param,-p", b.params, "NAME=VALUE of the filter (repeatable; in bench, for the filters that "
                                             "have NAME)");
    verb->add_option("--min-reps", b.min_reps, "Minimum samples per case")->default_val(20)->check(CLI::Range(3, 100000));
    verb->add_option("--min-time", b.min_seconds, "Minimum seconds per case")
        ->default_val(0.5)
        ->check(CLI::Range(0.0, 3600.0));
    verb->add_option("--out", b.out_root, out_help)->default_val("bench-runs");
    verb->add_flag("--quiet,-q", b.quiet, "No progress on stderr (the results still go to stdout)");
    return sizes_opt;
}

void add_bench_verb(CLI::App &app, Options &o, Verbs &verbs) {
    auto *v = verbs.bench =
        app.add_subcommand("bench", "Time variants side by side (each checked against the reference first)");
    v->add_option("--filter", o.bench.filters, "Filters to time (repeatable; default: all with variants)");
    v->add_option("--variant", o.bench.variants, "Variants to time (repeatable; default: all)");
    v->add_option("--backend", o.bench.backends, "cpu, cuda and/or opencl (default: all)");
    auto *sizes_opt = add_timing_options(v, o.bench, "Folder under which each run gets a new directory");
    add_integer_list(v, "--channels", o.bench.channels, 1, 3, "Channel counts, comma-separated (1, 3)")->default_str("1");
    v->add_option("--paths", o.bench.every_path,
                  "taken: each variant on the path a call of that shape takes; all (or both): a Halide or TVM "
                  "variant compiled for the image's shape or class (FILTERLAB_SHAPES) is timed on each more "
                  "general path too (exact, aligned, generic)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, bool>{{"taken", false}, {"all", true}, {"both", true}}))
        ->default_str("taken");
    v->add_option("--budget", o.bench.budget_seconds,
                  "Seconds the whole run may take: each case gets its share of what is left, fewer samples "
                  "(at least 3) when short, skipped when one run cannot fit")
        ->check(CLI::Range(1.0, 86400.0));
    auto *batch_opt = v->add_option("--batch", o.bench.batch_images,
                                    "Time batches of this many images instead (interleaved, as files give "
                                    "them): conversions, transfers, kernels; writes batch.csv. Under "
                                    "`mpirun -n N` the images are spread over the ranks (ranks.csv)")
                          ->check(CLI::Range(1, filterlab::kMaxBatchImages))
                          ->excludes(sizes_opt);
    v->add_option("--batch-size", o.bench.batch_size, "WIDTHxHEIGHT of each image of a batch")
        ->default_str("4096x2304")
        ->needs(batch_opt);
    v->add_option("--images", o.bench.images_dir,
                  "Folder of real images for the run's gallery of pictures (default: the bundled ones)");
    add_integer_list(v, "--threads", o.bench_threads, 1, 1024,
                     "CPU thread scaling: time the Halide CPU variants and the reference at each of these "
                     "thread counts, one run directory each (comma-separated)");
}

void add_sweep_verb(CLI::App &app, Options &o, Verbs &verbs) {
    auto *v = verbs.sweep = app.add_subcommand(
        "sweep", "Check every built point of one schedule's space against the reference, then time them side by side "
                 "with the schedule's default (a bench run directory plus sweep.json; build the points with "
                 "-DFILTERLAB_SWEEPS)");
    v->add_option("--filter", o.sweep.filter, "Filter: " + filter_names())->required();
    v->add_option("--schedule", o.sweep.schedule, "The schedule's variant name, e.g. cuda_tile")->required();
    o.sweep.bench.sizes = {{1024, 1024}, {8192, 8192}};
    add_timing_options(v, o.sweep.bench, "Folder under which the run gets a new directory");
    v->add_flag("--quick", o.sweep.quick, "Check on the smaller matrix");
}

void add_report_verb(CLI::App &app, Options &o, Verbs &verbs) {
    auto *v = verbs.report = app.add_subcommand(
        "report", "Turn bench run directories (from one or several machines) into a Markdown report with tables, "
                  "plots, pictures and the DSL-versus-hand verdict");
    v->add_option("run_dirs", o.report.run_dirs, "Bench run directories")->required();
    v->add_option("--out", o.report.out_dir, "Folder for report.md and its images")->required();
    v->add_option("--source", o.report.source_dir, "Source tree, for the lines of code")
        ->default_val(FILTERLAB_SOURCE_DIR);
    v->add_option("--build", o.report.build_dir, "Build folder: the Halide libraries' loop nests and "
                                                 "kernel_resources.json")
        ->default_val(FILTERLAB_BINARY_DIR);
    v->add_flag("--with-code", o.report.with_code,
                "Also copy the fastest variants' loop nests (.stmt, the build's) beside the report");
}

void add_info_verb(CLI::App &app, Options &o, Verbs &verbs) {
    verbs.info = app.add_subcommand("info", "Show the CPU, the Halide targets built and the GPU");
    verbs.info->add_flag("--json", o.info_json, "Print the facts as JSON");
}

int bench_verb(filterlab::BenchOptions &bench, const std::vector<int> &threads) {
    if (bench.batch_images > 0) {
        filterlab::run_bench_batch(bench);
        return 0;
    }
    if (bench.images_dir.empty()) bench.images_dir = filterlab::cli::default_images_dir();
    else if (!std::filesystem::is_directory(bench.images_dir))
        throw filterlab::Error(bench.images_dir + ": no such folder of images");
    if (threads.empty()) {
        filterlab::run_bench(bench);
        return 0;
    }
    std::string dirs;
    for (const std::string &d : filterlab::cli::bench_thread_counts(bench, threads)) dirs += " " + d;
    fmt::print("runs, one per thread count:{}\n", dirs);
    fmt::print(stderr, "to see the scaling: filterlab report{} --out DIR\n", dirs);  // a notice
    return 0;
}

int report_verb(filterlab::ReportOptions &report) {
    for (const filterlab::Variant &v : filterlab::all_variants()) {
        if (!v.source.file.empty()) report.schedule_sources[{v.filter, v.name}] = v.source;
        for (const filterlab::VariantLibrary &lib : v.libraries) report.libraries[{v.filter, v.name}].push_back(lib.name);
        report.algorithms[{v.filter, v.name}] = v.algorithm;
        if (const std::string twin = filterlab::cuda_twin(v); !twin.empty()) report.cuda_twins[{v.filter, v.name}] = twin;
    }
    for (const filterlab::FilterInfo &f : filterlab::all_filters())
        for (const auto &[name, why] : f.algorithms) report.filter_algorithms[f.name].push_back(name);
    if (!std::filesystem::is_directory(report.source_dir)) {
        fmt::print(stderr, "filterlab: notice: no source tree at {}: lines of code not counted (--source DIR)\n",
                   report.source_dir);
    }
    const auto written = filterlab::write_report(report);
    if (!written.plots_made) fmt::print(stderr, "filterlab: notice: plots skipped: {}\n", written.plots_why);
    fmt::print("report: {}\n", written.path);
    return 0;
}

// The verb parsed; its command line where it records one.
int dispatch(const Verbs &verbs, Options &o, const std::string &command_line) {
    using namespace filterlab::cli;
    const filterlab::mpi::World &world = filterlab::mpi::world();
    if (world.distributed() && !*verbs.run && !(*verbs.bench && o.bench.batch_images > 0)) {
        throw filterlab::mpi::AgreedError("over MPI ranks only `run` and `bench --batch` are distributed; run the "
                                          "others without mpirun");
    }
    if (*verbs.list) return list_variants(o.list);
    if (*verbs.run) return run_variant_on_file(o.run);
    if (*verbs.check) return check_variants(o.check);
    if (*verbs.info) return show_info(o.info_json);
    o.bench.command_line = o.sweep.bench.command_line = o.report.command_line = command_line;
    if (*verbs.sweep) {
        o.sweep.bench.images_dir = default_images_dir();
        return sweep_schedule(o.sweep);
    }
    if (*verbs.bench) return bench_verb(o.bench, o.bench_threads);
    if (*verbs.report) return report_verb(o.report);
    if (*o.import_peers.verb) return import_peers_verb(o.import_peers, command_line);
    return kExitFailure;
}

// An unknown verb is named (CLI11 would only say an argument was not expected);
// every other parse error is one line too (from rank 0 alone: every rank
// parses the same line). Returns the exit status, or -1 to go on.
int parse_command_line(CLI::App &app, int argc, char **argv) {
    const bool root = filterlab::mpi::world().root();
    if (argc > 1 && argv[1][0] != '-' &&
        app.get_subcommands([&](CLI::App *verb) { return verb->get_name() == argv[1]; }).empty()) {
        std::string verbs;
        for (const CLI::App *verb : app.get_subcommands({})) verbs += (verbs.empty() ? "" : ", ") + verb->get_name();
        if (root) fmt::print(stderr, "filterlab: error: unknown command '{}' (the commands: {}; see --help)\n", argv[1], verbs);
        return filterlab::cli::kExitUsage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        if (root) fmt::print(stderr, "filterlab: error: {} (see --help)\n", e.what());
        return filterlab::cli::kExitUsage;
    }
    return -1;
}

}  // namespace

int main(int argc, char **argv) {
    // First: under mpirun, each rank picks its GPU before CUDA starts.
    const filterlab::mpi::Session mpi_session(argc, argv);
    const filterlab::mpi::World &world = filterlab::mpi::world();
    filterlab::install_signal_cleanup();
    filterlab::load_plugins();  // the registry's peers, before anything reads it
    CLI::App app{"FilterLab: Halide schedules and handwritten CUDA kernels for image filters, side by side"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Print help for every verb");
    app.set_version_flag("--version", [] { return filterlab::cli::version_text(); },
                         "Print the version, commit, Halide and CUDA versions");
    Options options;
    Verbs verbs{};
    for (auto add : {add_list_verb, add_run_verb, add_check_verb, add_bench_verb, add_sweep_verb, add_report_verb,
                     add_info_verb})
        add(app, options, verbs);
    filterlab::cli::add_import_peers_verb(app, options.import_peers);
    if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
    try {
        return dispatch(verbs, options, command_line_of(argc, argv));
    } catch (const filterlab::mpi::AgreedError &e) {
        return world.fail(e, true);
    } catch (const std::bad_alloc &) {
        return world.fail(filterlab::Error("out of memory"), false);
    } catch (const std::exception &e) {
        return world.fail(e, false);
    }
}
