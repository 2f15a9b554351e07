// The public C++ API (filterlab/filterlab.h) over the registry and harness.
#include "filterlab/filterlab.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <exception>
#include <new>

#include "cuda_support.h"
#include "default_variant.h"
#include "error.h"
#include "filters.h"
#include "harness.h"
#include "image_io.h"
#include "image_refs.h"
#include "machine.h"
#include "registry.h"
#include "stream_files.h"
#include "streamed_run.h"

namespace filterlab {
namespace {

Backend backend_for(Memory memory) { return memory == Memory::cuda_device ? Backend::cuda : Backend::cpu; }

// The named variant, or the default one; either checked by the harness's check_can_run.
const Variant &choose(const FilterInfo &filter, const ImageRef &in, const ParamValues &params, const Options &o) {
    const Variant &v = o.variant.empty() ? default_variant(filter.name, backend_for(in.memory), params)
                                         : find_variant(filter.name, o.variant);
    if (v.kind == Kind::peer) throw Error(filter.name + "/" + v.name + " is a peer, not part of the library");
    check_can_run(v, params, in.width, in.height, in.channels);
    return v;
}

// After check_can_run, which has refused inputs below the filter's smallest.
void check_output_size(const FilterInfo &filter, const ImageRef &in, const ImageRef &out) {
    const auto [w, h] = filter.output_size(in.width, in.height);
    if (out.width != w || out.height != h || out.channels != in.channels) {
        throw Error(fmt::format("{}: the output must be {}x{} with {} channels, got {}x{} with {}", filter.name, w, h,
                                in.channels, out.width, out.height, out.channels));
    }
}

// In place when both images are in the variant's memory and layout and do not
// overlap: a CUDA variant is then asynchronous on the caller's stream. Else
// through copies (the input is copied before anything is written).
void run_variant_on(const Variant &v, const ImageRef &in, const ImageRef &out, const ParamValues &params,
                    const Options &o) {
    const auto stream = static_cast<cudaStream_t>(o.cuda_stream);
    // OpenCL variants take cl_mem buffers, never a caller's pointer: always copied.
    const bool can_work_in_place = v.backend == Backend::cpu || v.backend == Backend::cuda;
    const Memory native = v.backend == Backend::cuda ? Memory::cuda_device : Memory::host;
    const bool overlap = in.memory == out.memory && in.data < out.data + api::extent_bytes(out) &&
                         out.data < in.data + api::extent_bytes(in);
    if (can_work_in_place && in.memory == native && out.memory == native && !overlap) {
        const bool aligned = v.backend == Backend::cuda;
        const PlanarView in_view = api::view_in_place(in, aligned), out_view = api::view_in_place(out, aligned);
        if (in_view.data && out_view.data) {
            const cuda::StreamScope scope(o.cuda_stream);
            v.run(in_view, out_view, params);
            return;
        }
    }
    api::scatter(run_variant(v, api::gather(in, stream), params), out, stream);
}

// The contract's defaults with the given values, validated.
ParamValues with_defaults(const FilterInfo &filter, const std::map<std::string, double> &given) {
    ParamValues params = filter.defaults();
    for (auto &[name, value] : given) {
        if (!params.count(name)) throw Error(filter.name + " has no parameter '" + name + "'");
        params[name] = value;
    }
    filter.validate(params);
    return params;
}

// Runs `work(outcome)`, which names the variant in it once chosen: every
// failure becomes the outcome's message, never an exception.
template <typename Work>
Outcome guarded(const std::string &variant, Work work) {
    Outcome outcome;
    outcome.variant = variant;
    try {
        work(outcome);
    } catch (const std::bad_alloc &) {
        outcome = {false, "out of memory", outcome.variant};
    } catch (const std::exception &e) {
        outcome = {false, e.what(), outcome.variant};
    }
    return outcome;
}

Outcome run_checked(const std::string &filter_name, const ImageRef &in, const ImageRef &out,
                    const std::map<std::string, double> &given, const Options &o) {
    return guarded(o.variant, [&](Outcome &outcome) {
        const FilterInfo &filter = filter_info(filter_name);
        // The contract's words first, before any variant is chosen.
        const ParamValues params = with_defaults(filter, given);
        api::check_image(in, "input");
        api::check_image(out, "output");
        const Variant &v = choose(filter, in, params, o);
        outcome.variant = v.name;
        check_output_size(filter, in, out);
        run_variant_on(v, in, out, params, o);
    });
}

}  // namespace

Outcome run(const std::string &filter, const ImageRef &in, const ImageRef &out,
            const std::map<std::string, double> &params, const Options &options) {
    return run_checked(filter, in, out, params, options);
}

Outcome run_file(const std::string &filter_name, const std::string &input_path, const std::string &output_path,
                 const std::map<std::string, double> &given, const Options &o) {
    return guarded(o.variant, [&](Outcome &outcome) {
        const FilterInfo &filter = filter_info(filter_name);
        const ParamValues params = with_defaults(filter, given);
        const Backend backend = cuda::gpu_info().available ? Backend::cuda : Backend::cpu;
        const Variant &v = o.variant.empty() ? default_variant(filter.name, backend, params)
                                             : find_variant(filter.name, o.variant);
        if (v.kind == Kind::peer) throw Error(filter.name + "/" + v.name + " is a peer, not part of the library");
        outcome.variant = v.name;
        const stream::InputFile reader(input_path);
        const stream::FileShape in = reader.shape();
        check_can_run(v, params, in.width, in.height, in.channels);
        check_writable(output_path, in.channels);  // its folder, before the work
        const auto [width, height] = filter.output_size(in.width, in.height);
        const stream::OutputFile output(output_path, {width, height, in.channels});
        stream::StreamOptions streaming;
        streaming.gpus = o.gpus;
        stream::run_streamed(v, reader.source(), output.sink(), params, streaming);
        output.commit();
    });
}

Outcome box(const ImageRef &in, const ImageRef &out, int radius, const Options &o) {
    return run("box", in, out, {{"radius", radius}}, o);
}
Outcome median(const ImageRef &in, const ImageRef &out, int size, const Options &o) {
    return run("median", in, out, {{"size", size}}, o);
}
Outcome gaussian(const ImageRef &in, const ImageRef &out, double sigma, const Options &o) {
    return run("gaussian", in, out, {{"sigma", sigma}}, o);
}
Outcome maxpool(const ImageRef &in, const ImageRef &out, const Options &o) { return run("maxpool", in, out, {}, o); }
Outcome gaussian_maxpool(const ImageRef &in, const ImageRef &out, double sigma, const Options &o) {
    return run("gaussian_maxpool", in, out, {{"sigma", sigma}}, o);
}
Outcome nlmeans(const ImageRef &in, const ImageRef &out, int patch, int search, double h, const Options &o) {
    return run("nlmeans", in, out, {{"patch", patch}, {"search", search}, {"h", h}}, o);
}

std::vector<VariantInfo> variants() {
    std::vector<VariantInfo> all;
    for (const Variant &v : all_variants()) {
        if (v.kind == Kind::peer) continue;
        std::string supports;
        for (const ParamSupport &s : v.supports) supports += (supports.empty() ? "" : ";") + s.describe();
        all.push_back({v.filter, v.name, v.backend == Backend::cuda, v.kind == Kind::handwritten, supports,
                       to_string(v.backend)});
    }
    return all;
}

std::string default_variant(const std::string &filter, Memory memory) {
    try {
        return default_variant(filter, backend_for(memory), filter_info(filter).defaults()).name;
    } catch (const std::exception &) {
        return "";  // an unknown filter, or none of that memory
    }
}

std::string version() { return fmt::format("{} (commit {})", FILTERLAB_VERSION, build_commit()); }

}  // namespace filterlab
