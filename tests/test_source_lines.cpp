// The report's line counts on a small source tree written here, where every
// count is known: comments and blank lines never count, a schedule counts its
// body, a kernel counts what its registration reaches and nothing else.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "source_lines.h"

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

fs::path tree() {
    const fs::path root = fs::temp_directory_path() / ("filterlab_lines_" + std::to_string(::getpid()));
    fs::create_directories(root / "schedules" / "box");
    fs::create_directories(root / "generators");
    fs::create_directories(root / "handwritten" / "box");
    std::ofstream(root / "schedules" / "box" / "box_cpu.cpp") << R"(// header comment
#include "box.h"
using filterlab::schedules::strips;

// The first.
FILTERLAB_SCHEDULE(box, cpu, plain, "radius=1..15") {
    p.output.compute_root();  // one line

    /* a block
       comment */
    p.row_sum.compute_root();
}

FILTERLAB_SCHEDULE(box, cpu, helped, "radius=1") {
    strips(p, 8);
}

FILTERLAB_SCHEDULE(box, cpu, blocked, "radius=1") {
    box_blocks(p);
    blur_blocks(p);
}
)";
    // A helper beside the schedules (the filter's own) and one of another
    // filter's schedules (shared), each calling the generators' helper.
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
    std::ofstream(root / "generators" / "schedule_helpers.h") << R"(#pragma once
namespace filterlab::schedules {
// Splits into strips.
template <typename P>
void strips(P &p, int rows) {
    p.output.split(p.y, rows);
}
void unused() {}
}  // namespace filterlab::schedules
)";
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
    return root;
}

}  // namespace

TEST_CASE("line counts: comments and blank lines never count") {
    CHECK(count_code_lines("a;\n\n// only comment\n  /* block\n */ b; // trailing\nc = \"// not a comment\";\n") == 3);
    CHECK(count_code_lines("") == 0);
}

TEST_CASE("line counts: a schedule's body, and the shared helpers it calls") {
    const fs::path root = tree();
    const auto plain = schedule_lines(root.string(), "box", "cpu_plain");
    REQUIRE(plain);
    CHECK(plain->own == 2);
    CHECK(plain->shared == 0);
    CHECK(plain->file == "schedules/box/box_cpu.cpp");
    const auto helped = schedule_lines(root.string(), "box", "cpu_helped");
    REQUIRE(helped);
    CHECK(helped->own == 1);
    CHECK(helped->shared == 4);  // template line, signature, body, brace; `unused` is not reached
    CHECK(helped->shared_parts == std::vector<std::string>{"strips"});
    const auto blocked = schedule_lines(root.string(), "box", "cpu_blocked");
    REQUIRE(blocked);
    CHECK(blocked->own == 2 + 3);  // the body; box_blocks
    CHECK(blocked->shared == 4 + 4);  // blur_blocks; strips
    CHECK(!schedule_lines(root.string(), "box", "cpu_absent"));
    CHECK(!schedule_lines(root.string(), "median", "cpu_plain"));
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
