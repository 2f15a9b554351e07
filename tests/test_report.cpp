// `filterlab report` as a user meets it: a tiny CPU bench run becomes a report
// whose tables carry the CSV's numbers, whose pictures are the filter's real
// output, and whose images all exist; run directories that are missing,
// partial or of an older format end in one clear line and status 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli_runner.h"
#include "error.h"
#include "image_io.h"
#include "noise.h"
#include "reference.h"
#include "registry.h"
#include "run_dir.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

using namespace cli_test;

// The scratch folder of these tests.
fs::path work() {
    static const fs::path d = [] {
        fs::remove_all(dir() / "report");
        fs::create_directories(dir() / "report");
        return dir() / "report";
    }();
    return d;
}

// A new bench run of the box filter on the CPU at two small sizes; its directory.
fs::path bench_run(const std::string &root) {
    const fs::path runs = work() / root;
    const Result r = run_cli("bench --filter box --backend cpu --sizes 48,96 --param radius=1 --min-reps 3 "
                                      "--min-time 0 --out " + runs.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    REQUIRE(std::distance(fs::directory_iterator(runs), fs::directory_iterator()) == 1);
    return fs::directory_iterator(runs)->path();
}

// The lines of the Markdown table whose header holds `first_column` and the
// size columns, as cells; several tables with the same header, in order.
std::vector<std::vector<std::vector<std::string>>> tables(const std::string &page, const std::string &header_start) {
    std::vector<std::vector<std::vector<std::string>>> found;
    std::stringstream lines(page);
    std::string line;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (line.rfind(header_start, 0) == 0) {
            found.emplace_back();
            inside = true;
        } else if (line.rfind("|", 0) != 0) {
            inside = false;
        }
        if (!inside) continue;
        std::vector<std::string> cells;
        std::stringstream s(line.substr(1));
        std::string cell;
        while (std::getline(s, cell, '|')) cells.push_back(std::regex_replace(cell, std::regex("^ +| +$"), ""));
        found.back().push_back(cells);
    }
    return found;
}

// "697.7 µs" / "**1.493 ms** ×2.47" -> microseconds.
double microseconds(const std::string &cell) {
    std::smatch m;
    REQUIRE(std::regex_search(cell, m, std::regex(R"(([0-9.]+) (µs|ms|s)\b)")));
    const double v = std::stod(m[1]);
    return m[2] == "µs" ? v : m[2] == "ms" ? v * 1e3 : v * 1e6;
}

double number_after(const std::string &cell, const std::string &mark) {
    const auto at = cell.find(mark);
    REQUIRE(at != std::string::npos);
    return std::stod(cell.substr(at + mark.size()));
}

bool python_with_matplotlib() {
    const fs::path python = fs::path(FILTERLAB_IMAGES_DIR).parent_path().parent_path() / ".venv" / "bin" / "python";
    return fs::exists(python) && std::system((python.string() + " -c 'import matplotlib' 2>/dev/null").c_str()) == 0;
}

}  // namespace

