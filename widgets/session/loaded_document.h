#pragma once
// What a GraphSession holds once a file is loaded: the immutable document
// (graph, index, diagnostics) and a layout of it (one per "show weights"
// setting), with the lookups the view and panels need. Built off the UI
// thread by the functions below; shared read-only afterwards.
#include <QHash>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QString>

#include "core/ir/diagnostic.h"
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/layout.h"
#include "core/layout/layout_result.h"
#include "core/layout/spatial_grid.h"
#include "core/modules/module_drawing.h"
#include "core/modules/module_tree.h"
#include "widgets/session/item_ref.h"

namespace irscope::widgets {

struct LoadedDocument {
    QString path;
    ir::Graph graph;
    std::unique_ptr<ir::GraphIndex> index;  // refers to `graph`: the document never moves
    std::vector<ir::Diagnostic> diagnostics;
    std::unique_ptr<modules::ModuleTree> modules;  // inferred at load (core/modules)
};

struct DocumentLayout {
    bool includeWeights = true;
    layout::LayoutResult result;
    layout::SpatialGrid grid;       // refers to `result`
    std::vector<int32_t> nodeItem;  // node index -> item id (-1: none)
    std::vector<int32_t> inputItem, outputItem;
    QHash<QString, std::vector<int32_t>> weightItems;  // placeholder -> its drawn copies
    std::vector<int32_t> itemEdgeOffset;               // item -> [offset, offset+1) into itemEdges
    std::vector<int32_t> itemEdges;                    // edges touching each item (in and out)

    // Drawn by module (the default): the box or frame of each module (-1: not
    // drawn), and for a node hidden in a collapsed module that module's box.
    bool byModule = false;
    std::vector<int32_t> moduleItem;
    std::vector<int32_t> hiddenNodeBox;

    // Items that draw `ref` (a weight drawn once per use has several; a node
    // may also have ghost proxies, not included; a node inside a collapsed
    // module answers that module's box).
    std::vector<int32_t> itemsOf(const ItemRef& ref) const;
    ItemRef refOf(int32_t item) const;  // a ghost answers its source's ref
};

using ProgressFn = std::function<void(int percent, const QString& stage)>;

// Loads, indexes and validates. Throws ir::LoadError / ir::LoadCancelled / std::exception.
std::shared_ptr<LoadedDocument> loadDocument(const QString& path, const std::atomic<bool>& cancel,
                                             const ProgressFn& progress);
// Lays a document out with the drawing's fonts and builds the lookups.
// progress: see layout::LayoutProgress (returning false throws layout::LayoutCancelled).
std::shared_ptr<DocumentLayout> layoutDocument(const LoadedDocument& doc, bool includeWeights,
                                               const layout::LayoutProgress& progress = {});
// The collapsed drawing's options with the drawing's fonts.
modules::DrawingOptions drawingOptions(bool includeWeights, const layout::LayoutProgress& progress = {});
// Composes a module drawing (laying out what changed) and builds the lookups.
std::shared_ptr<DocumentLayout> layoutByModule(const LoadedDocument& doc, modules::ModuleDrawing& drawing);

// The label font metrics the layout assumes (12 px DejaVu Sans Mono).
inline constexpr double kLabelFontPx = 12;
inline constexpr double kLabelLineHeight = 15;

}  // namespace irscope::widgets
