#pragma once
// DebuggerSliceSource: where a tensor viewer's values table gets its blocks.
// It reads them with exec::Debugger::block on the DebugController's query
// lane, so SliceModel (a reusable model in widgets/common) needs to know
// nothing about the debugger.
#include "widgets/common/slice_model.h"

namespace irscope::widgets {

class DebugController;

class DebuggerSliceSource : public SliceModel::Source {
public:
    explicit DebuggerSliceSource(DebugController* controller) : c_(controller) {}
    bool readBlock(QObject* owner, const SliceRef& slice, int64_t row0, int64_t col0, int64_t rows, int64_t cols,
                   Deliver deliver) override;
    void dropReads(QObject* owner) override;

private:
    DebugController* c_;
};

}  // namespace irscope::widgets
