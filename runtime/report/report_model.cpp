#include "report_model.h"

#include <algorithm>
#include <fmt/format.h>

namespace filterlab::report_model {
namespace {

// A DSL row's path (results.csv's path column, results_schema.h), the most
// specialised highest; 0 for generic and for the rows of other kinds.
int path_rank(const std::string &path) { return path == "exact" ? 2 : path == "aligned" ? 1 : 0; }

using json = nlohmann::json;

std::string file_slug(std::string s) {
    for (char &c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

std::string gpu_name(const json &context) {
    const json &gpu = context.value("gpu", json::object());
    return gpu.contains("name") ? gpu["name"].get<std::string>() : "";
}

}  // namespace

Category category_of(const std::string &kind, const std::string &backend) {
    if (kind == "reference") return Category::reference;
    if (kind == "halide") {
        return backend == "cuda" ? Category::halide_cuda : backend == "opencl" ? Category::halide_opencl : Category::halide_cpu;
    }
    if (kind == "tvm") return Category::tvm_cuda;
    if (kind == "handwritten") {
        return backend == "cuda"     ? Category::handwritten
               : backend == "opencl" ? Category::handwritten_opencl
                                     : Category::handwritten_cpu;
    }
    return Category::peer;
}
Category category_of(const BenchRow &r) { return category_of(r.kind, r.backend); }

const char *label(Category c) {
    switch (c) {
    case Category::reference: return "reference (serial CPU)";
    case Category::halide_cpu: return "Halide CPU";
    case Category::halide_cuda: return "Halide CUDA";
    case Category::handwritten: return "handwritten CUDA";
    case Category::handwritten_cpu: return "handwritten CPU";
    case Category::halide_opencl: return "Halide OpenCL";
    case Category::handwritten_opencl: return "handwritten OpenCL";
    case Category::tvm_cuda: return "TVM CUDA";
    case Category::peer: return "peer";
    }
    return "";
}

const char *plot_group(Category c) {
    switch (c) {
    case Category::reference: return "reference";
    case Category::halide_cpu: return "halide_cpu";
    case Category::halide_cuda: return "halide_cuda";
    case Category::handwritten: return "handwritten";
    case Category::handwritten_cpu: return "handwritten_cpu";
    case Category::halide_opencl: return "halide_opencl";
    case Category::handwritten_opencl: return "handwritten_opencl";
    case Category::tvm_cuda: return "tvm_cuda";
    case Category::peer: return "peer";
    }
    return "";
}

std::vector<Machine> group_machines(const std::vector<RunDir> &runs) {
    std::vector<Machine> machines;
    for (const RunDir &run : runs) {
        const json &c = run.context;
        const std::string host = c.value("host_name", "unknown host");
        const std::string cpu = c.value("cpu", json::object()).value("model", "unknown CPU");
        const std::string key = host + "|" + cpu + "|" + gpu_name(c);
        auto it = std::find_if(machines.begin(), machines.end(), [&](auto &m) { return m.key == key; });
        if (it == machines.end()) {
            const std::string gpu = gpu_name(c);
            machines.push_back({key, fmt::format("{} ({})", host, gpu.empty() ? "no GPU, " + cpu : gpu),
                                fmt::format("m{}", machines.size() + 1), {}, {}});
            it = machines.end() - 1;
        }
        it->runs.push_back(&run);
        for (const BenchRow &r : run.rows) {
            auto same = std::find_if(it->rows.begin(), it->rows.end(), [&](const BenchRow &o) {
                return o.filter == r.filter && o.variant == r.variant && o.width == r.width && o.height == r.height &&
                       o.channels == r.channels && o.params == r.params && o.threads == r.threads && o.path == r.path;
            });
            if (same == it->rows.end()) {
                it->rows.push_back(r);
            } else if (r.status != Status::skipped || same->status == Status::skipped) {
                *same = r;  // the later run's result, unless it only skipped what an earlier one measured
            }
        }
    }
    return machines;
}

std::string View::slug() const {
    return fmt::format("{}_{}_{}_c{}", machine->slug, filter, file_slug(params), channels);
}

std::string View::title() const {
    return fmt::format("{}{}, {} channel{}", filter, params.empty() ? "" : " " + params, channels, channels == 1 ? "" : "s");
}

std::vector<View> views_of(const Machine &m, const std::string &filter) {
    std::vector<View> views;
    for (const BenchRow &r : m.rows) {
        if (r.filter != filter) continue;
        auto it = std::find_if(views.begin(), views.end(),
                               [&](auto &v) { return v.params == r.params && v.channels == r.channels; });
        if (it == views.end()) {
            View v;
            v.machine = &m, v.filter = filter, v.params = r.params, v.channels = r.channels;
            views.push_back(std::move(v));
            it = views.end() - 1;
        }
        View &v = *it;
        const Size s{r.width, r.height};
        if (r.origin == Origin::sweep_point) {
            if (std::find(v.sizes.begin(), v.sizes.end(), s) == v.sizes.end()) v.sizes.push_back(s);
            v.points[r.variant][s] = &r;
            continue;
        }
        v.category[r.variant] = category_of(r);
        v.origin[r.variant] = r.origin;
        if (std::find(v.sizes.begin(), v.sizes.end(), s) == v.sizes.end()) v.sizes.push_back(s);
        if (r.status == Status::skipped) continue;
        v.by_threads[r.variant][s][r.threads] = &r;
        // The path a call takes: a `bench --paths all` run's rows of a variant's
        // more general paths at the image stay out (scripts/verdict_shapes.py reads them all).
        const BenchRow *&c = v.cell[r.variant][s];
        const bool forced_lower = c && path_rank(r.path) < path_rank(c->path);
        if (!c || (r.threads >= c->threads && !forced_lower)) c = &r;
    }
    for (View &v : views) {
        std::sort(v.sizes.begin(), v.sizes.end(),
                  [](Size a, Size b) { return 1LL * a.first * a.second < 1LL * b.first * b.second; });
        std::vector<std::string> order;
        for (const BenchRow &r : m.rows)
            if (r.filter == filter && r.params == v.params && r.channels == v.channels &&
                std::find(order.begin(), order.end(), r.variant) == order.end())
                order.push_back(r.variant);
        std::stable_sort(order.begin(), order.end(), [&](auto &a, auto &b) { return v.category[a] < v.category[b]; });
        for (const std::string &name : order) {
            if (v.cell.count(name)) {
                v.variants.push_back(name);
                continue;
            }
            const auto first = std::find_if(m.rows.begin(), m.rows.end(), [&](const BenchRow &r) {
                return r.filter == filter && r.variant == name && r.params == v.params && r.channels == v.channels;
            });
            v.not_measured.push_back({name, first->note});
        }
        for (auto &[name, cells] : v.cell)
            for (auto &[size, r] : cells) {
                if (!r->timed() || category_of(*r) == Category::reference) continue;
                const BenchRow *&b = v.best[{size, category_of(*r)}];
                if (!b || r->median_us < b->median_us) b = r;
            }
    }
    return views;
}

const BenchRow *reference_at(const View &v, Size s) {
    for (auto &[name, cells] : v.cell)
        if (v.category.at(name) == Category::reference && cells.count(s) && cells.at(s)->timed()) return cells.at(s);
    return nullptr;
}

bool is_best(const View &v, const BenchRow *r) {
    auto it = v.best.find({{r->width, r->height}, category_of(*r)});
    return it != v.best.end() && it->second == r;
}

double roofline_of(const Machine &m) {
    double roof = 0;
    for (const RunDir *r : m.runs) roof = std::max(roof, r->context.value("copy_roofline_gb_per_s", 0.0));
    return roof;
}

}  // namespace filterlab::report_model
