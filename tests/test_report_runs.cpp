// `filterlab report` and the run directories it reads: missing, partial and
// old ones end in one clear line and status 1; the results schema's one writer
// and one reader; each variant's identity as a run records it, and format 2
// and 3 runs that still read. The report's pages: test_report.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli_runner.h"
#include "error.h"
#include "registry.h"
#include "report_test_helpers.h"
#include "run_dir.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

using namespace cli_test;
using namespace report_test;

// Copies of `run` with a file missing, cut short or of another format: each
// refused with its line (`out`: the --out that must never be made).
void check_damaged_copies(const fs::path &run, const std::string &out) {
    auto copy = [&](const std::string &name) {
        const fs::path p = work() / name;
        fs::copy(run, p, fs::copy_options::recursive);
        return p;
    };
    const fs::path no_json = copy("no_json");
    fs::remove(no_json / "results.json");
    expect_failure("report " + no_json.string() + out, "partial bench run: results.json missing");
    const fs::path cut = copy("cut");
    fs::resize_file(cut / "results.json", fs::file_size(cut / "results.json") / 2);
    expect_failure("report " + cut.string() + out, "partial bench run: results.json is not complete JSON");
    const fs::path no_gallery = copy("no_gallery");
    fs::remove(no_gallery / "gallery" / "gallery.json");
    expect_failure("report " + no_gallery.string() + out, "partial bench run: gallery/gallery.json missing");
    const fs::path no_histograms = copy("no_histograms");
    const std::string histograms =
        nlohmann::json::parse(slurp(no_histograms / "gallery" / "gallery.json"))["filters"][0]["histograms"];
    fs::remove(no_histograms / "gallery" / histograms);
    expect_failure("report " + no_histograms.string() + out, "gallery/" + histograms + " missing");
    // A run kept without its pictures (as under reports/) still reports, and says so.
    const fs::path no_pictures = copy("no_pictures");
    for (const auto &f : fs::directory_iterator(no_pictures / "gallery"))
        if (f.path().extension() == ".png") fs::remove(f.path());
    const Result kept = run_cli("report " + no_pictures.string() + " --out " + (work() / "kept").string());
    CHECK(kept.status == 0);
    const std::string kept_page = slurp(work() / "kept" / "report.md");
    CHECK(kept_page.find("was kept without its pictures") != std::string::npos);
    CHECK(kept_page.find("![input]") == std::string::npos);

    const fs::path old = copy("old");
    auto results = nlohmann::json::parse(slurp(old / "results.json"));
    results["context"].erase("format");
    std::ofstream(old / "results.json") << results.dump();
    expect_failure("report " + old.string() + out, "written by an older filterlab");
    results["context"]["format"] = 99;
    std::ofstream(old / "results.json") << results.dump();
    expect_failure("report " + old.string() + out, "run format 99");

    const fs::path columns = copy("columns");
    std::string csv = slurp(columns / "results.csv");
    csv.replace(0, csv.find('\n'), "filter,variant,time");
    std::ofstream(columns / "results.csv") << csv;
    expect_failure("report " + columns.string() + out, "unexpected columns");
}

// A run whose bench found no real image: the report says so, and is made.
void check_run_without_images() {
    fs::create_directories(work() / "no_images");
    const Result bench = run_cli("bench --filter box --variant cpu_tiled --sizes 16 --min-reps 3 --min-time 0 --images " +
                                 (work() / "no_images").string() + " --out " + (work() / "runs_no_images").string());
    REQUIRE(bench.status == 0);
    const fs::path bare_run = fs::directory_iterator(work() / "runs_no_images")->path();
    const Result made = run_cli("report " + bare_run.string() + " --out " + (work() / "report_no_images").string());
    REQUIRE(made.status == 0);
    CHECK(slurp(work() / "report_no_images" / "report.md").find("No pictures from m1: ") != std::string::npos);
}

