// `filterlab bench` from the command line: the batch mode on the CPU and the
// GPU, its option errors, progress on stderr with Google Benchmark's
// aggregate rows, and the --budget. The other verbs: test_cli.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "cuda_support.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

using namespace cli_test;

// The rows of a CSV file without quoted cells, each by column name.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path &path) {
    std::ifstream in(path);
    auto split = [](const std::string &line) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
        if (!line.empty() && line.back() == ',') cells.emplace_back();
        return cells;
    };
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = split(line);
        REQUIRE(cells.size() == header.size());
        rows.emplace_back();
        for (std::size_t i = 0; i < cells.size(); i++) rows.back()[header[i]] = cells[i];
    }
    return rows;
}

// The only run directory under `root`.
fs::path only_run(const fs::path &root) {
    std::vector<fs::path> runs;
    for (auto &entry : fs::directory_iterator(root)) runs.push_back(entry.path());
    REQUIRE(runs.size() == 1);
    return runs[0];
}

double number(const std::map<std::string, std::string> &row, const std::string &column) {
    INFO(column, " = '", row.at(column), "'");
    REQUIRE(!row.at(column).empty());
    return std::stod(row.at(column));
}

const char *const kTransferColumns[] = {"h2d_pageable_ms", "h2d_pinned_ms",     "d2h_pageable_ms",
                                        "d2h_pinned_ms",   "total_pageable_ms", "total_pinned_ms", "total_streams_ms"};

}  // namespace

