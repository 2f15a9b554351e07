// The command line as a user meets it: the verbs, and every error path ending
// in one clear line on stderr, a non-zero exit and no output file.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

}  // namespace

TEST_CASE("list: one variant per line, and JSON with the supported parameters") {
    const Result plain = run_cli("list");
    CHECK(plain.status == 0);
    CHECK(plain.out.find("box reference cpu reference\n") != std::string::npos);
    CHECK(plain.out.find("box cpu_tiled cpu halide\n") != std::string::npos);
    CHECK(plain.out.find("box cuda_shared_tile cuda halide\n") != std::string::npos);

    const Result json = run_cli("list --json");
    REQUIRE(json.status == 0);
    const auto array = nlohmann::json::parse(json.out);
    REQUIRE(array.is_array());
    bool seen = false;
    for (auto &v : array) {
        for (const char *key : {"filter", "variant", "backend", "kind", "params"}) CHECK(v.contains(key));
        if (v["filter"] == "box" && v["variant"] == "cuda_register_rows") {
            CHECK(v["params"]["radius"] == nlohmann::json::array({1}));
            seen = true;
        }
    }
    CHECK(seen);
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

TEST_CASE("run: every bad input ends cleanly, without an output file") {
    const fs::path out = dir() / "never.png";
    const std::string io = " --output " + out.string();
    expect_failure("run --filter box --input /no/such/file.png" + io, "cannot open", out);
    std::ofstream(dir() / "text.png") << "not an image";
    expect_failure("run --filter box --input " + (dir() / "text.png").string() + io, "unsupported format", out);
    std::ofstream(dir() / "cut.pgm") << "P5\n10 10\n255\nabc";
    expect_failure("run --filter box --input " + (dir() / "cut.pgm").string() + io, "truncated", out);
    std::ofstream(dir() / "huge.pgm") << "P5\n100000 100000\n255\n";
    expect_failure("run --filter box --input " + (dir() / "huge.pgm").string() + io, "too large", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param radius=16", "radius must be", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param radius", "NAME=VALUE", out);
    expect_failure("run --filter box --input " + gray_small + io + " --param size=3", "no parameter", out);
    expect_failure("run --filter boxx --input " + gray_small + io, "unknown filter", out);
    expect_failure("run --filter box --variant nope --input " + gray_small + io, "unknown variant", out);
    expect_failure("run --filter box --variant cuda_register_rows --input " + gray_small + io + " --param radius=3",
                   "supports radius in {1} only", out);
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / "x.jpg").string(),
                   "unsupported output format", dir() / "x.jpg");
    expect_failure("run --filter box --input " + gray_small + " --output /no/such/dir/out.png", "cannot create output");
    std::ofstream(dir() / "tiny.pgm") << "P5\n1 1\n255\nA";
    expect_failure("run --filter maxpool --input " + (dir() / "tiny.pgm").string() + io, "at least 2x2", out);
    if (!cuda::gpu_info().available) {
        expect_failure("run --filter box --variant cuda_tile --input " + gray_small + io, "no GPU", out);
    }
    // Command-line errors: one line, status 1, like the others.
    expect_failure("run --filter box", "--input is required");
    expect_failure("frobnicate", "subcommand");
    expect_failure("bench --sizes abc", "abc");
    CHECK(run_cli("--help").status == 0);
    CHECK(run_cli("run --help").status == 0);
    // A second output that cannot be written: nothing is written at all.
    expect_failure("run --filter median --input " + gray_small + " --output " + (dir() / "first.png").string() +
                       " --noise salt_pepper:0.1 --noisy-output /no/such/dir/n.png",
                   "no such folder", dir() / "first.png");
    expect_failure("run --filter box --input " + gray_small + " --output " + (dir() / "gray.ppm").string(),
                   "holds RGB images only", dir() / "gray.ppm");
}

TEST_CASE("run --noise: the median removes salt-and-pepper noise, and says by how much") {
    const fs::path out = dir() / "median.png", noisy = dir() / "noisy.png";
    const Result r = run_cli("run --filter median --variant cpu_shared_columns --input " + gray_small + " --output " +
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
