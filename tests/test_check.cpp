// The check itself must be able to fail: deliberately broken variants,
// registered only in this test program, are caught.
#include <doctest/doctest.h>

#include <sstream>

#include "check.h"
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
