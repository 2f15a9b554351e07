// Where the tests find the bundled images and the CLI: the build's paths,
// unless FILTERLAB_IMAGES / FILTERLAB_EXE say otherwise (as on the GPU
// machine, where the binaries run from another folder).
#pragma once

#include <cstdlib>
#include <string>

inline std::string test_images_dir() {
    const char *env = std::getenv("FILTERLAB_IMAGES");
    return env ? env : FILTERLAB_IMAGES_DIR;
}

#ifdef FILTERLAB_EXE
inline std::string filterlab_exe() {
    const char *env = std::getenv("FILTERLAB_EXE");
    return env ? env : FILTERLAB_EXE;
}
#endif
