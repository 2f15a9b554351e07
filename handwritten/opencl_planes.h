// What the hand-written OpenCL kernels share on the host: each channel plane
// as kernel arguments. Every kernel of handwritten/*/*.cl starts with
//   (__global const uchar *in, long in_offset, int in_pitch,
//    __global uchar *out, long out_offset, int out_pitch, int width, int height)
// (offsets and pitches in bytes; width and height the input's). The .cl
// sources reach C++ as <name>_cl strings (handwritten/CMakeLists.txt). Every
// OpenCL call is checked by opencl_support.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "image.h"
#include "opencl_support.h"

namespace filterlab::handwritten::opencl_planes {

// Sets arguments 0..7 of `kernel` to plane `c` of in -> out.
inline opencl::Kernel &plane_arguments(opencl::Kernel &kernel, const PlanarView &in, const PlanarView &out, int c) {
    return kernel.arg(0, opencl::memory_of(in))
        .arg(1, static_cast<std::int64_t>(c * in.plane_stride))
        .arg(2, static_cast<int>(in.row_stride))
        .arg(3, opencl::memory_of(out))
        .arg(4, static_cast<std::int64_t>(c * out.plane_stride))
        .arg(5, static_cast<int>(out.row_stride))
        .arg(6, in.width)
        .arg(7, in.height);
}

// The build options that fix the kernel's compile-time constants: "-D NAME=value ...".
inline std::string defines(std::initializer_list<std::pair<const char *, int>> values) {
    std::string options;
    for (auto &[name, value] : values) options += std::string(" -D ") + name + "=" + std::to_string(value);
    return options;
}

}  // namespace filterlab::handwritten::opencl_planes