TEST_CASE("report: a small bench run becomes tables, pictures and plots that agree with its CSV") {
    const fs::path run = bench_run("runs");
    const RunDir loaded = load_run_dir(run.string());
    const fs::path out = work() / "report";
    const Result made = run_cli("report " + run.string() + " --out " + out.string());
    INFO(made.out, made.err);
    REQUIRE(made.status == 0);
    CHECK(made.out.find("report: " + (out / "report.md").string()) != std::string::npos);
    const std::string page = slurp(out / "report.md");
    REQUIRE(!page.empty());
    INFO(page);

    // The time table, then the throughput table, each with a column per size.
    // The box has two algorithms: a column names each variant's.
    const auto found = tables(page, "| variant | kind | algorithm | 48² | 96² |");
    REQUIRE(found.size() == 2);
    const auto &times = found[0], &rates = found[1];
    std::map<std::pair<std::string, int>, const BenchRow *> csv;
    for (const BenchRow &r : loaded.rows) csv[{r.variant, r.width}] = &r;
    int compared = 0;
    for (std::size_t i = 2; i < times.size(); i++) {  // past the header and the rule
        const std::string name = std::regex_replace(times[i][0], std::regex("`"), "");
        REQUIRE(rates[i][0] == times[i][0]);
        for (int column = 0; column < 2; column++) {
            const int size = column ? 96 : 48;
            REQUIRE(csv.count({name, size}));
            const BenchRow &r = *csv.at({name, size});
            CHECK(times[i][2] == find_variant("box", name).algorithm);
            const std::string &t = times[i][3 + column], &g = rates[i][3 + column];
            if (!r.timed()) {
                CHECK(t == to_string(r.status));
                continue;
            }
            CHECK(microseconds(t) == doctest::Approx(r.median_us).epsilon(0.001));
            if (r.gb_per_s > 0) {
                CHECK(std::stod(std::regex_replace(g, std::regex(R"([*])"), "")) ==
                      doctest::Approx(r.gb_per_s).epsilon(0.01));
            } else {
                CHECK(g.find("<0.01 GB/s") != std::string::npos);
            }
            const BenchRow &ref = *csv.at({"reference", size});
            if (name != "reference") {
                CHECK(number_after(t, "×") == doctest::Approx(ref.median_us / r.median_us).epsilon(0.01));
            }
            compared++;
        }
    }
    CHECK(compared >= 6);  // reference and three Halide CPU schedules at two sizes, at least

    // The best Halide CPU time at each size is the one marked, and only it
    // (a sweep's points have their own section: not in these tables).
    for (int column = 0; column < 2; column++) {
        const int size = column ? 96 : 48;
        const BenchRow *best = nullptr;
        for (const BenchRow &r : loaded.rows)
            if (r.width == size && r.kind == "halide" && r.timed() && r.origin != Origin::sweep_point &&
                (!best || r.median_us < best->median_us))
                best = &r;
        REQUIRE(best);
        for (std::size_t i = 2; i < times.size(); i++) {
            if (times[i][1] != "Halide CPU") continue;
            const bool bold = times[i][3 + column].rfind("**", 0) == 0;
            CHECK(bold == (times[i][0] == "`" + best->variant + "`"));
        }
    }

    // The pictures: the noisy input, and the box filter of exactly that input.
    const Image noisy = read_image((out / "m1_box_noisy.png").string());
    const Image output = read_image((out / "m1_box_output.png").string());
    CHECK(output == reference::box(noisy, 1));
    const Image clean = read_image(test_images_dir() + "/gray_small.png");
    std::smatch m;
    REQUIRE(std::regex_search(page, m, std::regex(R"(PSNR against the clean image: ([0-9.]+) dB \| PSNR against the clean image: ([0-9.]+) dB)")));
    CHECK(std::stod(m[1]) == doctest::Approx(psnr(clean, noisy)).epsilon(0.001));
    CHECK(std::stod(m[2]) == doctest::Approx(psnr(clean, output)).epsilon(0.001));
    CHECK(std::stod(m[2]) > std::stod(m[1]));
    // Every variant that ran is identical to the reference, histogram included.
    const auto identity = tables(page, "| variant | kind | identical to the reference |");
    REQUIRE(identity.size() == 1);
    CHECK(identity[0].size() >= 2 + 4);
    for (std::size_t i = 2; i < identity[0].size(); i++) {
        CHECK(identity[0][i][2] == "yes");
        CHECK(identity[0][i][3] == "identical");
    }

    // Every image the page shows exists; with matplotlib, the plots are there.
    int images = 0;
    const std::regex image(R"(!\[[^\]]*\]\(([^)]+)\))");
    for (auto it = std::sregex_iterator(page.begin(), page.end(), image); it != std::sregex_iterator(); ++it, images++) {
        CHECK(fs::is_regular_file(out / (*it)[1].str()));
    }
    if (python_with_matplotlib()) {
        CHECK(page.find("Plots: made") != std::string::npos);
        for (const char *plot : {"_time.png", "_bars.png"}) CHECK(page.find(plot) != std::string::npos);
        CHECK(fs::is_regular_file(out / "m1_box_histograms.png"));
        CHECK(images >= 5);
    }
    // The page opens with its answer: the best Halide at the largest size is
    // the CSV's fastest Halide row there; the report's own command line is in
    // the appendix, after every detail.
    REQUIRE(page.rfind("# FilterLab report\n\n## The answer\n", 0) == 0);
    const auto answer = tables(page, "| filter | parameters | channels | size | best Halide |");
    REQUIRE(answer.size() == 1);
    REQUIRE(answer[0].size() == 3);  // the header, the rule, box radius=1
    const BenchRow *fastest = nullptr;
    for (const BenchRow &r : loaded.rows)
        if (r.width == 96 && r.kind == "halide" && r.timed() && r.origin != Origin::sweep_point &&
            (!fastest || r.median_us < fastest->median_us))
            fastest = &r;
    REQUIRE(fastest);
    CHECK(answer[0][2][4].find("`" + fastest->variant + "`") == 0);
    CHECK(microseconds(answer[0][2][4].substr(answer[0][2][4].rfind(") ") + 2)) ==
          doctest::Approx(fastest->median_us).epsilon(0.001));
    CHECK(page.find("## Appendix: how this report was made") > page.find("## box"));
    CHECK(page.find("report " + run.string()) > page.find("## Appendix"));
    // The machine facts and the command of the run.
    CHECK(page.find(loaded.context["command"].get<std::string>()) != std::string::npos);
    CHECK(page.find(loaded.context["cpu"]["model"].get<std::string>()) != std::string::npos);

    // Without Python the report is still written, and says the plots were skipped.
    const fs::path bare = work() / "report_bare";
    const Result skipped = run_cli_env("FILTERLAB_PYTHON=/no/python", "report " + run.string() + " --out " + bare.string());
    CHECK(skipped.status == 0);
    CHECK(skipped.err.find("plots skipped") != std::string::npos);
    const std::string bare_page = slurp(bare / "report.md");
    CHECK(bare_page.find("Plots: **skipped**") != std::string::npos);
    CHECK(bare_page.find("_time.png") == std::string::npos);
    CHECK(tables(bare_page, "| variant | kind | algorithm | 48² | 96² |").size() == 2);
}

