#pragma once
// TensorFileDrop: dropping .pt / .safetensors / .npy files on the window
// loads them into the debugger: as constants when the name contains "const",
// inputs ("input"), expected outputs ("expected"), reference intermediates
// ("intermediate"), else as weights. A sharded Hugging Face checkpoint (its
// *.index.json, or the repository folder) loads as weights. Other files (an
// IR) go on to the window.
#include <QObject>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class DebugController;

class TensorFileDrop : public QObject {
public:
    TensorFileDrop(DebugController* controller, QObject* parent);

    // Whether a dropped path is one the debugger reads: a tensor file by its
    // extension, a shard index, or a folder holding shards or an index.
    static bool isTensorSource(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // What a dropped file holds, by its name.
    static exec::ValueFile kindOf(const QString& path);
    DebugController* c_;
};

}  // namespace irscope::widgets
