// One Halide schedule's static library, called directly: box_cpu_tiled.
// usage: box_schedule IN.pgm OUT.pgm
#include <filterlab/halide/HalideBuffer.h>
#include <filterlab/halide/box_cpu_tiled.h>

#include <cstdio>

#include "../pgm.h"

int main(int argc, char **argv) {
    int width = 0, height = 0;
    unsigned char *pixels = argc == 3 ? read_pgm(argv[1], &width, &height) : nullptr;
    if (!pixels) return std::fprintf(stderr, "usage: box_schedule IN.pgm OUT.pgm (binary PGM)\n"), 2;
    // Planar buffers (x, y, channel); one channel here.
    Halide::Runtime::Buffer<uint8_t, 3> in(pixels, width, height, 1), out(width, height, 1);
    const int status = filterlab::halide::box_cpu_tiled(in, 2, out);  // radius 2
    const bool ok = status == 0 && write_pgm(argv[2], out.data(), width, height);
    free(pixels);
    return ok ? 0 : 1;
}
