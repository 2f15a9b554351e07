// The command line as a user meets it: the verbs, and every error path ending
// in one clear line on stderr, a non-zero exit and no output file. The bench's
// batch mode, progress, aggregates and budget: test_cli_bench.cpp.
#include <algorithm>
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "cuda_support.h"
#include "image_io.h"
#include "noise.h"
#include "reference.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

using namespace cli_test;

const std::string gray_small = test_images_dir() + "/gray_small.png";

// A variant's paths in `list --json` (FILTERLAB_SHAPES): every DSL CUDA variant
// compiled for each of the build's shapes, with a library for each; other
// Halide variants generic only; the rest no paths.
void check_paths(const nlohmann::json &v) {
    CAPTURE(v["variant"]);
    const bool dsl = v["kind"] == "halide" || v["kind"] == "tvm";
    REQUIRE(v["paths"].is_null() == !dsl);
    if (!dsl) return;
    CHECK(v["paths"]["generic"] == true);
    std::vector<std::string> expected;
    const std::string shapes = FILTERLAB_SHAPES;
    for (std::size_t start = 0; v["backend"] == "cuda" && start < shapes.size();) {
        const std::size_t comma = std::min(shapes.find(',', start), shapes.size());
        expected.push_back(shapes.substr(start, comma - start));
        start = comma + 1;
    }
    std::vector<std::string> built = v["paths"]["exact_shapes"];  // the class, and those Halide refused, said why
    if (v["paths"]["aligned"] == true) built.push_back("aligned");
    for (auto &[shape, why] : v["paths"]["refused_shapes"].items()) {
        CHECK(!why.get<std::string>().empty());
        built.push_back(shape);
    }
    std::sort(built.begin(), built.end());
    std::sort(expected.begin(), expected.end());
    CHECK(built == expected);
    if (v["kind"] != "halide") return;
    for (const std::string &shape : expected) {  // a twin library of each
        bool found = false;
        for (auto &lib : v["libraries"])
            found |= lib["library"].get<std::string>().find("_" + shape + ".a") != std::string::npos;
        CHECK_MESSAGE(found, shape);
    }
}

}  // namespace

TEST_CASE("list: one variant per line, and JSON with the supported parameters") {
    const Result plain = run_cli("list");
    CHECK(plain.status == 0);
    CHECK(plain.out.find("box reference cpu reference\n") != std::string::npos);
    CHECK(plain.out.find("box cpu_tiled cpu halide\n") != std::string::npos);
    CHECK(plain.out.find("box cuda_shared_tile cuda halide\n") != std::string::npos);

    const Result json = run_cli("list --json");
    REQUIRE(json.status == 0);
    const auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["format_version"] == 1);
    REQUIRE(doc["variants"].is_array());
    int seen = 0;
    // The build's archives (FILTERLAB_ARCHIVES_DIR, tests/CMakeLists.txt; not there on the GPU machine).
    const std::filesystem::path archives = FILTERLAB_ARCHIVES_DIR;
    for (auto &v : doc["variants"]) {
        for (const char *key : {"filter", "variant", "backend", "kind", "params", "computes_contract", "tolerance",
                                "available", "why_unavailable", "source", "libraries", "api"}) {
            CHECK(v.contains(key));
        }
        if (v["kind"] == "tvm" && std::filesystem::is_directory(archives)) {  // a sweep or frozen point's too
            for (auto &lib : v["libraries"])
                CHECK_MESSAGE(std::filesystem::exists(archives / lib["library"].get<std::string>()), lib["library"]);
        }
        CHECK(v["available"] == v["why_unavailable"].is_null());
        check_paths(v);
        if (v["filter"] == "box" && v["variant"] == "cuda_rows8") {
            CHECK(v["params"]["radius"]["values"] == nlohmann::json::array({1}));
            CHECK(v["params"]["radius"]["values"][0].is_number_integer());  // integers as integers
            CHECK(v["params"]["radius"]["default"] == 1);
            CHECK(v["available"] == cuda::gpu_info().available);
            CHECK(v["source"]["file"] == "schedules/box/box_cuda.cpp");
            CHECK(v["libraries"][0]["entry_point"] == "filterlab::halide::box_cuda_rows8");
            seen++;
        }
        if (v["filter"] == "median" && v["variant"] == "cpu_naive") {  // one library per size
            CHECK(v["libraries"].size() == 3);
            CHECK(v["libraries"][2]["library"] == "libmedian_cpu_naive_size7.a");
            CHECK(v["api"] == "filterlab::run(\"median\", in, out, params, {\"cpu_naive\"})");
            seen++;
        }
        if (v["variant"] == "npp_box" || v["variant"] == "opencv_gaussian_blur") {
            CHECK(v["computes_contract"] == false);  // a script can tell a peer computes another function
            seen++;
        }
        if (v["filter"] == "nlmeans" && v["variant"] == "reference") {
            CHECK(v["tolerance"] != "exact");
            CHECK(v["params"]["h"]["default"].is_number_float());
            CHECK(v["params"]["h"]["min"] == doctest::Approx(0.001));
            seen++;
        }
    }
    CHECK(seen >= 4);
}

