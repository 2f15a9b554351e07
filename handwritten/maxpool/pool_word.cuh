// 2x2 max pooling of packed pixels, for kernels that hold rows as 32-bit
// words of 4 pixels.
#pragma once

#include <cstdint>

namespace filterlab::handwritten {

// Pixels x..x+3 of rows 2y and 2y+1 -> outputs x/2 and x/2+1 in bytes 0 and
// 1. The vertical maximum is taken on 16-bit lanes holding the even and the
// odd pixels (__vmaxu4 is emulated on recent GPUs), then the horizontal one.
__device__ inline uint32_t pool_word(uint32_t top, uint32_t bottom) {
    const uint32_t even = __vmaxu2(top & 0x00ff00ffu, bottom & 0x00ff00ffu);
    const uint32_t odd = __vmaxu2((top >> 8) & 0x00ff00ffu, (bottom >> 8) & 0x00ff00ffu);
    const uint32_t m = __vmaxu2(even, odd);  // outputs in bits 0..7 and 16..23
    return (m & 0xffu) | ((m >> 8) & 0xff00u);
}

}  // namespace filterlab::handwritten
