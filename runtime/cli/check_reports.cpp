#include "check_reports.h"

#include <fmt/format.h>

#include "registry.h"

namespace filterlab::cli {
namespace {

constexpr int kCheckJsonFormat = 1;

std::string xml_escaped(const std::string &text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace

nlohmann::json check_json(const std::vector<VariantResult> &results) {
    nlohmann::json variants = nlohmann::json::array();
    for (const VariantResult &r : results) {
        const Variant &v = *r.variant;
        variants.push_back({{"filter", v.filter},
                            {"variant", v.name},
                            {"backend", to_string(v.backend)},
                            {"kind", to_string(v.kind)},
                            {"result", r.verdict()},
                            {"passed", r.passed},
                            {"failed", r.failed},
                            {"skipped", r.skipped},
                            {"differs", r.differs},
                            {"max_difference", r.max_difference},
                            {"seconds", r.seconds},
                            {"skip_reason", r.skip_reason.empty() ? nlohmann::json() : nlohmann::json(r.skip_reason)},
                            {"failures", r.failures}});
    }
    const CheckTotals t = totals(results);
    return {{"format_version", kCheckJsonFormat},
            {"passed", t.passed},
            {"failed", t.failed},
            {"skipped", t.skipped},
            {"differs", t.differs},
            {"variants", variants}};
}

std::string check_junit_xml(const std::vector<VariantResult> &results) {
    int failures = 0, skipped = 0;
    double seconds = 0;
    std::string cases;
    for (const VariantResult &r : results) {
        const Variant &v = *r.variant;
        cases += fmt::format("    <testcase classname=\"filterlab.{}\" name=\"{}\" time=\"{:.3f}\">\n", xml_escaped(v.filter),
                             xml_escaped(v.name), r.seconds);
        if (r.failed) {
            std::string text;
            for (const std::string &f : r.failures) text += f + "\n";
            cases += fmt::format("      <failure message=\"{} of {} cases failed\">{}</failure>\n", r.failed,
                                 r.passed + r.failed, xml_escaped(text));
            failures++;
        } else if (r.passed == 0 && r.differs == 0) {
            cases += fmt::format("      <skipped message=\"{}\"/>\n",
                                 xml_escaped(r.skip_reason.empty() ? "no case this variant supports" : r.skip_reason));
            skipped++;
        }
        cases += "    </testcase>\n";
        seconds += r.seconds;
    }
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"filterlab check\" "
                       "tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n"
                       "</testsuites>\n",
                       results.size(), failures, skipped, seconds, cases);
}

}  // namespace filterlab::cli
