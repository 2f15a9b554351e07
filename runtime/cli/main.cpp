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

}  // namespace

int main(int argc, char **argv) {
    using namespace filterlab::cli;
    // First: under mpirun, each rank picks its GPU before CUDA starts.
    const filterlab::mpi::Session mpi_session(argc, argv);
    const filterlab::mpi::World &world = filterlab::mpi::world();
    filterlab::install_signal_cleanup();
    filterlab::load_plugins();  // the registry's peers, before anything reads it
    CLI::App app{"FilterLab: Halide schedules and handwritten CUDA kernels for image filters, side by side"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Print help for every verb");
    app.set_version_flag("--version", [] { return version_text(); }, "Print the version, commit, Halide and CUDA versions");

    ListOptions list;
    auto *list_cmd = app.add_subcommand("list", "List the registered variants: <filter> <variant> <backend> <kind>");
    list_cmd->add_flag("--json", list.json,
                       "Print JSON: a format version and per variant whether it computes the contract, its "
                       "tolerance, whether it runs here (and why not), each parameter's default and supported values");
    list_cmd->add_option("--filter", list.filter, "Only this filter");

    RunOptions run;
    auto *run_cmd = app.add_subcommand("run", "Apply one variant to one image file (under `mpirun -n N`: in bands of "
                                              "rows over the ranks, byte-identical)");
    std::string filter_names;  // the help follows the contract's list
    for (const filterlab::FilterInfo &f : filterlab::all_filters()) filter_names += (filter_names.empty() ? "" : ", ") + f.name;
    run_cmd->add_option("--filter", run.filter, "Filter: " + filter_names)->required();
    run_cmd->add_option("--variant", run.variant, "Variant name (see `filterlab list`)")->default_val("reference");
    run_cmd->add_option("--input,-i", run.input, "Input image: PNG, binary PGM/PPM or 24-bit BMP; - reads standard input")
        ->required();
    run_cmd->add_option("--output,-o", run.output,
                        "Output image; the format follows the extension; - writes standard output (with --format)")
        ->required();
    run_cmd->add_option("--format", run.format, "With --output -: png, pgm, ppm, pnm or bmp");
    run_cmd->add_flag("--quiet,-q", run.quiet, "No summary line");
    run_cmd->add_option("--param,-p", run.params, "Filter parameter NAME=VALUE (repeatable), e.g. radius=2");
    run_cmd->add_option("--noise", run.noise,
                        "Add noise to the input first and report PSNR against the clean image before and after "
                        "the filter: salt_pepper:DENSITY (0..1) or gaussian:SIGMA");
    run_cmd->add_option("--seed", run.seed, "Seed of the noise (the same seed gives the same image everywhere)")
        ->default_val(1);
    run_cmd->add_option("--noisy-output", run.noisy_output, "Also write the noisy input here");

    CheckOptionsCli check;
    auto *check_cmd = app.add_subcommand("check", "Check variants against the reference over a matrix of inputs");
    check_cmd->add_option("--filter", check.filter, "Only this filter");
    check_cmd->add_option("--variant", check.variant, "Only this variant");
    check_cmd->add_option("--images", check.images, "Folder of real test images (default: the bundled ones)");
    check_cmd->add_flag("--quick", check.quick, "A smaller matrix: small sizes, fewer parameter values");
    check_cmd->add_flag("--json", check.json, "Print the results as JSON on stdout (progress on stderr)");
    check_cmd->add_option("--junit", check.junit, "Also write the results as JUnit XML to this file");
    check_cmd->add_flag("--quiet,-q", check.quiet, "No progress");
    check_cmd->add_flag("--sanitizer-matrix", check.sanitizer,
                        "The matrix for compute-sanitizer: odd and degenerate sizes, random contents, 1 and 3 "
                        "channels, every parameter value");

    filterlab::BenchOptions bench;
    auto *bench_cmd = app.add_subcommand("bench", "Time variants side by side (each checked against the reference first)");
    bench_cmd->add_option("--filter", bench.filters, "Filters to time (repeatable; default: all with variants)");
    bench_cmd->add_option("--variant", bench.variants, "Variants to time (repeatable; default: all)");
    bench_cmd->add_option("--backend", bench.backends, "cpu, cuda and/or opencl (default: all)");
    auto *sizes_opt = add_integer_list(bench_cmd, "--sizes", bench.sizes, 1, filterlab::kMaxSide,
                                       "Square image sizes, comma-separated")
                          ->default_str("256,1024,4096,8192");
    add_integer_list(bench_cmd, "--channels", bench.channels, 1, 3, "Channel counts, comma-separated (1, 3)")
        ->default_str("1");
    bench_cmd->add_option("--param,-p", bench.params, "NAME=VALUE for the filters that have NAME (repeatable)");
    bench_cmd->add_option("--min-reps", bench.min_reps, "Minimum samples per case")->default_val(20)->check(CLI::Range(3, 100000));
    bench_cmd->add_option("--min-time", bench.min_seconds, "Minimum seconds per case")->default_val(0.5)->check(CLI::Range(0.0, 3600.0));
    bench_cmd->add_option("--budget", bench.budget_seconds,
                          "Seconds the whole run may take: each case gets its share of what is left, fewer samples "
                          "(at least 3) when short, skipped when one run cannot fit")
        ->check(CLI::Range(1.0, 86400.0));
    bench_cmd->add_flag("--quiet,-q", bench.quiet, "No progress on stderr (the results still go to stdout)");
    bench_cmd->add_option("--out", bench.out_root, "Folder under which each run gets a new directory")
        ->default_val("bench-runs");
    auto *batch_opt = bench_cmd->add_option("--batch", bench.batch_images,
                                            "Time batches of this many images instead (interleaved, as files give "
                                            "them): conversions, transfers, kernels; writes batch.csv. Under "
                                            "`mpirun -n N` the images are spread over the ranks (ranks.csv)")
                          ->check(CLI::Range(1, filterlab::kMaxBatchImages))
                          ->excludes(sizes_opt);
    bench_cmd->add_option("--batch-size", bench.batch_size, "WIDTHxHEIGHT of each image of a batch")
        ->default_str("4096x2304")
        ->needs(batch_opt);
    bench_cmd->add_option("--images", bench.images_dir,
                          "Folder of real images for the run's gallery of pictures (default: the bundled ones)");
    std::vector<int> bench_threads;
    add_integer_list(bench_cmd, "--threads", bench_threads, 1, 1024,
                     "CPU thread scaling: time the Halide CPU variants and the reference at each of these "
                     "thread counts, one run directory each (comma-separated)");

    SweepOptions sweep;
    auto *sweep_cmd = app.add_subcommand(
        "sweep", "Check every built point of one schedule's space against the reference, then time them side by side "
                 "with the schedule's default (a bench run directory plus sweep.json; build the points with "
                 "-DFILTERLAB_SWEEPS)");
    sweep_cmd->add_option("--filter", sweep.filter, "Filter: " + filter_names)->required();
    sweep_cmd->add_option("--schedule", sweep.schedule, "The schedule's variant name, e.g. cuda_tile")->required();
    add_integer_list(sweep_cmd, "--sizes", sweep.bench.sizes, 1, filterlab::kMaxSide, "Square image sizes, comma-separated")
        ->default_str("1024,8192");
    sweep.bench.sizes = {1024, 8192};
    sweep_cmd->add_option("--param,-p", sweep.bench.params, "NAME=VALUE of the filter (repeatable)");
    sweep_cmd->add_flag("--quick", sweep.quick, "Check on the smaller matrix");
    sweep_cmd->add_option("--min-reps", sweep.bench.min_reps, "Minimum samples per case")->default_val(20)->check(CLI::Range(3, 100000));
    sweep_cmd->add_option("--min-time", sweep.bench.min_seconds, "Minimum seconds per case")->default_val(0.5)->check(CLI::Range(0.0, 3600.0));
    sweep_cmd->add_option("--out", sweep.bench.out_root, "Folder under which the run gets a new directory")
        ->default_val("bench-runs");
    sweep_cmd->add_flag("--quiet,-q", sweep.bench.quiet, "No progress on stderr");

    filterlab::ReportOptions report;
    auto *report_cmd = app.add_subcommand(
        "report", "Turn bench run directories (from one or several machines) into a Markdown report with tables, "
                  "plots, pictures and the DSL-versus-hand verdict");
    report_cmd->add_option("run_dirs", report.run_dirs, "Bench run directories")->required();
    report_cmd->add_option("--out", report.out_dir, "Folder for report.md and its images")->required();
    report_cmd->add_option("--source", report.source_dir, "Source tree: lines of code and scripts/plots.py")
        ->default_val(FILTERLAB_SOURCE_DIR);
    report_cmd->add_option("--build", report.build_dir,
                           "Build folder: the Halide libraries' loop nests and kernel_resources.json")
        ->default_val(FILTERLAB_BINARY_DIR);

    bool info_json = false;
    auto *info_cmd = app.add_subcommand("info", "Show the CPU, the Halide targets built and the GPU");
    info_cmd->add_flag("--json", info_json, "Print the facts as JSON");

    // An unknown verb is named (CLI11 would only say an argument was not expected).
    if (argc > 1 && argv[1][0] != '-' &&
        app.get_subcommands([&](CLI::App *verb) { return verb->get_name() == argv[1]; }).empty()) {
        std::string verbs;
        for (const CLI::App *verb : app.get_subcommands({})) verbs += (verbs.empty() ? "" : ", ") + verb->get_name();
        if (world.root()) fmt::print(stderr, "filterlab: error: unknown command '{}' (the commands: {}; see --help)\n", argv[1], verbs);
        return kExitUsage;
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
        // One line, as for every other error (from rank 0 alone: every rank
        // parses the same line); status 2: the command line.
        if (world.root()) fmt::print(stderr, "filterlab: error: {} (see --help)\n", e.what());
        return kExitUsage;
    }

    try {
        if (world.distributed() && !*run_cmd && !(*bench_cmd && bench.batch_images > 0)) {
            throw filterlab::mpi::AgreedError("over MPI ranks only `run` and `bench --batch` are distributed; run the "
                                              "others without mpirun");
        }
        if (*list_cmd) return list_variants(list);
        if (*run_cmd) return run_variant_on_file(run);
        if (*check_cmd) return check_variants(check);
        if (*info_cmd) return show_info(info_json);
        if (*sweep_cmd) {
            sweep.bench.command_line = command_line_of(argc, argv);
            sweep.bench.images_dir = default_images_dir();
            return sweep_schedule(sweep);
        }
        if (*bench_cmd) {
            bench.command_line = command_line_of(argc, argv);
            if (bench.batch_images > 0) {
                filterlab::run_bench_batch(bench);
                return 0;
            }
            if (bench.images_dir.empty()) bench.images_dir = default_images_dir();
            else if (!std::filesystem::is_directory(bench.images_dir))
                throw filterlab::Error(bench.images_dir + ": no such folder of images");
            if (bench_threads.empty()) {
                filterlab::run_bench(bench);
                return 0;
            }
            std::string dirs;
            for (const std::string &d : bench_thread_counts(bench, bench_threads)) dirs += " " + d;
            fmt::print("runs, one per thread count:{}\nto see the scaling: filterlab report{} --out DIR\n", dirs, dirs);
            return 0;
        }
        if (*report_cmd) {
            report.command_line = command_line_of(argc, argv);
            for (const filterlab::Variant &v : filterlab::all_variants()) {
                if (!v.source.file.empty()) report.schedule_sources[{v.filter, v.name}] = v.source;
                if (!v.libraries.empty()) report.libraries[{v.filter, v.name}] = v.libraries;
                report.algorithms[{v.filter, v.name}] = v.algorithm;
            }
            for (const filterlab::FilterInfo &f : filterlab::all_filters())
                for (const auto &[name, why] : f.algorithms) report.filter_algorithms[f.name].push_back(name);
            const auto written = filterlab::write_report(report);
            if (!written.plots_made) fmt::print(stderr, "filterlab: notice: plots skipped: {}\n", written.plots_why);
            fmt::print("report: {}\n", written.path);
            return 0;
        }
    } catch (const filterlab::mpi::AgreedError &e) {
        return world.fail(e, true);
    } catch (const std::bad_alloc &) {
        return world.fail(filterlab::Error("out of memory"), false);
    } catch (const std::exception &e) {
        return world.fail(e, false);
    }
    return 1;
}
