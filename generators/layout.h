// Buffer constraints every generator states the same way.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

#include "Halide.h"

namespace filterlab::layout {

// Rows and planes of `buffer` starting on 16-byte boundaries: its host
// pointer aligned and its strides whole multiples of `per_16_bytes` elements.
template <typename Buffer>
void align_rows(Buffer &buffer, int per_16_bytes) {
    buffer.set_host_alignment(16);
    for (int d = 1; d < 3; d++) buffer.dim(d).set_stride((buffer.dim(d).stride() / per_16_bytes) * per_16_bytes);
}

// A planar 8-bit image from (0, 0, 0); for CUDA targets its rows start on
// 16-byte boundaries (the harness pitches device rows to 64 bytes): Halide
// can then load whole vectors.
template <typename Input>
void constrain_input(Input &input, const Halide::Target &target) {
    for (int d = 0; d < 3; d++) input.dim(d).set_min(0);
    if (target.has_feature(Halide::Target::CUDA)) align_rows(input, 16);
}

// Planar 8-bit images from (0, 0, 0). For CUDA targets the rows of both
// start on 16-byte boundaries: Halide can then store whole vectors.
template <typename Input, typename Output>
void constrain(Input &input, Output &output, const Halide::Target &target) {
    constrain_input(input, target);
    if (target.has_feature(Halide::Target::CUDA)) align_rows(output, 16);
}

}  // namespace filterlab::layout

namespace filterlab::layout {

// For filters whose output has the input's size (the harness guarantees it).
template <typename Input, typename Output>
void same_size(Input &input, Output &output) {
    for (int d = 0; d < 3; d++) output.dim(d).set_bounds(0, input.dim(d).extent());
}

// For 2x2 pooling: floor(W/2) x floor(H/2), the same channels (the harness
// guarantees it).
template <typename Input, typename Output>
void half_size(Input &input, Output &output) {
    output.dim(0).set_bounds(0, input.dim(0).extent() / 2);
    output.dim(1).set_bounds(0, input.dim(1).extent() / 2);
    output.dim(2).set_bounds(0, input.dim(2).extent());
}

}  // namespace filterlab::layout

namespace filterlab::layout {

// The image the autoschedulers plan for: the bench's large gray image
// (8192 x 8192 x 1; NL-means: 1024 x 1024 x 1, as its bench).
constexpr int kEstimateSide = 8192;
constexpr int kNlmeansEstimateSide = 1024;

template <typename Buffer>
void estimate(Buffer &buffer, int width, int height) {
    buffer.set_estimates({{0, width}, {0, height}, {0, 1}});
}

}  // namespace filterlab::layout

namespace filterlab::layout {

// Why Halide cannot lower the pipeline of `output` for `target` as it is
// scheduled and constrained now (its error's first line); empty when it can.
// The lowering is thrown away: the generator's own compilation follows.
inline std::string lowering_error(Halide::Func output, const Halide::Target &target) {
    try {
        Halide::Pipeline pipeline(output);
        pipeline.compile_to_module(pipeline.infer_arguments(), "shape_probe", target);
        return "";
    } catch (const Halide::Error &e) {  // not a std::exception
        std::string why = e.what();
        why = why.substr(0, why.find('\n'));
        for (char &c : why)
            if (c == '"' || c == '\\') c = '\'';
        return why.empty() ? "Halide refused it" : why;
    }
}

// The build's report of a fixed-shape library (its <library>_shape.h): a C++
// constant, null where the library is compiled for its shape, else why not.
inline void write_shape_report(const std::string &path, const std::string &refused) {
    if (path.empty()) return;
    const auto slash = path.find_last_of('/');
    std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    name = name.substr(0, name.rfind('.'));  // <library>_shape
    std::ofstream out(path);
    out << "// Written by the generator (generators/layout.h: write_shape_report). Do not edit.\n#pragma once\n"
        << "namespace filterlab::shape_reports {\ninline constexpr const char *" << name << " = "
        << (refused.empty() ? std::string("nullptr") : "\"" + refused + "\"") << ";\n}\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace filterlab::layout
