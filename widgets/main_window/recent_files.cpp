#include "widgets/main_window/recent_files.h"

#include <algorithm>

#include <QAction>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QSettings>

#include "widgets/common/document_path.h"

namespace irscope::widgets {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    connect(menu_, &QMenu::aboutToShow, this, [this] {
        if (prune()) {
            save();
            rebuild();
        }
    });
    rebuild();
}

void RecentFiles::add(const QString& path) {
    files_.removeAll(path);
    files_.prepend(path);
    while (files_.size() > kMax) files_.removeLast();
    prune();
    save();
    rebuild();
}

void RecentFiles::clear() {
    files_.clear();
    save();
    rebuild();
}

void RecentFiles::load() {
    files_ = QSettings().value(kKey).toStringList();
    while (files_.size() > kMax) files_.removeLast();
    prune();
    rebuild();
}

void RecentFiles::save() const { QSettings().setValue(kKey, files_); }

bool RecentFiles::prune() {
    const auto before = files_.size();
    files_.removeIf([](const QString& path) { return !documentExists(path); });
    return files_.size() != before;
}

QStringList recentFileLabels(const QStringList& paths) {
    // Each path's folders, innermost first.
    QList<QStringList> folders;
    for (const QString& p : paths) {
        QStringList parts = QFileInfo(p).absolutePath().split(QLatin1Char('/'), Qt::SkipEmptyParts);
        std::reverse(parts.begin(), parts.end());
        folders << parts;
    }
    QStringList labels;
    for (int i = 0; i < paths.size(); ++i) {
        const QString name = QFileInfo(paths[i]).fileName();
        // The fewest folders that no other file of this name ends with too.
        int depth = 0;
        bool shared = false;
        for (int j = 0; j < paths.size(); ++j) {
            if (j == i || QFileInfo(paths[j]).fileName() != name) continue;
            shared = true;
            int same = 0;
            while (same < folders[i].size() && same < folders[j].size() && folders[i][same] == folders[j][same]) ++same;
            depth = std::max(depth, std::min<int>(same + 1, folders[i].size()));
        }
        if (!shared) {
            labels << name;
            continue;
        }
        QStringList shown = folders[i].mid(0, depth);
        std::reverse(shown.begin(), shown.end());
        const bool whole = depth >= folders[i].size();
        labels << name + QStringLiteral(" — ") + (whole ? QStringLiteral("/") : QStringLiteral("…/")) +
                      shown.join(QLatin1Char('/'));
    }
    return labels;
}

void RecentFiles::rebuild() {
    menu_->clear();
    const QStringList labels = recentFileLabels(files_);
    for (int i = 0; i < files_.size(); ++i) {
        const QString path = files_[i];
        // The text goes through QAction's mnemonic parsing: a folder's '&' stays a '&'.
        QString label = labels[i];
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        auto* a = menu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(label));
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        a->setToolTip(path);
        a->setStatusTip(path);
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (documentExists(path)) {
                emit openRequested(path);
                return;
            }
            files_.removeAll(path);
            save();
            rebuild();
            emit vanished(path);
        });
    }
    menu_->setEnabled(!files_.isEmpty());
    if (!files_.isEmpty()) {
        menu_->addSeparator();
        menu_->addAction(tr("Clear List"), this, &RecentFiles::clear);
    }
}

}  // namespace irscope::widgets
