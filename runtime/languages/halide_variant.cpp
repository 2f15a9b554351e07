#include "halide_variant.h"

#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>
#include <HalideRuntimeOpenCL.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "cuda_support.h"
#include "error.h"
#include "halide_cuda_launch.h"

namespace filterlab {
namespace {

// The message Halide reports for the call in progress on this thread. Each
// call owns its slot (CallErrors below), so calls on other threads never see
// or overwrite each other's message. Halide calls the handler on the thread
// that runs the pipeline; an error raised inside a parallel loop may come
// from one of Halide's worker threads, which has no call of its own: the call
// then reports Halide's status code, never a message that might be another's.
thread_local std::string *call_error = nullptr;

void record_error(void *, const char *message) {
    if (!call_error) return;
    std::string text = message;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (call_error->empty()) *call_error = std::move(text);  // the first error is the cause
}

// Installs this call's slot for its length (calls nest: a variant may run another).
class CallErrors {
public:
    CallErrors() : previous_(std::exchange(call_error, &message_)) {}
    ~CallErrors() { call_error = previous_; }
    CallErrors(const CallErrors &) = delete;
    CallErrors &operator=(const CallErrors &) = delete;
    const std::string &message() const { return message_; }

private:
    std::string message_;
    std::string *previous_;
};

// The calling thread's current device's (cuda::DeviceScope picks it). No
// exception may cross Halide's C runtime: a failure is its error code.
int acquire_primary_context(void *, void **context, bool) {
    try {
        *context = cuda::primary_context();
        return 0;
    } catch (const std::exception &e) {
        record_error(nullptr, e.what());
        return halide_error_code_generic_error;
    }
}
int release_context(void *) { return 0; }
int current_stream(void *, void *, void **stream) {
    *stream = cuda::current_stream();  // the legacy default stream unless a caller named one
    return 0;
}

void install_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        halide_set_error_handler(record_error);
        halide_set_cuda_acquire_context(acquire_primary_context);
        halide_set_cuda_release_context(release_context);
        halide_set_cuda_get_stream(current_stream);
        halide_cuda::install_hooks();  // before Halide's first CUDA call loads libcuda
    });
}

// Halide's CUDA runtime keeps the device memory of its intermediate stages
// for reuse; hand it back before the process ends, so that nothing is left
// allocated (compute-sanitizer's leak check counts it otherwise). Registered
// at the first CUDA call, after the CUDA runtime's own exit handler, so it
// runs before it.
void release_device_memory_at_exit() {
    static std::once_flag once;
    std::call_once(once, [] {
        std::atexit([] { halide_device_release(nullptr, halide_cuda_device_interface()); });
    });
}

// Host memory as it is; CUDA: a device address; OpenCL: the image's cl_mem
// (opencl_support.h).
template <typename T>
Halide::Runtime::Buffer<T, 3> wrap_as(T *data, const halide_dimension_t (&shape)[3], Backend backend) {
    if (backend == Backend::cpu) return Halide::Runtime::Buffer<T, 3>(data, 3, shape);
    Halide::Runtime::Buffer<T, 3> buffer(nullptr, 3, shape);
    const halide_device_interface_t *device =
        backend == Backend::cuda ? halide_cuda_device_interface() : halide_opencl_device_interface();
    if (buffer.device_wrap_native(device, reinterpret_cast<uint64_t>(data)) != 0) {
        throw Error("cannot wrap a device pointer for Halide");
    }
    return buffer;
}

Halide::Runtime::Buffer<uint8_t, 3> wrap(const PlanarView &view, Backend backend) {
    if (view.row_stride > INT32_MAX || view.plane_stride > INT32_MAX) {
        throw Error("an image whose rows or planes are more than 2^31 bytes apart cannot be given to Halide");
    }
    const halide_dimension_t shape[3] = {{0, view.width, 1},
                                         {0, view.height, static_cast<int32_t>(view.row_stride)},
                                         {0, view.channels, static_cast<int32_t>(view.plane_stride)}};
    return wrap_as(view.data, shape, backend);
}

// The input as the pipeline reads it: bytes, or 32-bit words over the same
// memory (InputView). A layout a word view cannot describe is refused.
Halide::Runtime::Buffer<> wrap_input(const PlanarView &view, Backend backend, InputView as) {
    if (as == InputView::bytes) return wrap(view, backend);
    const bool aligned = backend != Backend::cpu || reinterpret_cast<std::uintptr_t>(view.data) % 16 == 0;
    if (!aligned || view.row_stride % 16 != 0 || view.plane_stride % 16 != 0) {
        throw Error("this variant reads the image as 32-bit words: its rows and planes must start on 16-byte "
                    "boundaries (row stride " + std::to_string(view.row_stride) + " bytes, plane stride " +
                    std::to_string(view.plane_stride) + " bytes)");
    }
    const halide_dimension_t shape[3] = {{0, (view.width + 15) / 16 * 4, 1},
                                         {0, view.height, static_cast<int32_t>(view.row_stride / 4)},
                                         {0, view.channels, static_cast<int32_t>(view.plane_stride / 4)}};
    return wrap_as(reinterpret_cast<uint32_t *>(view.data), shape, backend);
}

// The output as the pipeline writes it: 32-bit words over the same rows
// where the schedule has a words twin and the layout allows (OutputView),
// else bytes.
Halide::Runtime::Buffer<> wrap_output(const PlanarView &view, Backend backend, OutputView as) {
    // A device pointer is an address too: the twin stores 16 bytes at a time.
    const bool aligned = reinterpret_cast<std::uintptr_t>(view.data) % 16 == 0;
    if (as == OutputView::bytes || !aligned || view.width % 4 != 0 || view.row_stride % 16 != 0 ||
        view.plane_stride % 16 != 0) {
        return wrap(view, backend);
    }
    const halide_dimension_t shape[3] = {{0, view.width / 4, 1},
                                         {0, view.height, static_cast<int32_t>(view.row_stride / 4)},
                                         {0, view.channels, static_cast<int32_t>(view.plane_stride / 4)}};
    return wrap_as(reinterpret_cast<uint32_t *>(view.data), shape, backend);
}

}  // namespace

Variant halide_variant(const std::string &filter, const std::string &name, Backend backend,
                       const std::string &supports, HalideCall call, Views views) {
    Variant v;
    v.filter = filter;
    v.name = name;
    v.backend = backend;
    v.kind = Kind::halide;
    v.supports = parse_supports(supports);
    v.run = [call = std::move(call), backend, views, id = filter + "/" + name](
                const PlanarView &in, const PlanarView &out, const ParamValues &params) {
        install_handlers();
        if (backend == Backend::cuda) release_device_memory_at_exit();
        const CallErrors errors;
        auto input = wrap_input(in, backend, views.input);
        auto output = wrap_output(out, backend, views.output);
        const int status = call(input.raw_buffer(), output.raw_buffer(), params, ImageShape{in.width, in.height});
        if (backend != Backend::cpu) {
            input.device_detach_native();
            output.device_detach_native();
        }
        if (status != 0) {
            const std::string message =
                id + ": " + (errors.message().empty() ? "Halide error " + std::to_string(status) : errors.message());
            if (status == halide_error_code_out_of_memory || status == halide_error_code_device_malloc_failed) {
                throw MachineError(message);
            }
            if (backend == Backend::cuda && cuda::gpu_state_lost()) throw MachineError(message + cuda::gpu_state_lost_note());
            throw Error(message);
        }
    };
    return v;
}

}  // namespace filterlab
