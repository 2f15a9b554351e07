#include "report_made.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "image_shape.h"
#include "report_text.h"
#include "source_lines.h"

namespace filterlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

json read_resources(const std::string &build_dir) {
    if (build_dir.empty()) return json();
    std::ifstream in(fs::path(build_dir) / "kernel_resources.json");
    if (!in) return json();
    try {
        json r = json::parse(in);
        if (!r.is_object() || !r.value("halide", json()).is_object() || !r.value("handwritten", json()).is_object())
            return json();
        return r;
    } catch (const json::exception &) {
        return json();
    }
}

// Whether `lib` is the words twin of another of `libraries` (WRITES("words"):
// "<lib>_words"), whose kernels and loop nest the report shows as its base's.
bool words_twin(const std::string &lib, const std::vector<std::string> &libraries) {
    const std::string suffix = "_words";
    return lib.size() > suffix.size() && lib.compare(lib.size() - suffix.size(), suffix.size(), suffix) == 0 &&
           std::find(libraries.begin(), libraries.end(), lib.substr(0, lib.size() - suffix.size())) != libraries.end();
}

// The library of a Halide variant that runs at these parameters: the one
// whose compile-time value ("_size5") the parameters name, else the only one
// (its words and shape twins aside).
std::string library_for(std::vector<std::string> libraries, const std::string &params) {
    const std::vector<std::string> all = libraries;
    std::erase_if(libraries, [&](const std::string &lib) { return words_twin(lib, all); });
    // A twin compiled for one image shape or the aligned class (FILTERLAB_SHAPES:
    // "<lib>_1920x1080", "<lib>_aligned"): the generic library stands for it.
    std::erase_if(libraries, [](const std::string &lib) {
        return read_build_shape(lib.substr(lib.rfind('_') + 1)).has_value();  // "1920x1080", "aligned"
    });
    for (const std::string &lib : libraries) {
        const std::size_t under = lib.rfind('_');
        std::string value = lib.substr(under + 1);  // "size5"
        const std::size_t digit = value.find_first_of("0123456789");
        if (digit != std::string::npos && digit > 0 &&
            params.find(value.substr(0, digit) + "=" + value.substr(digit)) != std::string::npos)
            return lib;
    }
    return libraries.size() == 1 ? libraries.front() : "";
}

// The loop nest of a library: <lib>.stmt (for a CPU library, one object per
// target, the build copies the AVX2 baseline's there: cmake/Variants.cmake).
fs::path stmt_of(const std::string &build_dir, const std::string &lib) {
    if (build_dir.empty() || lib.empty()) return {};
    const fs::path stmt = fs::path(build_dir) / "schedules" / (lib + ".stmt");
    return fs::is_regular_file(stmt) ? stmt : fs::path{};
}

void kernels_cells(const json &kernels, std::vector<std::string> &row) {
    int registers = 0, shared = 0, spills = 0, stack = 0;
    for (const json &k : kernels) {
        registers = std::max(registers, k.value("registers", 0));
        shared = std::max(shared, k.value("shared_bytes", 0));
        spills += k.value("spill_store_bytes", 0) + k.value("spill_load_bytes", 0);
        stack = std::max(stack, k.value("stack_bytes", 0));
    }
    row.push_back(std::to_string(kernels.size()));
    row.push_back(std::to_string(registers));
    row.push_back(fmt::format("{} B", shared));
    row.push_back(fmt::format("{} B", stack));
    row.push_back(spills ? fmt::format("**{} B**", spills) : "0");
}

// The kinds and origins whose fastest loop nest was already copied beside the report.
using OriginsSeen = std::set<std::pair<std::string, Origin>>;

// The kernels a handwritten variant's registration reaches, by their names in its file.
json handwritten_kernels(const json &resources, const ReportOptions &o, const std::string &filter,
                         const std::string &name) {
    json kernels = json::array();
    if (auto lines = handwritten_lines(o.source_dir, filter, name); lines && resources.is_object()) {
        for (const json &k : resources.at("handwritten").value(fs::path(lines->file).parent_path().filename().string() + "/" +
                                                                fs::path(lines->file).filename().string(),
                                                            json::array()))
            for (const std::string &part : lines->own_parts)
                if (k["kernel"].get<std::string>().find(part) != std::string::npos) {
                    kernels.push_back(k);
                    break;
                }
    }
    return kernels;
}

// A Halide variant's loop nest cell: its .stmt copied beside the report (the
// first, so fastest, of its kind and origin, with --with-code), else named in
// the build folder; "—" without one.
std::string halide_loop_nest(const fs::path &stmt, const BenchRow &row_of, Category c, const ReportOptions &o,
                             const fs::path &stmt_dir, OriginsSeen &best_seen) {
    // A frozen point is named by hand, as a named schedule is.
    const Origin named_or_not = named_by_hand(row_of.origin) ? Origin::schedule : row_of.origin;
    const auto origin = std::make_pair(std::string(label(c)), named_or_not);
    std::error_code ec;
    if (!stmt.empty() && o.with_code && best_seen.insert(origin).second) {
        fs::create_directories(stmt_dir, ec);
        fs::copy_file(stmt, stmt_dir / stmt.filename(), fs::copy_options::overwrite_existing, ec);
        if (!ec) return fmt::format("[{0}](stmt/{0})", stmt.filename().string());
    } else if (!stmt.empty()) {
        return fmt::format("`{}`", fs::relative(stmt, o.build_dir, ec).string());
    }
    return "—";
}

