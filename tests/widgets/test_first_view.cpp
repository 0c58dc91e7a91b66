// What a user sees first, in the window (1400x900, offscreen): the layers of
// a Llama decoder, an MoE decoder and a GPT-2-style model stacked in the
// order they run, from the .pt2 and from the JSON of each
// (tests/data/layer_order); the first view readable, from the graph's
// inputs, with no box cut by the window's left edge; Ctrl+0 the same, not a
// tall graph shrunk to a few percent. The .pt2 first views had the layers
// side by side in reverse, and opened cut off on the left.
#include <QAction>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "test_support.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using irscope::layout::ItemKind;
using irscope::test::kData;

class TestFirstView : public QObject {
    Q_OBJECT
    MainWindow* window_ = nullptr;

    bool open(const QString& file) {
        delete window_;
        window_ = new MainWindow;
        window_->resize(1400, 900);
        window_->show();
        if (!QTest::qWaitForWindowExposed(window_)) return false;
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(file);
        return loaded.wait(30000);
    }
    // No box the view shows is cut by its left or top edge (frames, which
    // hold others, may be).
    QString cutBoxes() const {
        const GraphView* view = window_->graphView();
        const QRectF seen = view->visibleSceneRect();
        const double eps = 1 / view->zoom();
        QStringList cut;
        for (const auto& it : window_->session()->layout()->result.items) {
            if (it.kind == ItemKind::Frame) continue;
            const QRectF r(it.rect.x, it.rect.y, it.rect.width, it.rect.height);
            if (!r.intersects(seen)) continue;
            if (r.left() < seen.left() - eps || r.top() < seen.top() - eps) cut << QString::fromStdString(it.name);
        }
        return cut.join(QStringLiteral(", "));
    }
    void checkReadableFromTheTop(const char* when) {
        const GraphView* view = window_->graphView();
        const auto& b = window_->session()->layout()->result.bounds;
        const bool wholeFits = view->fitZoom() >= GraphView::kReadableZoom;
        QVERIFY2(wholeFits || view->zoom() >= GraphView::kReadableZoom - 1e-9,
                 qPrintable(QStringLiteral("%1: zoom %2").arg(QLatin1String(when)).arg(view->zoom())));
        QVERIFY2(view->visibleSceneRect().top() <= b.y + 4 / view->zoom(),
                 qPrintable(QStringLiteral("%1: the view starts at y=%2, the graph at %3")
                                .arg(QLatin1String(when))
                                .arg(view->visibleSceneRect().top())
                                .arg(b.y)));  // starts at the inputs
        const QString cut = cutBoxes();
        QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1: cut by the edge: %2").arg(QLatin1String(when), cut)));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void layersInRunOrderAndAReadableStart_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("list");
        QTest::addColumn<int>("layers");
        for (const char* ext : {"pt2", "json"}) {
            QTest::newRow(qPrintable(QStringLiteral("llama.") + QLatin1String(ext)))
                << QStringLiteral("llama_decoder.") + QLatin1String(ext) << QStringLiteral("layers") << 3;
            QTest::newRow(qPrintable(QStringLiteral("moe.") + QLatin1String(ext)))
                << QStringLiteral("moe_decoder.") + QLatin1String(ext) << QStringLiteral("layers") << 3;
            QTest::newRow(qPrintable(QStringLiteral("gpt2.") + QLatin1String(ext)))
                << QStringLiteral("gpt2_style.") + QLatin1String(ext) << QStringLiteral("h") << 2;
        }
    }
    void layersInRunOrderAndAReadableStart() {
        QFETCH(QString, file);
        QFETCH(QString, list);
        QFETCH(int, layers);
        QVERIFY(open(kData + QStringLiteral("/layer_order/") + file));
        const auto& items = window_->session()->layout()->result.items;
        double previousBottom = -1e300;
        for (int i = 0; i < layers; ++i) {
            const std::string name = list.toStdString() + "." + std::to_string(i);
            const irscope::layout::PlacedItem* layer = nullptr;
            for (const auto& it : items)
                if ((it.kind == ItemKind::Module || it.kind == ItemKind::Frame) && it.name == name) layer = &it;
            QVERIFY2(layer, name.c_str());
            QVERIFY2(layer->rect.y >= previousBottom - 1e-6,
                     qPrintable(QStringLiteral("%1 at y=%2, above the end of the layer before (%3)")
                                    .arg(QString::fromStdString(name))
                                    .arg(layer->rect.y)
                                    .arg(previousBottom)));
            previousBottom = layer->rect.bottom();
        }
        checkReadableFromTheTop("first view");
        window_->graphView()->setZoom(0.1);
        window_->findChild<QAction*>(QStringLiteral("readableViewAction"))->trigger();  // Ctrl+0
        checkReadableFromTheTop("Ctrl+0");
        // View > Fit to Window: the whole drawing, however small that makes it.
        window_->findChild<QAction*>(QStringLiteral("fitAction"))->trigger();
        const auto& whole = window_->session()->layout()->result.bounds;
        QVERIFY(window_->graphView()
                    ->visibleSceneRect()
                    .adjusted(-1, -1, 1, 1)
                    .contains(QRectF(whole.x, whole.y, whole.width, whole.height)));
    }

    // Ten nodes: the whole graph, at most actual size.
    void aSmallGraphIsShownWhole() {
        QVERIFY(open(kData + QStringLiteral("/ir/simple_mlp.json")));
        const GraphView* view = window_->graphView();
        QVERIFY(view->zoom() <= 1.0);
        const auto& b = window_->session()->layout()->result.bounds;
        QVERIFY(view->visibleSceneRect().contains(QRectF(b.x, b.y, b.width, b.height)));
    }

    // A flat 290-op MoE is far taller than the window: Ctrl+0 keeps it
    // readable and scrolls, instead of fitting it at a few percent.
    void ctrl0OnATallGraphStaysReadable() {
        QVERIFY(open(kData + QStringLiteral("/layer_order/moe_decoder.json")));
        QSignalSpy relaid(window_->session(), &GraphSession::layoutChanged);
        window_->session()->setGroupByModule(false);
        QVERIFY(relaid.wait(30000));
        window_->graphView()->setZoom(1.0);
        window_->findChild<QAction*>(QStringLiteral("readableViewAction"))->trigger();
        QVERIFY(window_->graphView()->fitZoom() < GraphView::kReadableZoom);  // it is tall
        checkReadableFromTheTop("Ctrl+0 flat");
        window_->session()->setGroupByModule(true);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestFirstView)
#include "test_first_view.moc"
