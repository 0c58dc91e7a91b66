#include "widgets/main_window/recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QSettings>

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
    files_.removeIf([](const QString& path) { return !QFileInfo::exists(path); });
    return files_.size() != before;
}

void RecentFiles::rebuild() {
    menu_->clear();
    for (int i = 0; i < files_.size(); ++i) {
        const QString path = files_[i];
        auto* a = menu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        a->setToolTip(path);
        a->setStatusTip(path);
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (QFileInfo::exists(path)) {
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