// The same run written as format 2 did (no origin, algorithm or point; no
// algorithms in the context), with a sweep's point added.
fs::path write_format2_copy(const fs::path &run, const RunDir &now) {
    const fs::path old = work() / "format2";
    fs::copy(run, old, fs::copy_options::recursive);
    auto results = nlohmann::json::parse(slurp(old / "results.json"));
    results["context"]["format"] = 2;
    std::ofstream(old / "results.json") << results.dump();
    std::ofstream csv(old / "results.csv");
    csv << format2_csv_header() << "\n";
    auto format2_line = [](const BenchRow &r) { return to_csv_line(r, 2); };  // the schema's format 2 columns
    for (const BenchRow &r : now.rows) csv << format2_line(r) << "\n";
    BenchRow point = now.rows.back();
    point.variant = "cpu_sliding[rows=32+vectors=2]", point.kind = "halide";
    csv << format2_line(point) << "\n";
    csv.close();
    return old;
}

// The same run written as format 3 did: its points' axes joined by spaces ("a=1 b=2").
fs::path write_format3_copy(const fs::path &run, const RunDir &now) {
    const fs::path old = work() / "format3";
    fs::copy(run, old, fs::copy_options::recursive);
    auto results = nlohmann::json::parse(slurp(old / "results.json"));
    results["context"]["format"] = 3;
    std::ofstream(old / "results.json") << results.dump();
    std::ofstream csv(old / "results.csv");
    csv << results_csv_header(3) << "\n";
    for (BenchRow r : now.rows) {
        std::replace(r.point.begin(), r.point.end(), '+', ' ');
        csv << to_csv_line(r, 3) << "\n";
    }
    return old;
}

}  // namespace

TEST_CASE("report: missing, partial and old run directories are refused with one clear line") {
    const fs::path run = bench_run("runs_errors");
    const std::string out = " --out " + (work() / "never").string();
    expect_failure("report /no/such/run" + out, "no such run directory");
    expect_failure("report " + run.string() + " " + run.string() + out, "given twice");
    fs::create_directories(work() / "empty");
    expect_failure("report " + (work() / "empty").string() + out, "not a bench run directory");

    check_damaged_copies(run, out);
    check_run_without_images();

    expect_failure("bench --filter box --images /no/such/folder", "no such folder of images");
    expect_usage_error("bench --filter box --threads 0", "--threads: '0' is not");
    expect_failure("bench --filter box --threads 2 --backend cuda", "CPU variants only");
    expect_failure("bench --filter box --variant opencv_blur --threads 2", "no Halide or handwritten CPU variant");
    expect_usage_error("report " + run.string(), "--out is required");
    CHECK(!fs::exists(work() / "never"));
}

TEST_CASE("results schema: one writer and one reader, every column and status round-trips") {
    for (Status status : {Status::ok, Status::differs, Status::wrong, Status::error, Status::skipped}) {
        BenchRow row{.filter = "box", .variant = "cpu_tiled", .backend = "cpu", .kind = "halide",
                     .origin = Origin::sweep_point, .algorithm = "direct", .point = "rows=16+vectors=4", .path = "exact", .width = 48,
                     .height = 32, .channels = 3, .params = "radius=2", .status = status, .samples = 20, .buffers = 4,
                     .median_us = 12.5, .min_us = 11.25, .max_us = 14.125, .p25_us = 12, .p75_us = 13,
                     .spread_pct = 8, .gb_per_s = 1.25, .roofline_pct = 0.5, .threads = 16,
                     .note = "a note, with commas, kept"};
        CAPTURE(to_string(status));
        const BenchRow back = parse_csv_line(to_csv_line(row));
        CHECK(back.status == status);
        CHECK(back.filter == row.filter);
        CHECK(back.params == row.params);
        CHECK(back.origin == Origin::sweep_point);
        CHECK(back.algorithm == "direct");
        CHECK(back.point == "rows=16+vectors=4");
        CHECK(back.path == "exact");
        CHECK(back.width == 48);
        CHECK(back.channels == 3);
        CHECK(back.median_us == doctest::Approx(12.5));
        CHECK(back.max_us == doctest::Approx(14.125));
        CHECK(back.threads == 16);
        CHECK(back.note == "a note; with commas; kept");
    }
    CHECK(results_csv_header().rfind(
              "filter,variant,backend,kind,origin,algorithm,point,path,width,height,channels,params,status,", 0) == 0);
    CHECK(results_csv_header(4).rfind(
              "filter,variant,backend,kind,origin,algorithm,point,width,height,channels,params,status,", 0) == 0);
    CHECK(format2_csv_header().rfind("filter,variant,backend,kind,width,height,channels,params,status,", 0) == 0);
    CHECK(point_text({{"tile_x", 64}, {"tile_y", 8}}) == "tile_x=64+tile_y=8");  // the one spelling
    CHECK(point_text({}).empty());
    CHECK_THROWS_AS(parse_status("fine"), Error);
    CHECK_THROWS_WITH_AS(parse_csv_line("box,cpu_tiled"), doctest::Contains("2 fields, expected 25"), Error);
    BenchRow odd{.kind = "halide", .median_us = 1};
    std::string line = to_csv_line(odd);
    line.replace(line.find(",reference,"), 11, ",elsewhere,");  // the origin column
    CHECK_THROWS_WITH_AS(parse_csv_line(line), doctest::Contains("column 5 (origin): 'elsewhere' is not an origin"),
                         Error);
    const BenchRow untimed;  // ok, so timed, with no time
    CHECK_THROWS_WITH_AS(parse_csv_line(to_csv_line(untimed)), doctest::Contains("no time"), Error);
}

