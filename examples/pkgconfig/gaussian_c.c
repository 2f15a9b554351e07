/* The C ABI through pkg-config: a Gaussian (sigma 1.5) of a PGM.
 * usage: gaussian_c IN.pgm OUT.pgm */
#include <filterlab/filterlab_c.h>
#include <stdio.h>

#include "../pgm.h"

int main(int argc, char **argv) {
    int width = 0, height = 0;
    unsigned char *pixels = argc == 3 ? read_pgm(argv[1], &width, &height) : NULL;
    if (!pixels) return fprintf(stderr, "usage: gaussian_c IN.pgm OUT.pgm (binary PGM)\n"), 2;
    unsigned char *out = malloc((size_t)width * height);
    filterlab_image in_image = {pixels, width, height, 1, 0, 0, 0, 0};
    filterlab_image out_image = {out, width, height, 1, 0, 0, 0, 0};
    char message[512];
    if (!out || filterlab_run("gaussian", &in_image, &out_image, "sigma=1.5", NULL, NULL, message, sizeof message)) {
        fprintf(stderr, "gaussian_c: %s\n", out ? message : "out of memory");
        return 1;
    }
    int ok = write_pgm(argv[2], out, width, height);
    free(pixels);
    free(out);
    return ok ? 0 : 1;
}
