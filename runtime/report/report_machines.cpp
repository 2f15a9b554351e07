#include "report_machines.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report_text.h"

namespace filterlab {
namespace {

using json = nlohmann::json;
using namespace report_model;
using namespace report_text;

std::string gpu_fact(const json &gpu) {
    if (!gpu.contains("name")) return "none (" + gpu.value("absent", std::string("?")) + ")";
    return fmt::format("{} (compute {}, {} SMs, {:.1f} GiB, L2 {:.0f} MiB, SM {} MHz, memory {} MHz; driver {}, "
                       "runtime {})",
                       gpu.value("name", "?"), gpu.value("compute_capability", "?"), gpu.value("sm_count", 0),
                       gpu.value("memory_bytes", 0.0) / 1073741824.0, gpu.value("l2_bytes", 0.0) / 1048576.0,
                       gpu.value("sm_clock_mhz", 0), gpu.value("memory_clock_mhz", 0), gpu.value("driver_version", 0),
                       gpu.value("runtime_version", 0));
}

std::string facts_table(const Machine &m) {
    const json &c = m.runs.back()->context;
    const json cpu = c.value("cpu", json::object());
    std::vector<std::vector<std::string>> facts;
    facts.push_back({"host", c.value("host_name", "?")});
    facts.push_back({"CPU", fmt::format("{} ({} hardware threads, {} Halide threads; {})", cpu.value("model", "?"),
                                        cpu.value("hardware_threads", 0), cpu.value("halide_threads", 0),
                                        cpu.value("features", ""))});
    facts.push_back({"GPU", gpu_fact(c.value("gpu", json::object()))});
    const double roof = roofline_of(m);
    facts.push_back({"copy roofline", roof > 0 ? fmt::format("{:.0f} GB/s (1 GiB device-to-device cudaMemcpy, read + "
                                                             "write)",
                                                             roof)
                                               : "not measured (no GPU)"});
    if (c.contains("plugins"))
        for (auto &[name, detail] : c["plugins"].items()) facts.push_back({"plugin " + name, detail.get<std::string>()});
    facts.push_back({"Halide targets", c.value("build", json::object()).value("halide_targets", "?")});
    return markdown_table({"", ""}, facts, 2);
}

std::string runs_table(const Machine &m) {
    const bool gpu = m.runs.back()->context.value("gpu", json::object()).contains("name");
    std::vector<std::vector<std::string>> runs;
    for (const RunDir *r : m.runs) {
        const json &rc = r->context;
        const json start = rc.value("gpu_clocks_start", json::object()), end = rc.value("gpu_clocks_end", json::object());
        runs.push_back({fmt::format("`{}`", r->path), rc.value("build", json::object()).value("commit", "?"),
                        gpu ? fmt::format("SM {}→{} MHz, memory {}→{} MHz", start.value("sm_mhz", 0),
                                          end.value("sm_mhz", 0), start.value("memory_mhz", 0),
                                          end.value("memory_mhz", 0))
                            : "—",
                        fmt::format("`{}`", rc.value("command", std::string("?")))});
    }
    return markdown_table({"run", "commit", "GPU clocks, start→end", "command"}, runs, 4);
}

}  // namespace

std::string machines_section(const std::vector<Machine> &machines) {
    std::string s = "## Machines and runs\n\n";
    for (const Machine &m : machines) s += fmt::format("### {}: {}\n\n", m.slug, m.name) + facts_table(m) + runs_table(m);
    return s;
}

}  // namespace filterlab
