#include "report_opencl.h"

#include <fmt/format.h>

#include "report_text.h"

namespace filterlab {

using namespace report_model;
using namespace report_text;

std::string opencl_section(const std::string &filter, const std::vector<View> &views,
                           const std::map<std::pair<std::string, std::string>, std::string> &twins) {
    std::vector<std::vector<std::string>> rows;
    for (const View &v : views)
        for (const std::string &name : v.variants) {
            const auto known = twins.find({filter, name});
            const std::string twin = known == twins.end() ? "" : known->second;
            const auto mine = v.cell.find(name), theirs = v.cell.find(twin);
            if (twin.empty() || mine == v.cell.end() || theirs == v.cell.end()) continue;
            for (auto &[size, row] : mine->second) {
                const auto other = theirs->second.find(size);
                if (other == theirs->second.end() || !row->timed() || !other->second->timed()) continue;
                const double ratio = row->median_us / other->second->median_us;
                rows.push_back({v.machine->slug, fmt::format("{}, {}ch", v.params, v.channels), size_label(size),
                                fmt::format("`{}` {}", name, format_time(row->median_us)),
                                fmt::format("`{}` {}", twin, format_time(other->second->median_us)),
                                fmt::format("{:.2f}", ratio),
                                ratio >= 1 ? fmt::format("OpenCL {:.2f}× slower", ratio)
                                           : fmt::format("OpenCL {:.2f}× faster", 1 / ratio)});
            }
        }
    if (rows.empty()) return "";
    return "### OpenCL against CUDA: " + filter +
           "\n\nThe same Halide schedule built for each API, and each hand-written OpenCL kernel beside the CUDA "
           "kernel it ports, on the same machine and GPU (OpenCL timed by the host clock between `clFinish` calls, "
           "CUDA by events; both over the same rotation of buffers).\n\n" +
           markdown_table({"machine", "parameters", "size", "OpenCL", "CUDA", "OpenCL / CUDA", "verdict"}, rows, 3);
}

}  // namespace filterlab
