#pragma once
// A catalog's records as at::Tensors over the same mapping: zero-copy where
// the alignment allows (each tensor keeps its file mapped), copied where it
// does not, where ReadOptions::copy asks, or where the bytes need swapping
// (big-endian .npy). Records that share a storage share one c10::Storage, so
// tied weights stay tied. Unsupported records become TensorMap::skipped().
#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_record.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// Throws TensorFileError naming the record's file.
TensorMap materialize(const TensorCatalog& catalog, const ReadOptions& options);

}  // namespace irscope::io
