#pragma once
// Verification against references: outputs with allclose semantics (as
// torch.allclose: |a - e| <= atol + rtol * |e|, NaN never equal) under the
// tolerance of tolerance.h (assert_close's default for the dtypes unless the
// user set one), integer and bool tensors exactly; and intermediates against
// a reference dump, reporting the first node in execution order that diverges.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/numerics/tolerance.h"
#include "core/ir/graph.h"

namespace at {
class Tensor;
}
namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

class Session;

struct Comparison {
    std::string name;
    bool matched = false;
    bool exact = false;   // compared exactly (integer/bool)
    std::string problem;  // shape/dtype mismatch, missing value ("" when comparable)
    int64_t numel = 0;
    int64_t mismatches = 0;           // elements outside the tolerance
    double maxAbsDiff = 0;            // max |actual - expected| (inf when a NaN/inf differs)
    double maxRelDiff = 0;            // max |actual - expected| / |expected| (inf where expected is 0)
    std::vector<int64_t> worstIndex;  // index of the largest |actual - expected|
    double worstActual = 0, worstExpected = 0;
    AppliedTolerance tolerance;  // what `matched` was judged by
};

// "torch_ir spelling" of a dtype ("float32").
std::string dtypeNameOf(const at::Tensor& tensor);

Comparison compareTensors(const std::string& name, const at::Tensor& actual, const at::Tensor& expected,
                          const Tolerance& tolerance = {});

// One Comparison per graph output, in order (a missing actual or expected
// value is a non-matching Comparison with `problem` set).
std::vector<Comparison> compareOutputs(const Session& session, const io::TensorMap& expected,
                                       const Tolerance& tolerance = {});

struct Divergence {
    int64_t node = -1;
    std::string nodeName, opType;
    Comparison comparison;  // of the first diverging output of that node
};

struct IntermediateReport {
    int64_t compared = 0;        // tensors compared
    int64_t notInReference = 0;  // node outputs the reference does not have
    int64_t notComputed = 0;     // reference tensors with no computed value (not run or freed)
    std::optional<Divergence> first;
};

// The walk both reports share: every computed node output that the
// reference has, in execution order, given to `visit(node, output index,
// actual, reference)`; the outputs only one side has are counted.
struct ReferenceWalk {
    int64_t notInReference = 0;  // computed outputs the reference lacks
    int64_t notComputed = 0;     // reference tensors with no computed value (not run, or freed)
};
ReferenceWalk forEachReferencedOutput(
    const Session& session, const io::TensorMap& reference,
    const std::function<void(int64_t node, size_t output, const at::Tensor& actual, const at::Tensor& ref)>& visit);

// Walks the nodes in execution order and compares each computed output that
// the reference has; the first mismatch is reported.
IntermediateReport compareIntermediates(const Session& session, const io::TensorMap& reference,
                                        const Tolerance& tolerance = {});

// "[0, 3, 1]"
std::string indexText(const std::vector<int64_t>& index);

}  // namespace irscope::exec