TEST_CASE("the CLI's conventions: --version, exit statuses, info --json, check --json and JUnit, stdin and stdout") {
    const Result version = run_cli("--version");
    CHECK(version.status == 0);
    CHECK(version.out.rfind("filterlab ", 0) == 0);
    for (const char *part : {"commit", "Halide 21", "targets: cpu:", "CUDA runtime"}) CHECK(version.out.find(part) != std::string::npos);

    CHECK(run_cli("--no-such-option").status == 2);
    CHECK(run_cli("run --filter box --input x.png").status == 2);   // --output missing: usage
    CHECK(run_cli("run --filter box --input /no/such.png --output " + (dir() / "o.png").string()).status == 1);

    const auto facts = nlohmann::json::parse(run_cli("info --json").out);
    CHECK(facts["format_version"] == 1);
    CHECK(facts["build"]["halide_version"] == "21.0.0");
    CHECK(facts.contains("gpu"));
    if (!cuda::gpu_info().available) CHECK(facts["gpu"]["absent"].get<std::string>().find("NVIDIA driver") != std::string::npos);

    const fs::path junit = dir() / "check.xml";
    const Result check = run_cli("check --filter maxpool --variant cpu_vectorized --quick --json --junit " + junit.string());
    INFO(check.err);
    REQUIRE(check.status == 0);
    const auto results = nlohmann::json::parse(check.out);  // stdout holds the JSON alone
    CHECK(results["format_version"] == 1);
    CHECK(results["failed"] == 0);
    REQUIRE(results["variants"].size() == 1);
    CHECK(results["variants"][0]["result"] == "ok");
    CHECK(results["variants"][0]["passed"].get<int>() > 0);
    CHECK(check.err.find("cases done") != std::string::npos);  // the progress, on stderr
    const std::string xml = slurp(junit);
    CHECK(xml.find("<testsuite name=\"filterlab check\" tests=\"1\" failures=\"0\"") != std::string::npos);
    CHECK(xml.find("<testcase classname=\"filterlab.maxpool\" name=\"cpu_vectorized\"") != std::string::npos);
    const Result quiet = run_cli("check --filter maxpool --variant cpu_vectorized --quick --json --quiet");
    CHECK(quiet.err.empty());
    // Without --json too, standard output holds the results alone.
    const Result table = run_cli("check --filter maxpool --variant cpu_vectorized --quick");
    REQUIRE(table.status == 0);
    CHECK(table.out.find("cases done") == std::string::npos);
    CHECK(table.out.find("real images:") == std::string::npos);
    CHECK(table.err.find("cases done") != std::string::npos);
    CHECK(table.out.find("maxpool   cpu_vectorized") != std::string::npos);

    // run: - is standard input and standard output.
    const fs::path piped = dir() / "piped.pgm";
    const std::string pipeline = filterlab_exe() + " run --quiet --filter box --param radius=2 --input - --output - " +
                                 "--format pgm < " + gray_small + " > " + piped.string();
    REQUIRE(std::system(pipeline.c_str()) == 0);
    CHECK(read_image(piped.string()) == reference::box(read_image(gray_small), 2));
    expect_failure("run --filter box --input " + gray_small + " --output -", "--format", {});
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / "x.png").string() + " --format png",
                   "--format is for --output - only", dir() / "x.png");
}

