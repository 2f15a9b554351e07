#include "report_summary.h"

#include <algorithm>
#include <fmt/format.h>

#include "report_text.h"

namespace filterlab {
namespace {

using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

// The three sides the answer weighs, each the fastest of its categories.
struct Side {
    const char *label, *group;  // group: scripts/plots.py's colour
    std::vector<Category> categories;
};
const std::vector<Side> &sides() {
    static const std::vector<Side> s = {
        {"best Halide", "halide_cuda", {Category::halide_cpu, Category::halide_cuda, Category::halide_opencl}},
        {"best TVM", "tvm_cuda", {Category::tvm_cuda}},
        {"best hand-written", "handwritten", {Category::handwritten, Category::handwritten_cpu, Category::handwritten_opencl}},
        {"fastest peer", "peer", {Category::peer}}};
    return s;
}

const BenchRow *fastest_of(const View &v, Size size, const Side &side) {
    const BenchRow *best = nullptr;
    for (Category c : side.categories)
        if (auto it = v.best.find({size, c}); it != v.best.end())
            if (!best || it->second->median_us < best->median_us) best = it->second;
    return best;
}

std::string cell(const BenchRow *r) {
    return r ? fmt::format("`{}` ({}) {}", r->variant, r->backend, format_time(r->median_us)) : "—";
}

std::string ratio(const BenchRow *a, const BenchRow *b) {
    return a && b ? fmt::format("{:.2f}", a->median_us / b->median_us) : "—";
}

// The machine whose rows the answer shows for a filter: the first with a GPU,
// else the first (the others are in the details).
const Machine *answering_machine(const std::vector<View> &views) {
    const Machine *chosen = nullptr;
    for (const View &v : views)
        if (!chosen || (roofline_of(*chosen) <= 0 && roofline_of(*v.machine) > 0)) chosen = v.machine;
    return chosen;
}

// The largest size at which a Halide, TVM or hand-written variant was timed (a
// peer measured alone at a larger size answers nothing), else the largest.
Size answered_size(const View &v) {
    for (auto it = v.sizes.rbegin(); it != v.sizes.rend(); ++it)
        if (fastest_of(v, *it, sides()[0]) || fastest_of(v, *it, sides()[1]) || fastest_of(v, *it, sides()[2]))
            return *it;
    return v.sizes.back();
}

}  // namespace

std::string answer_section(const std::vector<std::string> &filters, const std::map<std::string, std::vector<View>> &views,
                           PlotList &plots) {
    std::vector<std::vector<std::string>> rows;
    json groups = json::array(), series = json::array();
    std::vector<json> values(sides().size(), json::array());
    std::string machine_names;
    for (const std::string &f : filters) {
        const Machine *m = answering_machine(views.at(f));
        if (m && machine_names.find(m->slug + ":") == std::string::npos)
            machine_names += fmt::format("{}{}: {}", machine_names.empty() ? "" : "; ", m->slug, m->name);
        for (const View &v : views.at(f)) {
            if (v.machine != m) continue;
            const Size s = answered_size(v);
            std::vector<const BenchRow *> best;
            for (const Side &side : sides()) best.push_back(fastest_of(v, s, side));
            rows.push_back({f, v.params.empty() ? "—" : v.params, fmt::format("{}", v.channels), size_label(s),
                            cell(best[0]), cell(best[1]), cell(best[2]), cell(best[3]), ratio(best[0], best[2]),
                            ratio(best[1], best[2]), ratio(best[0], best[3])});
            groups.push_back(fmt::format("{} {}{}", f, v.params, v.channels == 1 ? "" : " c3"));
            for (std::size_t k = 0; k < best.size(); k++) values[k].push_back(best[k] ? best[k]->median_us : 0.0);
        }
    }
    if (rows.empty()) return "";
    for (std::size_t k = 0; k < sides().size(); k++)
        series.push_back({{"label", sides()[k].label},
                          {"group", sides()[k].group},
                          {"values", values[k]}});
    return "## The answer\n\nPer filter and parameters, at the largest size where Halide or hand-written variants "
           "were measured on " + machine_names +
           ": the fastest Halide schedule (any backend), the fastest TVM schedule (CUDA), the fastest hand-written "
           "variant, the fastest peer library, and the ratios of their times (above 1: the DSL is slower). Every time is the median of its "
           "samples, each result checked against the reference before it was timed.\n\n" +
           markdown_table({"filter", "parameters", "channels", "size", "best Halide", "best TVM", "best hand-written",
                           "fastest peer", "Halide / hand", "TVM / hand", "Halide / peer"},
                          rows, 4) +
           "\n" +
           plots.add({{"kind", "grouped"},
                      {"file", "answer.png"},
                      {"title", "Time per image at the largest size: best Halide, TVM, hand-written, fastest peer"},
                      {"ylabel", "µs (log)"},
                      {"groups", groups},
                      {"series", series}},
                     "best Halide, best TVM, best hand-written and fastest peer per filter, log scale");
}

std::string glance_section(const std::vector<std::string> &filters, const std::map<std::string, std::vector<View>> &views) {
    std::vector<std::vector<std::string>> rows;
    for (const std::string &f : filters)
        for (const View &v : views.at(f)) {
            const Size s = v.sizes.back();
            std::vector<std::string> row = {f, v.machine->slug, v.params, size_label(s)};
            for (Category c : kRanked) {
                auto it = v.best.find({s, c});
                row.push_back(it == v.best.end() ? "—"
                                                 : fmt::format("`{}` {}", it->second->variant,
                                                               format_time(it->second->median_us)));
            }
            auto h = v.best.find({s, Category::halide_cuda}), w = v.best.find({s, Category::handwritten});
            row.push_back(h != v.best.end() && w != v.best.end()
                              ? fmt::format("{:.2f}", h->second->median_us / w->second->median_us)
                              : "—");
            double roof = 0;
            for (auto &[name, cells] : v.cell)
                if (cells.count(s) && cells.at(s)->timed()) roof = std::max(roof, cells.at(s)->roofline_pct);
            row.push_back(roof > 0 ? fmt::format("{:.0f}%", roof) : "—");
            rows.push_back(row);
        }
    std::vector<std::string> header = {"filter", "machine", "parameters", "largest size"};
    for (Category c : kRanked) header.push_back(std::string("best ") + label(c));
    header.push_back("Halide CUDA / hand");
    header.push_back("best % of roofline");
    return "## Every kind at a glance\n\nThe best of each kind at the largest size measured, per filter and "
           "machine.\n\n" +
           markdown_table(header, rows, 4);
}

}  // namespace filterlab
