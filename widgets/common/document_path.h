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

// The file's canonical path with the program kept: "/real/dir/model.pt2#encoder"
// ("" when the file is not there), to tell whether two paths open the same document.
inline QString canonicalDocumentPath(const QString& path) {
    const ir::ArchivePath parts = ir::splitArchivePath(path.toStdString());
    const QString file = QFileInfo(QString::fromStdString(parts.file)).canonicalFilePath();
    return file.isEmpty() || parts.program.empty() ? file
                                                   : file + QLatin1Char('#') + QString::fromStdString(parts.program);
}

inline bool documentExists(const QString& path) { return QFileInfo::exists(documentFile(path)); }

}  // namespace irscope::widgets
