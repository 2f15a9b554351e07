// The layout of a `filterlab bench` run directory, shared by the benchmark that
// writes it and the report that reads it. The format number goes into
// results.json's context; a run without it (written before the gallery
// existed) or with another number is refused by the report with a message.
#pragma once

namespace filterlab {

// 2: results.json's context carries "format"; gallery/ holds the pictures.
// 3: results.csv carries each variant's origin, algorithm and point (after
//    kind); the report still reads format 2, deriving them (run_dir.cpp).
// 4: the point spelled as everywhere, "tile_x=64+tile_y=8"
//    (runtime/base/schedule_point.h); format 3 joined its axes with spaces,
//    which the report still reads (run_dir.cpp).
// 5: results.csv carries each DSL variant's path for the case's image, exact
//    (compiled for its shape: FILTERLAB_SHAPES) or generic (after point).
constexpr int kRunFormat = 5;
constexpr int kOldestReadRunFormat = 2;
constexpr const char *kRunResultsCsv = "results.csv";
constexpr const char *kRunResultsJson = "results.json";
constexpr const char *kRunGalleryDir = "gallery";
constexpr const char *kRunGalleryJson = "gallery/gallery.json";
// Written by `filterlab sweep` beside the bench's files: the schedule's axes
// and each point's values and check.
constexpr const char *kSweepFile = "sweep.json";

}  // namespace filterlab
