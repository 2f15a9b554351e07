// An image's width and height, and their one spelling: "3840x2160"
// (WIDTHxHEIGHT), or "8192" for a square. Read by the CLI (--sizes), the
// generators (a library's fixed shape, FILTERLAB_SHAPES) and the report (a
// twin library's name); the build's CMake and scripts/tvm_generate.py check
// the same spelling in their own languages.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "numbers.h"

namespace filterlab {

// Largest image side accepted anywhere (image.h's check_image_shape).
constexpr long long kMaxSide = 1 << 16;

// What a library compiled for one image shape takes (FILTERLAB_SHAPES, docs/specialisation.md).
struct ImageShape {
    int width = 0, height = 0;
    bool operator==(const ImageShape &) const = default;
};

// nullopt for anything but the spelling above, or a side outside 1..kMaxSide.
inline std::optional<ImageShape> read_shape(std::string_view text) {
    const std::size_t x = text.find('x');
    const auto width = parse_integer<int>(text.substr(0, x));
    const auto height = x == std::string_view::npos ? width : parse_integer<int>(text.substr(x + 1));
    if (!width || !height || *width < 1 || *height < 1 || *width > kMaxSide || *height > kMaxSide) return std::nullopt;
    return ImageShape{*width, *height};
}

inline std::string shape_text(ImageShape shape) { return std::to_string(shape.width) + "x" + std::to_string(shape.height); }

}  // namespace filterlab