TEST_CASE("run: a filtered image equal to the reference, in every output format") {
    for (const char *ext : {".png", ".pgm", ".bmp"}) {
        const fs::path out = dir() / (std::string("box") + ext);
        const Result r = run_cli("run --filter box --variant cpu_sliding --input " + gray_small + " --output " +
                                   out.string() + " --param radius=2");
        INFO(r.err);
        REQUIRE(r.status == 0);
        Image expected = reference::box(read_image(gray_small), 2);
        Image actual = read_image(out.string());
        if (std::string(ext) == ".bmp") {
            REQUIRE(actual.channels() == 3);
            CHECK(std::equal(expected.samples().begin(), expected.samples().end(), actual.samples().begin()));
        } else {
            CHECK(actual == expected);
        }
    }
}

// A PNG input is read row by row into a PNG or a PGM (the summary says
// "streamed"); a BMP output keeps the whole-image path. Each is exact.
TEST_CASE("run: a PNG input streamed in bands, exact in every output format") {
    const Image expected = reference::median(read_image(gray_small), 5);
    for (const char *ext : {".png", ".pgm", ".bmp"}) {
        const fs::path out = dir() / (std::string("median_bands") + ext);
        const Result r = run_cli("run --filter median --variant reference --param size=5 --band-rows 3 --input " +
                                 gray_small + " --output " + out.string());
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK((r.out.find("streamed in") != std::string::npos) == (std::string(ext) != ".bmp"));
        const Image actual = read_image(out.string());
        CHECK(std::equal(expected.samples().begin(), expected.samples().end(), actual.samples().begin()));
    }
}

TEST_CASE("run: every bad input ends cleanly, without an output file") {
    const fs::path out = dir() / "never.png";
    const std::string io = " --output " + out.string();
    expect_failure("run --filter box --input /no/such/file.png" + io, "cannot open", out);
    std::ofstream(dir() / "text.png") << "not an image";
    expect_failure("run --filter box --input " + (dir() / "text.png").string() + io, "unsupported format", out);
    std::ofstream(dir() / "cut.pgm") << "P5\n10 10\n255\nabc";
    expect_failure("run --filter box --input " + (dir() / "cut.pgm").string() + io, "truncated", out);
    std::ofstream(dir() / "huge.pgm") << "P5\n100000 100000\n255\n";
    // Read whole, its size is refused; streamed (a PGM), its missing samples.
    expect_failure("run --whole-image --filter box --input " + (dir() / "huge.pgm").string() + io, "too large", out);
    expect_failure("run --filter box --input " + (dir() / "huge.pgm").string() + io,
                   "file is truncated (0 of 10000000000 sample bytes)", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param radius=16", "radius must be", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param radius", "NAME=VALUE", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param size=3", "no parameter", out);
    expect_failure("run --filter boxx --input " + gray_small + io, "unknown filter", out);
    expect_failure("run --filter box --variant nope --input " + gray_small + io, "unknown variant", out);
    expect_failure("run --filter box --variant cuda_rows8 --input " + gray_small + io + " --param radius=3",
                   "supports radius in {1} only", out);
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / "x.jpg").string(),
                   "unsupported output format", dir() / "x.jpg");
    expect_failure("run --filter box --input " + gray_small + " --output /no/such/dir/out.png", "cannot create output");
    std::ofstream(dir() / "tiny.pgm") << "P5\n1 1\n255\nA";
    expect_failure("run --filter maxpool --input " + (dir() / "tiny.pgm").string() + io, "at least 2x2", out);
    if (!cuda::gpu_info().available) {
        expect_failure("run --filter box --variant cuda_tile --input " + gray_small + io, "no GPU", out);
    }
    expect_failure("run --filter box --variant reference --gpus 2 --input " + gray_small + io, "not a CUDA variant", out);
    if (cuda::device_count() > 0) {  // more GPUs than are visible
        expect_failure("run --filter box --variant cuda_tile --gpus " + std::to_string(cuda::device_count() + 1) +
                           " --input " + gray_small + io,
                       "GPUs visible", out);
    }
    // Command-line errors: one line, status 1, like the others.
    expect_usage_error("run --filter box", "--input is required");
    expect_usage_error("frobnicate", "unknown command");
    expect_usage_error("bench --sizes abc", "abc");
    CHECK(run_cli("--help").status == 0);
    CHECK(run_cli("run --help").status == 0);
    // A second output that cannot be written: nothing is written at all.
    expect_failure("run --filter median --input " + gray_small + " --output " + (dir() / "first.png").string() +
                       " --noise salt_pepper:0.1 --noisy-output /no/such/dir/n.png",
                   "no such folder", dir() / "first.png");
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / "gray.ppm").string(),
                   "holds RGB images only", dir() / "gray.ppm");
    // A PNG whose image data is corrupt halfway: the streamed run stops at
    // that row and leaves no output.
    std::ifstream png_in(gray_small, std::ios::binary);
    std::string png((std::istreambuf_iterator<char>(png_in)), {});
    for (std::size_t i = png.size() / 2; i < png.size() / 2 + 64; i++) png[i] = static_cast<char>(png[i] ^ 0x5a);
    std::ofstream(dir() / "corrupt.png", std::ios::binary) << png;
    expect_failure("run --filter box --band-rows 4 --input " + (dir() / "corrupt.png").string() + io, "corrupt PNG",
                   out);
}

