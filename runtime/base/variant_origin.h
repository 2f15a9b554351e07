// Where a variant came from, as data: the registry sets it (the build for
// Halide variants), the bench writes it into results.csv and the report reads
// it back, so that nothing parses a variant's name. Here, below both the
// registry and the results schema, so that both name it the same way.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace filterlab {

// A Halide variant is a named schedule, a frozen autoschedule, one point of a
// sweep or a frozen point of a schedule's space; the others are the
// reference, a hand-written kernel or a peer library.
enum class Origin { reference, schedule, autoscheduler, sweep_point, frozen_point, handwritten, peer };

inline constexpr std::array<std::pair<Origin, const char *>, 7> kOriginNames = {{
    {Origin::reference, "reference"},
    {Origin::schedule, "schedule"},
    {Origin::autoscheduler, "autoscheduler"},
    {Origin::sweep_point, "sweep_point"},
    {Origin::frozen_point, "frozen_point"},
    {Origin::handwritten, "handwritten"},
    {Origin::peer, "peer"},
}};

inline const char *to_string(Origin origin) {
    for (auto &[o, name] : kOriginNames)
        if (o == origin) return name;
    return "?";
}

// The origin a name of kOriginNames spells; none for any other text.
inline std::optional<Origin> parse_origin(std::string_view text) {
    for (auto &[o, name] : kOriginNames)
        if (text == name) return o;
    return std::nullopt;
}

}  // namespace filterlab
