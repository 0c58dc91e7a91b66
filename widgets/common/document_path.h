#pragma once
// A document path may name one program of a torch.export archive
// ("model.pt2#encoder", core/ir/archive_path.h): what exists on disk, is
// watched for changes and is listed in recent files is its file part.
#include <QFileInfo>
#include <QString>

#include "core/ir/archive_path.h"

namespace irscope::widgets {

inline QString documentFile(const QString& path) {
    return QString::fromStdString(ir::splitArchivePath(path.toStdString()).file);
}

inline bool documentExists(const QString& path) { return QFileInfo::exists(documentFile(path)); }

}  // namespace irscope::widgets
