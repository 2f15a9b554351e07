// An image's width and height, and their one spelling: "3840x2160"
// (WIDTHxHEIGHT), or "8192" for a square. Read by the CLI (--sizes), the
// generators (a library's fixed shape, FILTERLAB_SHAPES) and the report (a
// twin library's name); the build's CMake and filterlab_build/tvm_generate.py check
// the same spelling in their own languages. Also the aligned class, spelled
// "aligned" in FILTERLAB_SHAPES: every image whose width and row pitch are
// multiples of the numbers below (filterlab_build/tvm_generate.py reads them here).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "numbers.h"

namespace filterlab {

// Largest image side accepted anywhere (image.h's check_image_shape).
constexpr long long kMaxSide = 1 << 16;

// The aligned class: a width a multiple of kAlignedWidth pixels, and rows
// (and planes) that start kAlignedPitch bytes apart or a multiple of it, as
// the harness pitches every device image. A library compiled for the class
// knows its rows hold whole 64-pixel groups, so that no group straddles the
// image's edge or a cache line.
constexpr int kAlignedWidth = 64;
constexpr int kAlignedPitch = 64;

// What a library compiled for one image shape takes (FILTERLAB_SHAPES,
// docs/specialisation.md); {0, 0} (kAlignedClass) stands for the aligned class.
struct ImageShape {
    int width = 0, height = 0;
    bool operator==(const ImageShape &) const = default;
};
inline constexpr ImageShape kAlignedClass{0, 0};
constexpr const char *kAlignedSpelling = "aligned";

// nullopt for anything but the spelling above, or a side outside 1..kMaxSide.
inline std::optional<ImageShape> read_shape(std::string_view text) {
    const std::size_t x = text.find('x');
    const auto width = parse_integer<int>(text.substr(0, x));
    const auto height = x == std::string_view::npos ? width : parse_integer<int>(text.substr(x + 1));
    if (!width || !height || *width < 1 || *height < 1 || *width > kMaxSide || *height > kMaxSide) return std::nullopt;
    return ImageShape{*width, *height};
}

inline std::string shape_text(ImageShape shape) {
    if (shape == kAlignedClass) return kAlignedSpelling;
    return std::to_string(shape.width) + "x" + std::to_string(shape.height);
}

// A shape of FILTERLAB_SHAPES: read_shape's, or the aligned class.
inline std::optional<ImageShape> read_build_shape(std::string_view text) {
    if (text == kAlignedSpelling) return kAlignedClass;
    if (text.find('x') == std::string_view::npos) return std::nullopt;
    return read_shape(text);
}

// Whether an image `width` pixels wide whose buffers' row and plane strides
// are these (in bytes) belongs to the aligned class.
inline bool in_aligned_class(long long width, std::initializer_list<long long> strides_in_bytes) {
    if (width % kAlignedWidth != 0) return false;
    for (long long s : strides_in_bytes)
        if (s % kAlignedPitch != 0) return false;
    return true;
}

// Takes the aligned class out of a list of build shapes; whether it was there.
inline bool take_aligned_class(std::vector<ImageShape> &shapes) { return std::erase(shapes, kAlignedClass) > 0; }

}  // namespace filterlab
