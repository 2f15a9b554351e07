// The report's line counts on a small source tree written here, where every
// count is known: comments and blank lines never count, a schedule counts its
// body, a kernel counts what its registration reaches and nothing else.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "registry.h"
#include "source_lines.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

// The schedules of the fixture tree: registrations, blocks, shared helpers.
void write_schedules(const fs::path &root) {
    std::ofstream(root / "schedules" / "box" / "box_cpu.cpp") << R"(// header comment
#include "box.h"
using filterlab::schedules::strips;

// The first.
FILTERLAB_SCHEDULE(box, cpu, plain) {
    p.output.compute_root();  // one line

    /* a block
       comment */
    p.row_sum.compute_root();
}

FILTERLAB_SCHEDULE(box, cpu, helped, SUPPORTS("radius=1")) {
    strips(p, 8);
}

FILTERLAB_SCHEDULE(box, cpu,
                   blocked) {
    box_blocks(p);
    blur_blocks(p);
}
)";
    // A helper beside the schedules (the filter's own) and one of another
    // filter's schedules (shared), each calling the shared helper.
    std::ofstream(root / "schedules" / "box" / "box_blocks.h") << R"(#pragma once
inline void box_blocks(P &p) {
    strips(p, 2);
}
)";
    fs::create_directories(root / "schedules" / "blur");
    std::ofstream(root / "schedules" / "blur" / "blur_blocks.h") << R"(#pragma once
inline void blur_blocks(P &p) {
    p.output.compute_root();
    strips(p, 4);
}
)";
    std::ofstream(root / "schedules" / "schedule_helpers.h") << R"(#pragma once
namespace filterlab::schedules {
// Splits into strips.
template <typename P>
void strips(P &p, int rows) {
    p.output.split(p.y, rows);
}
void unused() {}
}  // namespace filterlab::schedules
)";
}

// The algorithm and the handwritten kernels of the fixture tree.
void write_algorithm_and_kernels(const fs::path &root) {
    std::ofstream(root / "generators" / "box.h") << "// the algorithm\nstruct Box {\n    int r;\n};\n";
    std::ofstream(root / "handwritten" / "box" / "kernels.cu") << R"(#include "shared.cuh"
namespace filterlab::handwritten {
namespace {

constexpr int kBlock = 16;  // used by the first kernel only

__device__ int helper(int v) { return v + 1; }

__global__ void first_kernel(int *out) {
    out[threadIdx.x] = helper(kBlock);
}

__global__ void __launch_bounds__(64) second_kernel(int *out) {
    out[threadIdx.x] = shared_helper(2);  // "{" in a comment and in a string: "}"
}

void run_first(int *out) { first_kernel<<<1, kBlock>>>(out); }
void run_second(int *out) {
    second_kernel<<<1, 64>>>(out);
}

const VariantRegistration first{{"box", "hw_first", run_first}};
const VariantRegistration second{{"box", "hw_second", run_second}};

}  // namespace
}  // namespace filterlab::handwritten
)";
    std::ofstream(root / "handwritten" / "shared.cuh") << R"(#pragma once
__device__ inline int shared_helper(int v) {
    return 2 * v;
}
__device__ inline int other_helper(int v) { return v; }
)";
}

fs::path tree() {
    const fs::path root = fs::temp_directory_path() / ("filterlab_lines_" + std::to_string(::getpid()));
    fs::create_directories(root / "schedules" / "box");
    fs::create_directories(root / "generators");
    fs::create_directories(root / "handwritten" / "box");
    write_schedules(root);
    write_algorithm_and_kernels(root);
    return root;
}

}  // namespace

TEST_CASE("line counts: comments and blank lines never count") {
    CHECK(count_code_lines("a;\n\n// only comment\n  /* block\n */ b; // trailing\nc = \"// not a comment\";\n") == 3);
    CHECK(count_code_lines("") == 0);
}

TEST_CASE("line counts: a schedule's body, and the shared helpers it calls") {
    const fs::path root = tree();
    const std::string file = "schedules/box/box_cpu.cpp";
    const auto plain = schedule_lines(root.string(), "box", {file, 6, 12});
    REQUIRE(plain);
    CHECK(plain->own == 2);
    CHECK(plain->shared == 0);
    CHECK(plain->file == "schedules/box/box_cpu.cpp");
    const auto helped = schedule_lines(root.string(), "box", {file, 14, 16});
    REQUIRE(helped);
    CHECK(helped->own == 1);
    CHECK(helped->shared == 4);  // template line, signature, body, brace; `unused` is not reached
    CHECK(helped->shared_parts == std::vector<std::string>{"strips"});
    const auto blocked = schedule_lines(root.string(), "box", {file, 18, 22});  // a registration over two lines
    REQUIRE(blocked);
    CHECK(blocked->own == 2 + 3);  // the body; box_blocks
    CHECK(blocked->shared == 4 + 4);  // blur_blocks; strips
    // A span that no longer fits a definition (the file changed since the
    // build read it), a missing file, no span at all: not counted.
    CHECK(!schedule_lines(root.string(), "box", {file, 6, 11}));
    CHECK(!schedule_lines(root.string(), "box", {file, 7, 12}));
    CHECK(!schedule_lines(root.string(), "box", {"schedules/box/box_absent.cpp", 6, 12}));
    CHECK(!schedule_lines(root.string(), "box", {}));
    CHECK(algorithm_lines(root.string(), "box") == 3);
    fs::remove_all(root);
}

