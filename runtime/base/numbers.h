// Numbers typed by users, parsed strictly: plain decimal only — no spaces,
// no sign but a leading '-', no hexadecimal, no exponent, no inf or nan — so
// that what runs is exactly what was typed.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace filterlab {

// "-12", "7"; nullopt for anything else (also on overflow).
template <typename Int = long long>
std::optional<Int> parse_integer(std::string_view text) {
    Int value{};
    if (text.empty() || text.front() == '+') return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// "1.5", "-0.25", ".5", "2"; nullopt for anything else.
inline std::optional<double> parse_decimal(std::string_view text) {
    const std::string_view digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
    if (digits.empty() || digits.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace filterlab
