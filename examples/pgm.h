/* Binary PGM (P5, 8-bit) in and out for the examples, in C so that every
 * example can use it. Returns the pixels (free() them) or NULL. */
#ifndef FILTERLAB_EXAMPLE_PGM_H
#define FILTERLAB_EXAMPLE_PGM_H
#include <stdio.h>
#include <stdlib.h>

static unsigned char *read_pgm(const char *path, int *width, int *height) {
    FILE *f = fopen(path, "rb");
    int max = 0;
    unsigned char *pixels = NULL;
    if (f && fscanf(f, "P5 %d %d %d", width, height, &max) == 3 && max == 255 && fgetc(f) != EOF) {
        size_t n = (size_t)*width * (size_t)*height;
        pixels = (unsigned char *)malloc(n);
        if (pixels && fread(pixels, 1, n, f) != n) free(pixels), pixels = NULL;
    }
    if (f) fclose(f);
    return pixels;
}

static int write_pgm(const char *path, const unsigned char *pixels, int width, int height) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fprintf(f, "P5\n%d %d\n255\n", width, height);
    size_t n = (size_t)width * (size_t)height;
    int ok = fwrite(pixels, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}
#endif