TEST_CASE("run --noise: the median removes salt-and-pepper noise, and says by how much") {
    const fs::path out = dir() / "median.png", noisy = dir() / "noisy.png";
    const Result r = run_cli("run --filter median --variant cpu_sep_strips --input " + gray_small + " --output " +
                             out.string() + " --noise salt_pepper:0.1 --seed 3 --noisy-output " + noisy.string());
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    double before = 0, after = 0;
    const auto at = r.out.find("noisy input ");
    REQUIRE(at != std::string::npos);
    REQUIRE(std::sscanf(r.out.c_str() + at, "noisy input %lf dB, filtered %lf dB", &before, &after) == 2);
    CHECK(before < 20);
    CHECK(after > before + 10);
    // The figures are those of the files written.
    const Image clean = read_image(gray_small), noisy_image = read_image(noisy.string());
    CHECK(psnr(clean, noisy_image) == doctest::Approx(before).epsilon(0.001));
    CHECK(psnr(clean, read_image(out.string())) == doctest::Approx(after).epsilon(0.001));
    expect_failure("run --filter median --input " + gray_small + " --output " + (dir() / "x.png").string() +
                       " --noise pepper:0.1",
                   "unknown noise", dir() / "x.png");
    expect_failure("run --filter median --input " + gray_small + " --output " + (dir() / "x.png").string() +
                       " --noise salt_pepper:2",
                   "density", dir() / "x.png");
}

TEST_CASE("check and info") {
    const Result check = run_cli("check --filter box --variant cpu_tiled --quick");
    INFO(check.out, check.err);
    CHECK(check.status == 0);
    CHECK(check.out.find("cpu_tiled") != std::string::npos);
    CHECK(check.out.find(" 0 failed") != std::string::npos);
    expect_failure("check --filter box --variant nope", "unknown variant");
    expect_failure("check --variant cpu_tiled", "needs --filter");

    const Result info = run_cli("info");
    CHECK(info.status == 0);
    // A plugin that cannot load is reported, and nothing else breaks.
    fs::create_directories(dir() / "plugins");
    std::ofstream(dir() / "plugins" / "libfilterlab_broken.so") << "not a shared library";
    const Result broken = run_cli_env("FILTERLAB_PLUGIN_DIR=" + (dir() / "plugins").string(), "info");
    CHECK(broken.status == 0);
    CHECK(broken.out.find("plugin:         broken: not loaded") != std::string::npos);
    CHECK(info.out.find("Halide targets:") != std::string::npos);
    CHECK(info.out.find("GPU:") != std::string::npos);
}
