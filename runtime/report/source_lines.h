// Lines of code of one variant, counted from the source tree for the report's
// DSL-versus-hand verdict: non-blank lines that are not only comment.
//
// A Halide variant counts the body of its schedule (where the build's reader
// found it: Variant::source, from the build's variants.json) and the helpers it reaches in the
// headers beside it (schedules/<filter>/*.h); a
// handwritten one counts every top-level definition of its .cu file (and of
// the headers beside it) reachable from its registration: kernels, device
// helpers, constants, the host wrapper, the registration itself. Helpers from
// the headers shared between filters (schedules/schedule_helpers.h, other
// filters' schedules/*/*.h; handwritten/*.h, *.cuh) that the variant reaches
// are counted apart, as "shared". The Halide algorithm (generators/<filter>.h) is counted once per
// filter: every schedule of the filter shares it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "source_span.h"

namespace filterlab {

struct LineCount {
    int own = 0;     // the schedule's body, or the kernel file's reachable definitions
    int shared = 0;  // reachable helpers of the shared headers
    std::string file;                    // relative to the source tree
    std::vector<std::string> own_parts;  // names of what was counted
    std::vector<std::string> shared_parts;
};

// Non-blank lines left once comments are removed.
int count_code_lines(const std::string &text);

// nullopt when the variant's source is not found under `source_dir` (for a
// schedule: no definition spans exactly `schedule`'s lines any more).
std::optional<LineCount> schedule_lines(const std::string &source_dir, const std::string &filter,
                                        const SourceSpan &schedule);
std::optional<LineCount> handwritten_lines(const std::string &source_dir, const std::string &filter,
                                           const std::string &variant);
// The code lines of one span of a file (an autoscheduled variant's estimates
// in its generator); nullopt when the file is absent.
std::optional<LineCount> span_lines(const std::string &source_dir, const SourceSpan &span);
// The code lines of generators/<filter>.h; nullopt when absent.
std::optional<int> algorithm_lines(const std::string &source_dir, const std::string &filter);

}  // namespace filterlab
