#include "widgets/debugger/debugger_slice_source.h"

#include <memory>

#include "widgets/session/debug_controller.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

bool DebuggerSliceSource::readBlock(QObject* owner, const SliceRef& slice, int64_t row0, int64_t col0, int64_t rows,
                                    int64_t cols, Deliver deliver) {
    // No tag: every block is its own request; a new slice drops them all (dropReads).
    return c_->tensors()->query(
        {}, owner,
        [t = slice.tensor.toStdString(), lead = slice.lead, side = slice.side, row0, col0, rows, cols,
         deliver = std::move(deliver)](const exec::Debugger& d) -> DebugController::Continuation {
            auto values =
                std::make_shared<std::vector<double>>(d.tensors().block(t, lead, row0, col0, rows, cols, side));
            return [deliver, values] { deliver(std::move(*values)); };
        });
}

void DebuggerSliceSource::dropReads(QObject* owner) { c_->tensors()->dropQueries(owner); }

}  // namespace irscope::widgets
