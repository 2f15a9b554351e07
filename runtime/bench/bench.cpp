#include "bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "bench_paths.h"
#include "cuda_support.h"
#include "error.h"
#include "filters.h"
#include "gallery.h"
#include "harness.h"
#include "machine.h"
#include "noise.h"
#include "opencl_support.h"
#include "plugins.h"
#include "registry.h"
#include "run_format.h"
#include "run_results.h"
#include "shape_path.h"

namespace filterlab {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Result {
    const Variant *variant;
    int width, height, channels;
    ParamValues params;
    Status status;
    std::string note;
    Stats stats;
    int buffers = 0;
    double bytes = 0;  // each input sample read once + each output sample written once
};

// The image a variant is checked on before timing: the benchmark's own, or,
// where the reference would exceed its budget, a smaller square of the same
// channels whose reference takes a tenth of it (made once per side): `check`
// covers correctness over sizes; this guards the timed variant's parameters.
const Image &validation_input(const FilterInfo &f, const ParamValues &params, const Image &input,
                              std::map<int, Image> &smaller) {
    const double work = reference_work_per_sample(f, params) * input.channels();
    if (double(input.width()) * input.height() * work <= kBenchReferenceBudget) return input;
    int side = static_cast<int>(std::sqrt(kBenchReferenceBudget / 10 / work));
    // An input in the aligned class is checked on a square in it, so that the path timed is the path checked.
    if (in_aligned_class(input.width(), {})) side = std::max(kAlignedWidth, side / kAlignedWidth * kAlignedWidth);
    side = std::max(side, f.min_side);
    auto it = smaller.find(side);
    if (it == smaller.end()) it = smaller.emplace(side, random_image(side, side, input.channels(), 99 + side)).first;
    return it->second;
}

// The copy roofline is measured on the CUDA GPU: it is an OpenCL variant's
// too only when its OpenCL device is a GPU (the same one on our machines).
bool on_the_roofline_device(const Variant &v) {
    return v.backend == Backend::cuda || (v.backend == Backend::opencl && opencl::device_info().is_gpu);
}


// A result as the schema's row: the variant's identity as the registry holds
// it, its measures computed by set_measures.
TimedRow row_of(const Result &r, double roofline) {
    const Variant &v = *r.variant;
    BenchRow row{.filter = v.filter,
                 .variant = v.name,
                 .backend = to_string(v.backend),
                 .kind = to_string(v.kind),
                 .origin = v.origin,
                 .algorithm = v.algorithm,
                 .point = point_text(v.point),
                 .path = shape_path(v, {r.width, r.height}),
                 .width = r.width,
                 .height = r.height,
                 .channels = r.channels,
                 .params = format_params(r.params),
                 .status = r.status,
                 .samples = 0,
                 .buffers = r.buffers,
                 .threads = v.kind == Kind::reference ? 1 : v.backend == Backend::cpu ? halide_thread_count() : 0,
                 .note = r.note};
    set_measures(row, r.stats, r.bytes, on_the_roofline_device(v) ? roofline : 0);
    return {row, r.stats};
}


// What the cases of one size and channel count share: the smaller inputs
// checked where the reference would be too slow, and the last reference per
// filter (it depends on the filter and its parameters only).
struct CaseCache {
    std::map<int, Image> validation_inputs;
    std::map<std::string, std::pair<ParamValues, Image>> references;
};

// One variant at one size: checked against the reference (a wrong variant is
// reported, never timed; a peer's other function is timed and said so), then
// timed.
Result measure_case(const BenchOptions &o, const Variant &v, const Image &input, CaseCache &cache) {
    const FilterInfo &f = filter_info(v.filter);
    Result r{&v, input.width(), input.height(), input.channels(), params_for(f, o.params), Status::ok, "", {}, 0, 0};
    bench_say(o, "{} {} {}x{}x{} {} ... ", v.filter, v.name, r.width, r.height, r.channels, format_params(r.params));
    const auto out_size = f.output_size(r.width, r.height);
    r.bytes = double(input.size()) + double(out_size.first) * out_size.second * r.channels;
    run_case(v, r.params, input, r.status, r.note, [&] {
        // The reference is the oracle of every timed result. Where it would take
        // too long at this size, the variant is checked on a smaller image of the
        // same channels (validation_input), and the note says so.
        const Image &checked = validation_input(f, r.params, input, cache.validation_inputs);
        if (checked.width() != input.width()) {
            r.note = fmt::format("checked at {}x{} (the reference would take too long at this size)", checked.width(),
                                 checked.height());
        }
        auto &ref = cache.references[v.filter];
        if (ref.second.size() == 0 || ref.first != r.params) ref = {r.params, f.reference(checked, r.params)};
        const auto check_start = Clock::now();
        const Image output = run_variant(v, checked, r.params);
        const double check_seconds = seconds_since(check_start);
        const Comparison cmp = compare_to_reference(f, ref.second, output);
        if (!cmp.equal) {
            r.status = v.computes_contract ? Status::wrong : Status::differs;
            r.note = v.computes_contract ? cmp.describe()
                                         : fmt::format("not the contract's function: {}; PSNR {:.1f} dB against the "
                                                       "reference",
                                                       cmp.describe(), psnr(ref.second, output));
        }
        if (r.status == Status::wrong) return;  // reported, never timed
        if (&checked == &input) check_budget(o, check_seconds);  // a run and its transfers: at least a run
        switch (v.backend) {
        case Backend::cuda: r.stats = time_gpu(o, v, input, out_size, r.params, r.buffers); break;
        case Backend::opencl: r.stats = time_opencl(o, v, input, out_size, r.params, r.buffers); break;
        case Backend::cpu: r.stats = time_cpu(o, v, input, out_size, r.params, r.buffers); break;
        }
    });
    if (is_timed(r.status)) {
        bench_say(o, "{:.1f} us{}\n", r.stats.median, r.status == Status::ok ? "" : " (" + r.note + ")");
    } else {
        bench_say(o, "{}: {}\n", to_string(r.status), r.note);
    }
    return r;
}

// The transfer times of one input (the report's transfer table), on a GPU only.
void measure_transfers(const Image &input, nlohmann::json &transfers) {
    if (!cuda::gpu_info().available) return;
    const auto t = cuda::transfer_times(input.size(), 10);
    transfers.push_back({{"width", input.width()}, {"height", input.height()}, {"channels", input.channels()},
                         {"bytes", input.size()}, {"h2d_pageable_ms", t.h2d_pageable},
                         {"d2h_pageable_ms", t.d2h_pageable}, {"h2d_pinned_ms", t.h2d_pinned},
                         {"d2h_pinned_ms", t.d2h_pinned}});
}

// Every chosen variant at every size and channel count, each case given its
// share of what is left of a budget.
std::vector<TimedRow> measure_all(const BenchOptions &o, const std::vector<const Variant *> &chosen, double roofline,
                                  nlohmann::json &transfers) {
    std::vector<TimedRow> rows;
    std::size_t total = 0, done = 0;
    const auto started = Clock::now();
    total = o.sizes.size() * o.channels.size() * chosen.size();
    for (const ImageShape size : o.sizes)
        for (int channels : o.channels) {
            // Square sizes keep the seed they always had (1234 + side + channels).
            const Image input = random_image(size.width, size.height, channels, 1234 + size.width + channels);
            measure_transfers(input, transfers);
            CaseCache cache;
            for (const Variant *v : chosen) {
                bench_say(o, "[{}/{}{}] ", done + 1, total, time_left(started, done, total));
                BenchOptions case_options = o;
                case_options.max_seconds_per_case = case_seconds(o, seconds_since(started), total - done);
                if (o.budget_seconds > 0) case_options.budget_seconds = std::max(1e-3, o.budget_seconds - seconds_since(started));
                done++;
                rows.push_back(row_of(measure_case(case_options, *v, input, cache), roofline));
                if (!o.every_path) continue;
                // The same variant and image on each more general path it has for the image.
                for (ShapePath path : more_general_paths(*v, {input.width(), input.height()})) {
                    const PathCeilingScope ceiling(path);
                    rows.push_back(row_of(measure_case(case_options, *v, input, cache), roofline));
                }
            }
        }
    if (o.budget_seconds > 0) bench_say(o, "budget: {:.0f} s of {:.0f} s\n", seconds_since(started), o.budget_seconds);
    return rows;
}

}  // namespace

