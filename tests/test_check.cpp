// The check itself must be able to fail: deliberately broken variants,
// registered only in this test program, are caught.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "check.h"
#include "error.h"
#include "harness.h"
#include "reference.h"
#include "registry.h"

using namespace filterlab;

namespace {

// Correct except that it never writes the last sample of each plane.
void skips_last_sample(const PlanarView &in, const PlanarView &out, const ParamValues &p) {
    const Image result = reference::box(image_from_view(in), static_cast<int>(p.at("radius")));
    std::vector<uint8_t> untouched;
    auto last = [&](int c) -> uint8_t & {
        return out.data[c * out.plane_stride + (out.height - 1) * out.row_stride + out.width - 1];
    };
    for (int c = 0; c < out.channels; c++) untouched.push_back(last(c));
    copy_to_view(result, out);
    for (int c = 0; c < out.channels; c++) last(c) = untouched[c];
}

// Off by one in the rounding: (sum + n/2) / n - 1 where possible.
void rounds_down(const PlanarView &in, const PlanarView &out, const ParamValues &p) {
    Image result = reference::box(image_from_view(in), static_cast<int>(p.at("radius")));
    for (auto &v : result.samples()) v = v ? v - 1 : 0;
    copy_to_view(result, out);
}

// Writes one byte past its output.
void overruns(const PlanarView &in, const PlanarView &out, const ParamValues &p) {
    copy_to_view(reference::box(image_from_view(in), static_cast<int>(p.at("radius"))), out);
    out.data[(out.channels - 1) * out.plane_stride + (out.height - 1) * out.row_stride + out.width] = 1;
}

const VariantRegistration r1{{"box", "test_unwritten", Backend::cpu, Kind::halide, {}, skips_last_sample}};
const VariantRegistration r2{{"box", "test_exact_peer_off_by_one", Backend::cpu, Kind::peer, {}, rounds_down}};
const VariantRegistration r3{{"box", "test_other_function_peer", Backend::cpu, Kind::peer, {}, rounds_down, {}, false}};
const VariantRegistration r4{{"box", "test_overrun", Backend::cpu, Kind::handwritten, {}, overruns}};

// Compiled for one image shape at two radii, a library each, the default among
// them (as TVM's register rows are: radius 1, 2 and 3).
Variant shaped_at_radius_7() {
    Variant v{"box", "test_shaped_radius7", Backend::cpu, Kind::handwritten, parse_supports("radius=1,7"),
              [](const PlanarView &in, const PlanarView &out, const ParamValues &p) {
                  copy_to_view(reference::box(image_from_view(in), static_cast<int>(p.at("radius"))), out);
              }};
    v.exact_shapes = {ImageShape{64, 48}};
    return v;
}
const VariantRegistration r6{shaped_at_radius_7()};

VariantResult check_one(const char *variant) {
    CheckOptions options;
    options.filter = "box";
    options.variant = variant;
    options.quick = true;
    std::ostringstream log;
    const auto results = run_check(options, log);
    REQUIRE(results.size() == 1);
    return results[0];
}

}  // namespace

TEST_CASE("check catches an unwritten sample (poisoned outputs)") {
    const VariantResult r = check_one("test_unwritten");
    CHECK(r.failed > 0);
    CHECK(r.passed == 0);  // every case has a last sample
}

TEST_CASE("check fails a peer that claims the contract's function and misses it") {
    const VariantResult r = check_one("test_exact_peer_off_by_one");
    CHECK(r.failed > 0);
    CHECK(r.differs == 0);
}

TEST_CASE("check reports, without failing, a peer documented to compute another function") {
    const VariantResult r = check_one("test_other_function_peer");
    CHECK(r.failed == 0);
    CHECK(r.differs > 0);
}

TEST_CASE("check catches a write past the output") {
    const VariantResult r = check_one("test_overrun");
    CHECK(r.failed > 0);
    REQUIRE(!r.failures.empty());
    CHECK(r.failures[0].find("wrote outside its output") != std::string::npos);
}

namespace {

// Out of memory on every call: the machine is short, not the variant.
void runs_out_of_memory(const PlanarView &, const PlanarView &, const ParamValues &) {
    throw MachineError("out of GPU memory (test)");
}
const VariantRegistration r5{{"box", "test_out_of_memory", Backend::cpu, Kind::handwritten, {}, runs_out_of_memory}};

}  // namespace

TEST_CASE("out of memory ends the whole check instead of failing one variant and going on") {
    CHECK_THROWS_AS(check_one("test_out_of_memory"), MachineError);
}

TEST_CASE("the sanitizer matrix takes a build shape's path at every value its variant lists") {
    CheckOptions options;
    options.sanitizer = true;
    options.variant = "test_shaped_radius7";
    options.images_dir = "/nonexistent";
    bool shaped = false;
    for (const CheckCase &k : check_cases(filter_info("box"), options))
        shaped |= k.build_shape && k.input.width() == 64 && k.input.height() == 48 && k.params.at("radius") == 7;
    CHECK(shaped);
}

TEST_CASE("the sanitizer matrix: degenerate and odd sizes, 1 and 3 channels, every parameter value") {
    CheckOptions options;
    options.sanitizer = true;
    options.images_dir = "/nonexistent";  // never read in this matrix
    for (const FilterInfo &filter : all_filters()) {
        CAPTURE(filter.name);
        const auto cases = check_cases(filter, options);
        std::set<int> channels;
        std::set<std::string> params;
        bool one_by_one = false;
        for (const CheckCase &k : cases) {
            channels.insert(k.input.channels());
            params.insert(format_params(k.params));
            one_by_one |= k.input.width() == 1 && k.input.height() == 1;
            CHECK(k.content == "random");
        }
        CHECK(channels == std::set<int>{1, 3});
        CHECK(one_by_one == (filter.min_side == 1));
        CheckOptions full;
        std::set<std::string> full_params;
        for (const CheckCase &k : check_cases(filter, full)) full_params.insert(format_params(k.params));
        CHECK(params == full_params);
    }
}
