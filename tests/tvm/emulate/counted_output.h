// The output pointer of an emulated kernel that counts its byte stores (for
// box_main.cpp and gaussian_main.cpp: every output stored exactly once). The
// emulations give the kernels this type in place of
// `uchar* __restrict__ output_ptr`. A kernel's wider vector stores go through
// a cast of the pointer (`*(uint*)(output_ptr + i) = ...`): the cast counts
// each byte of the vector, since the kernels cast the output pointer only to
// store through it.
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
    counted_output operator+(long i) const { return {p + i}; }
    template <class T> explicit operator T *() const {
        for (size_t b = 0; b < sizeof(T); b++) g_output_writes[p + b - g_output_base]++;
        return reinterpret_cast<T *>(p);
    }
};
