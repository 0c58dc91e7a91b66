#pragma once
// The raw tensors of a torch.export archive (2.8 on) as catalog records.
// <program>_weights_config.json and _constants_config.json describe each
// tensor over a storage file beside them (data/weights/weight_<i>,
// data/constants/tensor_<i>): dtype number, sizes, strides and storage offset
// in elements; tied tensors name one file. The weights format
// (formats/pt2_archive_format.cpp) lists them; pt2_constants embeds the
// constants in the graph. A tensor stored pickled, compressed or of a dtype
// libtorch 1.13 lacks is listed as not supported, with the reason; a view
// reaching past its file is a FormatError.
#include <string>

#include "core/io/catalog/tensor_record.h"
#include "core/io/catalog/zip_reader.h"

namespace irscope::io {

// Appends the tensors `configEntry` describes (files under `folder`); nothing
// when configEntry is "". Record offsets are into the buffer `zip` reads.
void addPt2Payloads(TensorCatalog& catalog, const ZipReader& zip, const std::string& configEntry,
                    const std::string& folder);

}  // namespace irscope::io
