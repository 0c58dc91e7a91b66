#pragma once
// GraphDecorations: what is drawn on the graph beyond its shape, one part of
// the session every panel observes (GraphSession holds it: decorations()).
// The run's marks per node (ran, failed, next, breakpoints, missing values),
// the overlay's colour and badge per node and per closed module, the
// overlay's legend, placeholders whose value the debugger now has, and the
// marks of a comparison with another graph. The debugger and the
// comparison fill it; the view and the panels read it. Cleared when a new
// graph loads.
#include <cstdint>
#include <utility>
#include <vector>

#include <QColor>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include "widgets/session/diff_marks.h"
#include "widgets/session/node_decoration.h"

namespace irscope::widgets {

class GraphSession;

class GraphDecorations : public QObject {
    Q_OBJECT
public:
    explicit GraphDecorations(GraphSession& session);

    void setNodeDecorations(std::vector<NodeDecoration> perNode);
    void setNodeDecoration(int64_t node, const NodeDecoration& decoration);
    const NodeDecoration* nodeDecoration(int64_t node) const;  // nullptr: none
    bool hasDecorations() const {
        return !decorations_.empty() || !weightDecorations_.isEmpty() || highlightsModules();
    }
    // Placeholders (by name, e.g. "c_mask") drawn with a decoration (missing-value mark).
    void setWeightDecorations(QHash<QString, NodeDecoration> byPlaceholder);
    const NodeDecoration* weightDecoration(const QString& placeholder) const;  // nullptr: none
    // A collapsed module's box carries what its ops carry: failed if one failed,
    // done when all ran ("12/46 ran" while some did), any breakpoint or missing
    // value inside, and the search hits inside ("3 hits"). nullptr for open
    // modules (their ops show for themselves) and when nothing applies.
    const NodeDecoration* moduleDecoration(int64_t module) const;
    // An open module's outline under an overlay: its ops' aggregate colour
    // (invalid: none), whether the module is open or closed.
    QColor moduleOverlayColour(int64_t module) const;
    // The debugger's overlay aggregated per module (colour and badge by ModuleId); empty: none.
    void setModuleOverlays(std::vector<std::pair<QColor, QString>> perModule);
    // The overlay's key for the view's legend (an empty title: no overlay).
    void setOverlayLegend(const QString& title, std::vector<std::pair<QColor, QString>> entries);
    const QString& overlayLegendTitle() const { return legendTitle_; }
    const std::vector<std::pair<QColor, QString>>& overlayLegend() const { return legend_; }
    // "done", "failed", "12/46 ran" for a module after (part of) a run, open or closed; nullptr: nothing ran.
    const QString* moduleStatus(int64_t module) const;
    // Seconds the module's ops took in the run so far (0 before any ran).
    double moduleSeconds(int64_t module) const;

    // Placeholders whose value the debugger now has although the IR lacks it (a
    // c_ constant typed in or loaded): validation's "missing" findings about them
    // are settled. Cleared when a new graph loads.
    void setSuppliedPlaceholders(QSet<QString> names);
    const QSet<QString>& suppliedPlaceholders() const { return supplied_; }

    // ---- comparison with another graph (widgets/compare): cleared when a new graph loads
    void setDiffMarks(DiffMarks marks);
    void clearDiffMarks() { setDiffMarks({}); }
    void setDimUnchanged(bool dim);
    const DiffMarks& diffMarks() const { return diffMarks_; }

signals:
    void decorationsChanged();
    void overlayLegendChanged();
    void suppliedPlaceholdersChanged();
    void diffMarksChanged();

public:
    // ---- what the session and the selection tell the decorations
    // A new document: nothing of the old one's.
    void documentChanged();
    // The module aggregates are computed again when next asked (the layout,
    // the expansion or the highlight changed).
    void modulesChanged() { moduleDecorationsDirty_ = true; }
    // Something drawn over the nodes changed that is not a decoration of
    // theirs (subgraph breakpoints): views repaint (decorationsChanged).
    void redraw() { emit decorationsChanged(); }

private:
    bool highlightsModules() const;

    GraphSession& s_;
    std::vector<NodeDecoration> decorations_;
    QHash<QString, NodeDecoration> weightDecorations_;
    mutable std::vector<NodeDecoration> moduleDecorations_;  // by ModuleId, rebuilt on demand
    mutable std::vector<QString> moduleStatus_;
    mutable std::vector<double> moduleSeconds_;
    std::vector<std::pair<QColor, QString>> moduleOverlays_;
    QString legendTitle_;
    std::vector<std::pair<QColor, QString>> legend_;
    mutable bool moduleDecorationsDirty_ = true;
    QSet<QString> supplied_;
    DiffMarks diffMarks_;
};

}  // namespace irscope::widgets
