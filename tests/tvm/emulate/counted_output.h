// The output pointer of an emulated kernel that counts its byte stores (for
// gaussian_main.cpp: every output stored exactly once). The emulation
// (emulate_gaussian_cuda.py) gives the kernels this type in place of
// `uchar* __restrict__ output_ptr`; a kernel that stores wider vectors
// through a cast of the pointer is not counted so, and the driver says so.
#pragma once
#include <atomic>
#include <cstdint>
static uint8_t *g_output_base;
static std::atomic<int> *g_output_writes;
struct counted_output {
    uint8_t *p;
    counted_output(uint8_t *q) : p(q) {}
    struct stored {
        uint8_t *at;
        void operator=(uint8_t v) const {
            *at = v;
            g_output_writes[at - g_output_base]++;
        }
    };
    stored operator[](long i) const { return {p + i}; }
};