TEST_CASE("results: a bench run records each variant's identity as the registry holds it; format 2 still reads") {
    const fs::path run = bench_run("runs_identity");
    const RunDir now = load_run_dir(run.string());
    CHECK(now.context["format"] == 5);
    std::set<Origin> origins;
    for (const BenchRow &r : now.rows) {
        const Variant &v = find_variant(r.filter, r.variant);
        CAPTURE(r.variant);
        CHECK(r.origin == v.origin);
        CHECK(r.algorithm == v.algorithm);
        CHECK(r.point == point_text(v.point));
        CHECK(r.path == shape_path(v, {r.width, r.height}));  // CPU variants: "generic" (Halide) or ""
        origins.insert(r.origin);
    }
    // The box's CPU variants: the reference, named schedules, a frozen point, autoschedules, a peer (OpenCV).
    for (Origin o : {Origin::reference, Origin::schedule, Origin::frozen_point, Origin::autoscheduler, Origin::peer})
        CHECK(origins.count(o) == 1);

    const fs::path old = write_format2_copy(run, now);

    KnownAlgorithms known;
    for (const Variant &v : all_variants()) known[{v.filter, v.name}] = v.algorithm;
    const RunDir then = load_run_dir(old.string(), known);
    REQUIRE(then.rows.size() == now.rows.size() + 1);
    for (std::size_t i = 0; i < now.rows.size(); i++) {
        const BenchRow &a = now.rows[i], &b = then.rows[i];
        CAPTURE(a.variant);
        CHECK(b.variant == a.variant);
        CHECK(b.median_us == a.median_us);
        CHECK(b.algorithm == a.algorithm);  // from this build's registry
        // A frozen point's name does not say it is one: it reads as a named schedule.
        CHECK(b.origin == (a.origin == Origin::frozen_point ? Origin::schedule : a.origin));
        // Format 2 wrote no point: only a sweep point's name gives one back.
        CHECK(b.point == (a.origin == Origin::sweep_point ? a.point : ""));
    }
    CHECK(then.rows.back().origin == Origin::sweep_point);
    CHECK(then.rows.back().point == "rows=32+vectors=2");
    // Format 3 joined a point's axes with spaces: read as the same point, spelled as today.
    const fs::path three = write_format3_copy(run, now);
    const RunDir read3 = load_run_dir(three.string());
    REQUIRE(read3.rows.size() == now.rows.size());
    int points = 0;
    for (std::size_t i = 0; i < now.rows.size(); i++) {
        CHECK(read3.rows[i].point == now.rows[i].point);
        points += !now.rows[i].point.empty();
    }
    CHECK(points > 0);
    // Without the registry's word, an algorithm the run did not record is unknown.
    CHECK(load_run_dir(old.string()).rows.front().algorithm.empty());
    // The report reads it as it reads the run of today: the same tables.
    const Result a = run_cli("report " + run.string() + " --out " + (work() / "report_now").string());
    const Result b = run_cli("report " + old.string() + " --out " + (work() / "report_then").string());
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    const auto tables_now = tables(slurp(work() / "report_now" / "report.md"), "| variant | kind | algorithm |");
    const auto tables_then = tables(slurp(work() / "report_then" / "report.md"), "| variant | kind | algorithm |");
    CHECK(!tables_now.empty());
    CHECK(tables_now == tables_then);
}
