#include "widgets/common/refresh_when_shown.h"

#include <QEvent>
#include <QWidget>

namespace irscope::widgets {

RefreshWhenShown::RefreshWhenShown(QWidget* panel, std::function<void()> refresh)
    : QObject(panel), panel_(panel), refresh_(std::move(refresh)) {
    panel_->installEventFilter(this);
}

void RefreshWhenShown::request() {
    // Hidden only while its window is up: a tab behind another, a closed dock.
    if (panel_->window()->isVisible() && !panel_->isVisible()) {
        pending_ = true;
        return;
    }
    pending_ = false;
    refresh_();
}

void RefreshWhenShown::flush() {
    if (pending_) {
        pending_ = false;
        refresh_();
    }
}

bool RefreshWhenShown::eventFilter(QObject* watched, QEvent* event) {
    if (watched == panel_ && event->type() == QEvent::Show) flush();
    return false;
}

}  // namespace irscope::widgets
