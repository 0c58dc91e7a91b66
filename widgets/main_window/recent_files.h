#pragma once
// RecentFiles: File ▸ Open Recent as desktop applications keep it: the nine
// files opened last, newest first, numbered &1..&9 with Ctrl+1..Ctrl+9, and
// files that vanished from disk dropped (when the menu opens, when the list
// loads, and when one is picked). Kept in QSettings under "recentFiles".
// Files of the same name are told apart as Qt Creator and VS Code do: the
// name, then as many of the folders above it as it takes to make each entry
// unique ("model.json — exp1/run3", "model.json — exp2/run3").
#include <QObject>
#include <QStringList>

class QMenu;

namespace irscope::widgets {

// The menu's text for each of `paths` (absolute): the file name, and for a
// name more than one of them share, " — " and the fewest trailing folders
// that tell them apart.
QStringList recentFileLabels(const QStringList& paths);

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 9;

    // Fills `menu` (owned by the caller) and keeps it up to date.
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    const QStringList& files() const { return files_; }
    void add(const QString& path);  // an absolute path just opened
    void clear();
    void load();  // from QSettings
    void save() const;

signals:
    void openRequested(const QString& path);
    void vanished(const QString& path);  // picked, but no longer on disk (and dropped)

private:
    bool prune();  // true when a file was dropped
    void rebuild();

    QMenu* menu_;
    QStringList files_;
};

}  // namespace irscope::widgets