TEST_CASE("bench --batch: a small CPU batch gives one timed row per variant and channel count") {
    const fs::path root = dir() / "batch-cpu";
    const Result r = run_cli("bench --batch 3 --batch-size 96x64 --channels 1,3 --filter maxpool --backend cpu "
                             "--min-reps 3 --min-time 0 --out " + root.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    const fs::path run = only_run(root);
    const auto rows = read_csv(run / "batch.csv");

    // Every CPU variant of maxpool, the reference included, at 1 and 3 channels.
    std::multiset<std::string> expected, seen;
    std::stringstream list(run_cli("list --filter maxpool").out);
    for (std::string filter, variant, backend, kind; list >> filter >> variant >> backend >> kind;) {
        if (backend == "cpu") expected.insert({variant + "/1", variant + "/3"});
    }
    REQUIRE(expected.size() >= 4);
    for (const auto &row : rows) {
        INFO(row.at("variant"), " ", row.at("channels"), " ", row.at("note"));
        seen.insert(row.at("variant") + "/" + row.at("channels"));
        CHECK(row.at("filter") == "maxpool");
        CHECK(row.at("backend") == "cpu");
        CHECK(row.at("status") == "ok");
        CHECK(row.at("images") == "3");
        CHECK(row.at("width") == "96");
        CHECK(row.at("height") == "64");
        for (const char *column : {"to_planar_ms", "to_interleaved_ms", "kernel_ms", "kernel_p25_ms", "kernel_p75_ms",
                                   "per_image_ms", "mp_per_s"}) {
            CHECK(number(row, column) > 0);
        }
        CHECK(number(row, "kernel_p25_ms") <= number(row, "kernel_ms"));
        CHECK(number(row, "kernel_ms") <= number(row, "kernel_p75_ms"));
        CHECK(number(row, "per_image_ms") == doctest::Approx(number(row, "kernel_ms") / 3).epsilon(1e-3));
        CHECK(number(row, "mp_per_s") ==
              doctest::Approx(3 * 96 * 64 / (number(row, "kernel_ms") * 1e3)).epsilon(1e-2));
        CHECK(number(row, "samples") >= 3);
        for (const char *column : kTransferColumns) CHECK(row.at(column).empty());
    }
    CHECK(seen == expected);

    const auto json = nlohmann::json::parse(slurp(run / "batch.json"));
    CHECK(json["results"].size() == rows.size());
    CHECK(json["context"]["batch"]["images"] == 3);
    CHECK(json["context"]["command"].get<std::string>().find("--batch 3") != std::string::npos);
    CHECK(json["results"][0]["phases"]["h2d_pinned"].is_null());
    CHECK(json["results"][0]["phases"]["kernel"]["median_ms"].get<double>() > 0);
    CHECK(fs::exists(run / "batch.txt"));
}

TEST_CASE("bench --batch: CUDA variants are timed on a GPU, and skipped without one") {
    const fs::path root = dir() / "batch-cuda";
    const Result r = run_cli("bench --batch 2 --batch-size 200x120 --channels 3 --filter gaussian --backend cuda "
                             "--min-reps 3 --min-time 0 --out " + root.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    const auto rows = read_csv(only_run(root) / "batch.csv");
    REQUIRE(!rows.empty());
    const bool gpu = cuda::gpu_info().available;
    for (const auto &row : rows) {
        INFO(row.at("variant"), " ", row.at("note"));
        CHECK(row.at("backend") == "cuda");
        if (!gpu) {
            CHECK(row.at("status") == "skipped");
            CHECK(row.at("note").find("no GPU") != std::string::npos);
            CHECK(row.at("kernel_ms").empty());
            continue;
        }
        if (row.at("status") == "skipped") continue;  // a peer library absent, a parameter not supported
        CHECK((row.at("status") == "ok" || row.at("status") == "differs"));
        for (const char *column : kTransferColumns) CHECK(number(row, column) > 0);
        CHECK(number(row, "kernel_ms") > 0);
        CHECK(number(row, "mp_per_s_pinned") > 0);
    }
}

TEST_CASE("bench --batch: bad options end in one line, before any run directory") {
    const fs::path root = dir() / "batch-never";
    const std::string out = " --out " + root.string();
    expect_usage_error("bench --batch 0" + out, "--batch", root);
    expect_usage_error("bench --batch 1001" + out, "--batch", root);
    expect_failure("bench --batch 2 --batch-size 64by48" + out, "must be WIDTHxHEIGHT", root);
    expect_failure("bench --batch 2 --batch-size 64x" + out, "must be WIDTHxHEIGHT", root);
    expect_failure("bench --batch 2 --batch-size x64" + out, "must be WIDTHxHEIGHT", root);
    expect_failure("bench --batch 2 --batch-size 64x-4" + out, "must be WIDTHxHEIGHT", root);
    expect_failure("bench --batch 2 --batch-size 0x64" + out, "each side must be 1..65536", root);
    expect_failure("bench --batch 2 --batch-size 100000x64" + out, "each side must be 1..65536", root);
    expect_failure("bench --batch 2 --batch-size 99999999999999999999x64" + out, "each side must be", root);
    expect_failure("bench --batch 2 --batch-size 60000x60000" + out, "too large", root);
    expect_failure("bench --batch 1000 --batch-size 16384x16384 --filter maxpool --backend cpu" + out, "host memory",
                   root);
    expect_failure("bench --batch 2 --batch-size 1x1 --filter maxpool" + out, "at least 2x2", root);
    expect_usage_error("bench --batch 2 --sizes 256" + out, "excludes", root);
    expect_usage_error("bench --batch-size 64x64" + out, "requires", root);
    expect_failure("bench --batch 2 --filter nope" + out, "unknown filter", root);
}

TEST_CASE("bench: progress on stderr, results on stdout, and Google Benchmark's aggregate rows in results.json") {
    const fs::path root = dir() / "aggregates";
    const Result r = run_cli("bench --filter maxpool --variant cpu_vectorized --backend cpu --sizes 64,96 --min-reps 5 "
                             "--min-time 0 --out " + root.string());
    INFO(r.err);
    REQUIRE(r.status == 0);
    // Results on stdout; progress, with the time left, on stderr.
    CHECK(r.out.find("results: ") != std::string::npos);
    CHECK(r.out.find("[1/2") == std::string::npos);
    CHECK(r.err.find("[1/2] maxpool cpu_vectorized") != std::string::npos);
    CHECK(r.err.find("[2/2, ") != std::string::npos);
    const auto json = nlohmann::json::parse(slurp(only_run(root) / "results.json"));
    int iterations = 0;
    std::map<std::string, std::map<std::string, double>> aggregates;
    for (const auto &row : json["benchmarks"]) {
        if (row["run_type"] == "iteration") {
            iterations++;
            continue;
        }
        CHECK(row["run_type"] == "aggregate");
        CHECK(row["run_name"].get<std::string>() + "_" + row["aggregate_name"].get<std::string>() == row["name"]);
        aggregates[row["run_name"]][row["aggregate_name"]] = row["real_time"];
    }
    CHECK(iterations == 2);
    REQUIRE(aggregates.size() == 2);
    for (const auto &[name, a] : aggregates) {
        CAPTURE(name);
        for (const char *k : {"mean", "median", "stddev", "cv"}) CHECK(a.count(k) == 1);
        CHECK(a.at("mean") > 0);
        CHECK(a.at("stddev") >= 0);
        CHECK(a.at("cv") == doctest::Approx(a.at("stddev") / a.at("mean")));
    }
}

TEST_CASE("bench --budget: a case that cannot fit is skipped and said so; the others are timed within the budget") {
    const fs::path root = dir() / "budget", no_images = dir() / "budget-no-images";
    fs::create_directories(no_images);  // no gallery: the cases have the whole budget
    // The NL-means reference at 128x128 with a 15x15 search window takes about
    // a second a run: three samples cannot fit in half of a 3-second budget.
    const Result r = run_cli("bench --filter nlmeans --variant reference --filter maxpool --variant cpu_vectorized "
                             "--backend cpu --sizes 128 --param search=7 --min-reps 3 --min-time 0 --budget 3 --images " +
                             no_images.string() + " --out " + root.string());
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("budget: ") != std::string::npos);
    const std::string csv = slurp(only_run(root) / "results.csv");
    CHECK(csv.find("over the bench's --budget") != std::string::npos);
    std::istringstream rows(csv);
    std::string line;
    int timed = 0;
    while (std::getline(rows, line)) timed += line.rfind("maxpool,cpu_vectorized", 0) == 0 && line.find(",ok,") != std::string::npos;
    CHECK(timed == 1);
    const auto json = nlohmann::json::parse(slurp(only_run(root) / "results.json"));
    CHECK(json["context"]["budget_seconds"] == 3.0);
    expect_usage_error("bench --budget 0 --out " + (root / "never").string(), "--budget", root / "never");
}