std::string run_bench(const BenchOptions &o) {
    check_common_options(o);
    for (const ImageShape s : o.sizes)
        if (s.width < 1 || s.width > 32768 || s.height < 1 || s.height > 32768)
            throw Error(fmt::format("bench: size {} out of range 1..32768", shape_text(s)));
    for (const ImageShape s : o.sizes)
        for (int c : o.channels) check_image_shape(s.width, s.height, c);

    const std::vector<const Variant *> chosen = chosen_variants(o);

    // Every parameter is validated before anything is measured or written.
    for (const Variant *v : chosen) params_for(filter_info(v->filter), o.params);
    NewRunDir run_dir(o.out_root);
    const std::string &dir = run_dir.path();
    const nlohmann::json facts = machine_facts();
    const cuda::Clocks clocks_start = cuda::gpu_info().available ? cuda::current_clocks() : cuda::Clocks{};
    const double roofline = measure_roofline(o, clocks_start);
    // The pictures and histograms `filterlab report` shows (gallery.h), first:
    // the cases share what is left of a budget.
    bench_say(o, "{}\n", write_gallery(dir, chosen, [&](const FilterInfo &f) { return params_for(f, o.params); },
                                     o.images_dir));
    nlohmann::json transfers = nlohmann::json::array();
    const std::vector<TimedRow> rows = measure_all(o, chosen, roofline, transfers);
    nlohmann::json context = run_context(facts, o, roofline, transfers, clocks_start);
    if (o.budget_seconds > 0) context["budget_seconds"] = o.budget_seconds;
    write_run_results(dir, o.command_line, rows, context);
    return run_dir.keep();
}

}  // namespace filterlab
