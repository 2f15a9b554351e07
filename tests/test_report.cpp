// `filterlab report` as a user meets it: a tiny CPU bench run becomes a report
// whose tables carry the CSV's numbers, whose pictures are the filter's real
// output, and whose images all exist; CPU thread scaling, other machines and
// the CPU verdict. Run directories that are missing, partial or of an older
// format, and the results schema: test_report_runs.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "image_io.h"
#include "noise.h"
#include "reference.h"
#include "registry.h"
#include "report_test_helpers.h"
#include "run_dir.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

using namespace cli_test;
using namespace report_test;

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

// The time and throughput tables against the CSV: each variant's algorithm,
// time, rate and speed-up over the reference at each size.
void check_tables_against_csv(const std::vector<std::vector<std::string>> &times,
                              const std::vector<std::vector<std::string>> &rates, const RunDir &loaded) {
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
}

// The best Halide CPU time at each size is the one marked, and only it
// (a sweep's points have their own section: not in these tables).
void check_best_halide_marked(const std::vector<std::vector<std::string>> &times, const RunDir &loaded) {
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
}

void check_pictures(const std::string &page, const fs::path &out) {
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
}

void check_answer_and_appendix(const std::string &page, const RunDir &loaded, const fs::path &run) {
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
}

void check_report_without_python(const fs::path &run) {
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
    check_tables_against_csv(times, rates, loaded);
    check_best_halide_marked(times, loaded);
    check_pictures(page, out);
    check_answer_and_appendix(page, loaded, run);
    check_report_without_python(run);
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