TEST_CASE("line counts: a kernel with its helpers, wrapper and registration, not its neighbour's") {
    const fs::path root = tree();
    const auto first = handwritten_lines(root.string(), "box", "hw_first");
    REQUIRE(first);
    // registration 1, run_first 1, first_kernel 3, helper 1, kBlock 1
    CHECK(first->own == 7);
    CHECK(first->shared == 0);
    const auto second = handwritten_lines(root.string(), "box", "hw_second");
    REQUIRE(second);
    // registration 1, run_second 3, second_kernel 3; shared_helper 3 (other_helper not reached)
    CHECK(second->own == 7);
    CHECK(second->shared == 3);
    CHECK(second->shared_parts == std::vector<std::string>{"shared_helper"});
    CHECK(std::find(second->own_parts.begin(), second->own_parts.end(), "second_kernel") != second->own_parts.end());
    CHECK(!handwritten_lines(root.string(), "box", "hw_absent"));
    fs::remove_all(root);
}

namespace {

// The build's manifest of its variants (filterlab_build/manifest.py, build/variants.json).
nlohmann::json variants_manifest() {
    std::ifstream in(FILTERLAB_VARIANTS_MANIFEST);
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

}  // namespace

// The build's reading of the registrations (filterlab_build/manifest.py) on
// the real tree: every Halide variant is a variant of the manifest, with the
// same facts, and its span is a definition the line counter finds.
TEST_CASE("line counts: every Halide schedule's span, as the build read it, is its definition") {
    const nlohmann::json manifest = variants_manifest();
    int schedules = 0;
    for (const Variant &v : all_variants()) {
        // test_check.cpp's broken stand-ins are registered as Halide variants too.
        if (v.kind != Kind::halide || v.name.rfind("test_", 0) == 0) continue;
        CAPTURE(v.filter);
        CAPTURE(v.name);
        const nlohmann::json *entry = nullptr;
        for (const nlohmann::json &m : manifest["variants"])
            if (m["language"] == "halide" && m["filter"] == v.filter && m["variant"] == v.name) entry = &m;
        REQUIRE(entry);
        CHECK((*entry)["origin"] == to_string(v.origin));
        CHECK((*entry)["source"] == nlohmann::json{{"file", v.source.file}, {"first_line", v.source.first_line},
                                                   {"last_line", v.source.last_line}});
        // The manifest's algorithm_key is the name the runtime knows the algorithm by (running_sums); null for an
        // autoschedule, which schedules the filter's default.
        CHECK(v.algorithm == ((*entry)["algorithm_key"].is_null() ? filter_info(v.filter).algorithms.front().first
                                                                   : (*entry)["algorithm_key"].get<std::string>()));
        CHECK(v.axes.size() == (*entry)["axes"].size());
        CHECK(v.libraries.size() == (*entry)["libraries"].size());
        if (v.origin == Origin::autoscheduler) {
            // Its lines are the generator's estimates.
            CHECK(v.source.file == "generators/" + v.filter + "_generator.cpp");
            const auto counted = span_lines(FILTERLAB_SOURCE_DIR, v.source);
            REQUIRE(counted);
            CHECK(counted->own >= 2);
            continue;
        }
        // A frozen point and a sweep's point run their schedule's body, which the span gives.
        const auto counted = schedule_lines(FILTERLAB_SOURCE_DIR, v.filter, v.source);
        REQUIRE(counted);
        CHECK(counted->own >= 1);
        schedules++;
    }
    CHECK(schedules >= 30);
}

// The default build is the frontier (FILTERLAB_ALL_SCHEDULES off): the build
// registers the variants of exactly the schedules of both languages the
// manifest says it builds ("built": FRONTIER schedules and frozen points,
// frontier= TVM schedules, every autoschedule but those off_frontier.txt
// names, sweeps), and none of the others; with the option on, all of them.
TEST_CASE("the frontier: the variants registered are the schedules the manifest says this build builds") {
    const nlohmann::json manifest = variants_manifest();
    int built = 0, left_out = 0;
    for (const nlohmann::json &s : manifest["schedules"]) {
        const std::string filter = s["filter"];
        for (const std::string variant : s["variants"]) {
            CAPTURE(filter);
            CAPTURE(variant);
            CHECK(is_registered(filter, variant) == s["built"].get<bool>());
        }
        (s["built"].get<bool>() ? built : left_out)++;
        if (s["origin"] == "autoscheduler" && !s.contains("off_frontier")) CHECK(s["built"].get<bool>());
        if (s["origin"] == "frozen_point" && !s["frontier"].is_null()) CHECK(s["built"].get<bool>());
    }
    CHECK(built > 0);
    MESSAGE(built << " schedules built, " << left_out << " left out (FILTERLAB_ALL_SCHEDULES builds them)");
}
