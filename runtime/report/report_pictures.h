// The report's pictures of one filter on one machine, from the gallery of its
// latest run that has one (gallery/gallery.json): the noisy input and the
// output, copied beside the page (a picture identical to one already copied
// is linked, not copied again), their PSNR, whether each variant's output is
// byte-identical to the reference's, and a plot of every variant's output
// histogram. A run kept without its gallery's images (as the committed runs
// under reports/ are) still gives the identities and the histograms.
#pragma once

#include <map>
#include <string>

#include "report_model.h"
#include "report_plots.h"

namespace filterlab {

// The pictures copied into one report folder: their bytes -> file name.
using CopiedPictures = std::map<std::string, std::string>;

std::string pictures_section(const report_model::Machine &m, const std::string &filter, const std::string &out_dir,
                             PlotList &plots, CopiedPictures &copied);

}  // namespace filterlab
