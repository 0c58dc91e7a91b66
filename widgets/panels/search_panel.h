#pragma once
// SearchPanel: live search over node names, op types, tensor names and
// weight names. Hits become the session's highlight; Enter / Shift+Enter walk
// through them, selecting and centring each.
#include <vector>

#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/session/item_ref.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;

namespace irscope::widgets {

class GraphSession;

class SearchPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit SearchPanel(GraphSession* session, QWidget* parent = nullptr);

    QLineEdit* lineEdit() const { return edit_; }
    int matchCount() const { return static_cast<int>(hits_.size()); }
    int currentMatch() const { return current_; }  // -1 before the first Enter
    const std::vector<ItemRef>& matches() const { return hits_; }

public slots:
    void focusSearch();
    void runSearch();  // immediately (normally debounced while typing)
    void next();
    void previous();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void documentOpened(bool sameModel) override;
    void go(int index);
    void updateCount();
    void searchAgainInPlace();

    GraphSession* session_;
    QLineEdit* edit_;
    QLabel* count_;
    QListWidget* list_;
    QTimer* debounce_;
    std::vector<ItemRef> hits_;
    int current_ = -1;
};

}  // namespace irscope::widgets
