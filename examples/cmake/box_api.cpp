// The API: box filter (radius 2) of a PGM by the fastest CPU variant.
// usage: box_api IN.pgm OUT.pgm
#include <filterlab/filterlab.h>

#include <cstdio>
#include <vector>

#include "../pgm.h"

int main(int argc, char **argv) {
    int width = 0, height = 0;
    unsigned char *pixels = argc == 3 ? read_pgm(argv[1], &width, &height) : nullptr;
    if (!pixels) return std::fprintf(stderr, "usage: box_api IN.pgm OUT.pgm (binary PGM)\n"), 2;
    std::vector<unsigned char> out(static_cast<size_t>(width) * height);
    filterlab::ImageRef in_ref{pixels, width, height, 1};
    filterlab::ImageRef out_ref{out.data(), width, height, 1};
    const filterlab::Outcome r = filterlab::box(in_ref, out_ref, 2);
    free(pixels);
    if (!r) return std::fprintf(stderr, "box_api: %s\n", r.message.c_str()), 1;
    std::printf("%s: %s\n", filterlab::version().c_str(), r.variant.c_str());
    return write_pgm(argv[2], out.data(), width, height) ? 0 : 1;
}