// One timed variant's row: machine, time, its kernels' resources and its loop nest.
std::vector<std::string> made_row(const std::string &filter, const View &v, const BenchRow &row_of,
                                  const std::string &name, const json &resources, const ReportOptions &o,
                                  const fs::path &stmt_dir, OriginsSeen &best_seen) {
    const Category c = v.category.at(name);
    std::vector<std::string> row = {v.machine->slug, v.params, fmt::format("`{}`", name), label(c),
                                    format_time(row_of.median_us)};
    json kernels = json::array();
    std::string loop_nest = "—";
    if (c == Category::handwritten) {
        kernels = handwritten_kernels(resources, o, filter, name);
    } else if (auto libs = o.libraries.find({filter, name}); libs != o.libraries.end()) {
        const std::string lib = library_for(libs->second, v.params);
        if (resources.is_object()) kernels = resources.at("halide").value(lib, json::array());
        loop_nest = halide_loop_nest(stmt_of(o.build_dir, lib), row_of, c, o, stmt_dir, best_seen);
    }
    if (c == Category::halide_cpu) row.insert(row.end(), {"—", "—", "—", "—", "—"});
    else kernels_cells(kernels, row);
    row.push_back(loop_nest);
    return row;
}

// A view's shown variants timed at `size`, fastest first, each with its name.
std::vector<std::pair<const BenchRow *, std::string>> timed_fastest_first(const View &v, Size size) {
    std::vector<std::pair<const BenchRow *, std::string>> timed;
    for (auto &[name, cells] : v.cell) {
        auto it = cells.find(size);
        const Category c = v.category.at(name);
        const bool shown = c == Category::halide_cuda || c == Category::handwritten || c == Category::halide_cpu;
        if (shown && it != cells.end() && it->second->timed()) timed.push_back({it->second, name});
    }
    std::sort(timed.begin(), timed.end(), [](auto &a, auto &b) { return a.first->median_us < b.first->median_us; });
    return timed;
}

// The table's rows: per view, its variants timed at its largest size, fastest first.
std::vector<std::vector<std::string>> made_rows(const std::string &filter, const std::vector<View> &views,
                                                const json &resources, const ReportOptions &o) {
    const fs::path stmt_dir = fs::path(o.out_dir) / "stmt";
    // The best of each origin at each size get their loop nest copied beside the report.
    std::vector<std::vector<std::string>> rows;
    for (const View &v : views) {
        if (v.sizes.empty()) continue;
        const Size size = v.sizes.back();
        const auto timed = timed_fastest_first(v, size);
        OriginsSeen best_seen;
        for (auto &[row_of, name] : timed)
            rows.push_back(made_row(filter, v, *row_of, name, resources, o, stmt_dir, best_seen));
    }
    return rows;
}

// The paragraph that says where the table's columns come from.
std::string made_intro(const json &resources, const ReportOptions &o) {
    return fmt::format("At the largest size of each parameter set, fastest first. Registers, shared memory, stack "
                       "frame and spills (local-memory stores + loads) are `ptxas -v`'s for {} ({}), the most over a "
                       "variant's kernels; a Halide library's PTX is assembled as the driver does at load time. Shared memory is "
                       "the static amount: Halide sizes its GPU shared memory at launch (dynamic), so its column reads "
                       "0 B even where a schedule stages in shared memory. The loop "
                       "nest is Halide's lowered statement (`-e stmt`, its PTX included), named in the build folder "
                       "`{}`{}.\n\n",
                       resources.is_object() ? resources.value("arch", "?") : "sm_90",
                       resources.is_object() ? resources.value("ptxas", "?") : "ptxas", o.build_dir,
                       o.with_code ? " (copied beside this report for the fastest of each kind and origin)"
                                   : " (`filterlab report --with-code` copies the fastest ones beside the report)");
}

}  // namespace

std::string made_section(const std::string &filter, const std::vector<View> &views, const ReportOptions &o) {
    if (o.build_dir.empty()) return "";  // no build folder given: nothing to show
    const json resources = read_resources(o.build_dir);
    std::string s = "### What the schedules made: " + filter + "\n\n";
    if (resources.is_null()) {
        s += fmt::format("No `kernel_resources.json` in the build folder `{}` (`--build`): kernel resources not shown.\n\n",
                         o.build_dir);
    }
    const std::vector<std::vector<std::string>> rows = made_rows(filter, views, resources, o);
    if (rows.empty()) return s + "No Halide or CUDA variant of " + filter + " was timed.\n\n";
    s += made_intro(resources, o);
    s += markdown_table({"machine", "parameters", "variant", "kind", "time", "kernels", "registers", "shared",
                         "stack", "spills", "loop nest"},
                        rows, 4);
    return s;
}

}  // namespace filterlab
