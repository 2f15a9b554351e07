// Turns an ahead-of-time compiled Halide pipeline into a registered variant:
// wraps the planar views as halide_buffer_t (host memory, or CUDA device
// memory in the primary context, which Halide's CUDA runtime is told to use),
// turns Halide's errors into Error. Like every CUDA variant it returns
// without waiting for the GPU: the caller synchronises.
#pragma once

#include <HalideRuntime.h>

#include <algorithm>
#include <functional>
#include <string>

#include "compiled_pipeline.h"
#include "error.h"
#include "registry.h"

namespace filterlab {

// Calls the pipeline with its scalar parameters taken from `params`;
// returns the pipeline's status. `image` is the input's shape in pixels: the
// library compiled for it is taken where there is one (select_pipeline), and
// a word view whose output is smaller (pooled) passes its width apart.
using HalideCall =
    std::function<int(halide_buffer_t *in, halide_buffer_t *out, const ParamValues &params, ImageShape image)>;

// How a pipeline reads its 8-bit input (its schedule's READS, given by the
// build): as bytes, or as 32-bit words over the same rows (whole 16-byte
// groups, 4 * ceil(width / 16) words a row, 4 pixels each, the first in the
// low byte), which lets Halide load 16 bytes at once. A word view needs rows
// that start on 16-byte boundaries (the harness pitches device rows to 64
// bytes); the words past the image's last pixel may be read, never used.
enum class InputView { bytes, words };

// How it writes its 8-bit output (its schedule's WRITES): as bytes, or, where
// the output's width is a multiple of 4 and its rows and planes start on
// 16-byte boundaries, as 32-bit words over the same rows by the schedule's
// words twin (a uint32 vector of 4 is one 16-byte store; Halide stores uint8
// vectors 8 bytes at a time at most); the bytes library otherwise. The call
// sees which by the output's type (32 bits: words).
enum class OutputView { bytes, words_where_whole };

// Whether the binding gave the call its output as words (a 32-bit buffer).
inline bool writes_words(const halide_buffer_t *out) { return out->type.bits == 32; }

struct Views {
    InputView input = InputView::bytes;
    OutputView output = OutputView::bytes;
    Views(InputView in = InputView::bytes, OutputView out = OutputView::bytes) : input(in), output(out) {}
};

Variant halide_variant(const std::string &filter, const std::string &name, Backend backend,
                       const std::string &supports, HalideCall call, Views views = {});

// Whether a buffer's rows and planes start whole multiples of
// kAlignedPitch bytes apart (the aligned class's strides).
inline bool pitched_for_aligned_class(const halide_buffer_t *b) {
    for (int d = 1; d < b->dimensions; d++)
        if ((static_cast<long long>(b->dim[d].stride) * b->type.bytes()) % kAlignedPitch != 0) return false;
    return true;
}

// A variant of a schedule's libraries (one per compile-time value, each with
// its words and shape twins): the call's library is chosen here
// (select_pipeline) and handed to `call`, which says how a filter's pipeline
// is called, (function, in, out, params, image) -> status; the variant's
// shape paths are its libraries' (exact_shapes, refused_shapes).
template <typename Function, typename Call>
Variant halide_variant(const std::string &filter, const std::string &name, Backend backend,
                       const std::string &supports, std::vector<CompiledPipeline<Function>> compiled, Call call,
                       Views views = {}) {
    std::vector<ImageShape> exact = exact_shapes(compiled);
    auto refused = refused_shapes(compiled);
    // A shape is the variant's where every library took it: a call takes the twins of those shapes only.
    for (auto &c : compiled)
        std::erase_if(c.shapes, [&](const auto &t) { return std::find(exact.begin(), exact.end(), t.shape) == exact.end(); });
    Variant v = halide_variant(
        filter, name, backend, supports,
        [compiled, call](halide_buffer_t *in, halide_buffer_t *out, const ParamValues &p, ImageShape image) {
            const bool pitched = pitched_for_aligned_class(in) && pitched_for_aligned_class(out);
            return call(select_pipeline(compiled, p, writes_words(out), image, pitched), in, out, p, image);
        },
        views);
    v.aligned_path = take_aligned_class(exact);
    v.exact_shapes = exact;
    v.refused_shapes = std::move(refused);
    return v;
}

// The binding of every pipeline called as f(input, output), its parameters
// all fixed at compile time (median's size) or none (maxpool).
using ImagePipeline = int (*)(halide_buffer_t *, halide_buffer_t *);
inline Variant image_pipeline_variant(const std::string &filter, const std::string &name, Backend backend,
                                      const std::string &supports,
                                      std::vector<CompiledPipeline<ImagePipeline>> compiled, Views views = {}) {
    return halide_variant(
        filter, name, backend, supports, std::move(compiled),
        [](ImagePipeline f, halide_buffer_t *in, halide_buffer_t *out, const ParamValues &, ImageShape) {
            return f(in, out);
        },
        views);
}

}  // namespace filterlab