TEST_CASE("report: bench --threads gives CPU scaling; another machine gets its own section") {
    const fs::path runs = work() / "runs_threads";
    const Result bench = run_cli("bench --filter box --threads 1,2 --sizes 48,96 --param radius=1 --min-reps 3 "
                                 "--min-time 0 --out " + runs.string());
    INFO(bench.out, bench.err);
    REQUIRE(bench.status == 0);
    std::vector<fs::path> dirs{fs::directory_iterator(runs), fs::directory_iterator()};
    REQUIRE(dirs.size() == 2);
    std::sort(dirs.begin(), dirs.end());  // named by time: 1 thread first
    const fs::path one = dirs[0], two = dirs[1];
    for (int t : {1, 2}) {
        const RunDir run = load_run_dir((t == 1 ? one : two).string());
        for (const BenchRow &r : run.rows) {
            CHECK(r.backend == "cpu");
            CHECK(r.kind != "peer");  // peers keep their own thread pools
            CHECK(r.threads == (r.kind == "reference" ? 1 : t));  // the baseline of the speed-ups runs serially
        }
    }
    // The notice of how to see them goes to stderr.
    CHECK(bench.err.find("filterlab report " + one.string() + " " + two.string()) != std::string::npos);
    CHECK(bench.out.find("filterlab report") == std::string::npos);
    // The same results, as if measured on another host.
    const fs::path other = work() / "other_machine";
    fs::copy(two, other, fs::copy_options::recursive);
    auto results = nlohmann::json::parse(slurp(other / "results.json"));
    results["context"]["host_name"] = "elsewhere";
    std::ofstream(other / "results.json") << results.dump();

    const fs::path out = work() / "report_scaling";
    const Result r = run_cli("report " + one.string() + " " + two.string() + " " + other.string() + " --out " + out.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    const std::string page = slurp(out / "report.md");
    INFO(page);
    CHECK(page.find("from 3 runs on 2 machines") != std::string::npos);
    CHECK(page.find("### m2: elsewhere") != std::string::npos);
    // m1 holds both thread counts; m2 only one.
    const auto scaling = tables(page, "| variant | kind | 1 thread | 2 threads |");
    REQUIRE(scaling.size() == 1);
    CHECK(scaling[0].size() >= 2 + 3);
    CHECK(page.find("CPU thread scaling: not measured") != std::string::npos);
}

TEST_CASE("report: the CPU half of the verdict, Halide against the OpenMP and Pthreads baselines") {
    const fs::path runs = work() / "runs_cpu_verdict";
    const Result bench = run_cli("bench --filter gaussian --backend cpu --variant cpu_tiled --variant omp_direct "
                                 "--variant pthreads_rows --sizes 48 --min-reps 3 --min-time 0 --out " + runs.string());
    INFO(bench.out, bench.err);
    REQUIRE(bench.status == 0);
    const fs::path run = fs::directory_iterator(runs)->path();
    const fs::path out = work() / "report_cpu_verdict";
    const Result r = run_cli("report " + run.string() + " --out " + out.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    const std::string page = slurp(out / "report.md");
    INFO(page);
    const auto verdict = tables(page, "| machine | device |");
    REQUIRE(verdict.size() == 1);
    REQUIRE(verdict[0].size() == 3);  // header, rule, one row: m1 on the CPU at 48x48
    CHECK(verdict[0][2][1] == "CPU");
    CHECK(verdict[0][2][4].find("`cpu_tiled`") != std::string::npos);
    CHECK((verdict[0][2][5].find("`omp_direct`") != std::string::npos ||
           verdict[0][2][5].find("`pthreads_rows`") != std::string::npos));
    // Both baselines' lines are counted from their sources.
    CHECK(page.find("`handwritten/gaussian/gaussian_openmp.cpp`") != std::string::npos);
    CHECK(page.find("`handwritten/gaussian/gaussian_pthreads.cpp`") != std::string::npos);
}

TEST_CASE("report: missing, partial and old run directories are refused with one clear line") {
    const fs::path run = bench_run("runs_errors");
    const std::string out = " --out " + (work() / "never").string();
    expect_failure("report /no/such/run" + out, "no such run directory");
    expect_failure("report " + run.string() + " " + run.string() + out, "given twice");
    fs::create_directories(work() / "empty");
    expect_failure("report " + (work() / "empty").string() + out, "not a bench run directory");

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

    // A run whose bench found no real image: the report says so, and is made.
    fs::create_directories(work() / "no_images");
    const Result bench = run_cli("bench --filter box --variant cpu_tiled --sizes 16 --min-reps 3 --min-time 0 --images " +
                                 (work() / "no_images").string() + " --out " + (work() / "runs_no_images").string());
    REQUIRE(bench.status == 0);
    const fs::path bare_run = fs::directory_iterator(work() / "runs_no_images")->path();
    const Result made = run_cli("report " + bare_run.string() + " --out " + (work() / "report_no_images").string());
    REQUIRE(made.status == 0);
    CHECK(slurp(work() / "report_no_images" / "report.md").find("No pictures from m1: ") != std::string::npos);

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
                     .origin = Origin::sweep_point, .algorithm = "direct", .point = "rows=16 vectors=4", .width = 48,
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
        CHECK(back.point == "rows=16 vectors=4");
        CHECK(back.width == 48);
        CHECK(back.channels == 3);
        CHECK(back.median_us == doctest::Approx(12.5));
        CHECK(back.max_us == doctest::Approx(14.125));
        CHECK(back.threads == 16);
        CHECK(back.note == "a note; with commas; kept");
    }
    CHECK(results_csv_header().rfind(
              "filter,variant,backend,kind,origin,algorithm,point,width,height,channels,params,status,", 0) == 0);
    CHECK(format2_csv_header().rfind("filter,variant,backend,kind,width,height,channels,params,status,", 0) == 0);
    CHECK(point_text({{"tile_x", 64}, {"tile_y", 8}}) == "tile_x=64 tile_y=8");
    CHECK(point_text({}).empty());
    CHECK_THROWS_AS(parse_status("fine"), Error);
    CHECK_THROWS_WITH_AS(parse_csv_line("box,cpu_tiled"), doctest::Contains("2 fields, expected 24"), Error);
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
    CHECK(now.context["format"] == 3);
    std::set<Origin> origins;
    for (const BenchRow &r : now.rows) {
        const Variant &v = find_variant(r.filter, r.variant);
        CAPTURE(r.variant);
        CHECK(r.origin == v.origin);
        CHECK(r.algorithm == v.algorithm);
        CHECK(r.point == point_text(v.point));
        origins.insert(r.origin);
    }
    // The box's CPU variants: the reference, named schedules, a frozen point, autoschedules, a peer (OpenCV).
    for (Origin o : {Origin::reference, Origin::schedule, Origin::frozen_point, Origin::autoscheduler, Origin::peer})
        CHECK(origins.count(o) == 1);

    // The same run written as format 2 did (no origin, algorithm or point; no
    // algorithms in the context), with a sweep's point added.
    const fs::path old = work() / "format2";
    fs::copy(run, old, fs::copy_options::recursive);
    auto results = nlohmann::json::parse(slurp(old / "results.json"));
    results["context"]["format"] = 2;
    std::ofstream(old / "results.json") << results.dump();
    std::ofstream csv(old / "results.csv");
    csv << format2_csv_header() << "\n";
    auto format2_line = [](const BenchRow &r) {  // without the 5th, 6th and 7th fields
        std::string line = to_csv_line(r);
        std::size_t fifth = 0;
        for (int i = 0; i < 4; i++) fifth = line.find(',', fifth) + 1;
        std::size_t eighth = fifth;
        for (int i = 0; i < 3; i++) eighth = line.find(',', eighth) + 1;
        return line.erase(fifth, eighth - fifth);
    };
    for (const BenchRow &r : now.rows) csv << format2_line(r) << "\n";
    BenchRow point = now.rows.back();
    point.variant = "cpu_sliding[rows=32+vectors=2]", point.kind = "halide";
    csv << format2_line(point) << "\n";
    csv.close();

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
    CHECK(then.rows.back().point == "rows=32 vectors=2");
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
