/* FilterLab's C ABI, for other languages: the C++ API of filterlab.h behind
 * plain C types. Every function returns 0 on success; otherwise non-zero, and
 * the reason in `message` (when not NULL, truncated to message_size bytes,
 * always terminated). Both functions may be called from any number of threads
 * at once, on any streams (filterlab.h, "Threads"). */
#ifndef FILTERLAB_C_H
#define FILTERLAB_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct filterlab_image {
    uint8_t *data;
    int width, height, channels;
    ptrdiff_t row_pitch;   /* bytes between rows; 0: packed */
    int interleaved;       /* 0: planar, 1: interleaved samples */
    int on_device;         /* 0: host memory, 1: CUDA device memory */
    ptrdiff_t plane_pitch; /* planar: bytes between planes; 0: row_pitch x height */
} filterlab_image;

/* Runs `filter` ("box", "median", ...) with `params` ("radius=2", several
 * separated by spaces; NULL or "": the defaults) by `variant` (NULL or "":
 * the default) on `cuda_stream` (a cudaStream_t, NULL: the default stream).
 * `params` is read as `filterlab run -p` reads it: integers written plainly
 * where the contract wants integers, each name once, each value in range;
 * anything else fails with the CLI's message, the output untouched. */
int filterlab_run(const char *filter, const filterlab_image *in, const filterlab_image *out, const char *params,
                  const char *variant, void *cuda_stream, char *message, size_t message_size);

/* "0.5.0 (commit abc1234)"; the string lives as long as the process. */
const char *filterlab_version(void);

#ifdef __cplusplus
}
#endif

#endif
