// Which of a DSL variant's libraries a call takes for its image: the generic
// one, the aligned class's or the image's exact shape's (FILTERLAB_SHAPES,
// docs/specialisation.md), and the ceiling a thread puts on that choice.
// Read by the registry (shape_path), the check and the bench, and by each
// language's call (compiled_pipeline.h).
#pragma once

#include <algorithm>
#include <vector>

#include "image_shape.h"

namespace filterlab {

// A DSL variant's paths, from the most general: the generic library (every
// image), the aligned class's, the image's exact shape's. A call takes the
// most specialised path it can, up to the thread's ceiling.
enum class ShapePath { generic, aligned, exact };

inline const char *to_string(ShapePath path) {
    switch (path) {
    case ShapePath::generic: return "generic";
    case ShapePath::aligned: return "aligned";
    case ShapePath::exact: return "exact";
    }
    return "?";
}

// The most specialised path calls on this thread may take (`bench --paths
// all` times each path of a variant at the same image; `check` checks each).
inline thread_local ShapePath path_ceiling = ShapePath::exact;

// Lowers this thread's ceiling to `most` while it lives (never raises it).
class PathCeilingScope {
public:
    explicit PathCeilingScope(ShapePath most) : previous_(path_ceiling) { path_ceiling = std::min(previous_, most); }
    ~PathCeilingScope() { path_ceiling = previous_; }
    PathCeilingScope(const PathCeilingScope &) = delete;
    PathCeilingScope &operator=(const PathCeilingScope &) = delete;

private:
    ShapePath previous_;
};

// The path a call on `image` takes among a variant's: `exact_shapes` and
// whether it has an aligned path, `pitched` whether the call's rows and
// planes are pitched as the aligned class needs (the harness always pitches
// device rows to 64 bytes).
inline ShapePath path_for(const std::vector<ImageShape> &exact_shapes, bool aligned_path, ImageShape image,
                          bool pitched = true) {
    if (path_ceiling >= ShapePath::exact && std::find(exact_shapes.begin(), exact_shapes.end(), image) != exact_shapes.end())
        return ShapePath::exact;
    if (path_ceiling >= ShapePath::aligned && aligned_path && pitched && in_aligned_class(image.width, {}))
        return ShapePath::aligned;
    return ShapePath::generic;
}

}  // namespace filterlab
