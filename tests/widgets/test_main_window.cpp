// The main window end to end, in process: open, click-select, walk, search,
// op statistics, export, weights toggle, a corrupt file keeping the graph.
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "test_support.h"
#include "widgets/graph_view/graph_renderer.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/op_stats_panel.h"
#include "widgets/panels/properties_panel.h"
#include "widgets/panels/search_panel.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;

using irscope::test::kData;

namespace {
int64_t nodeIndex(GraphSession* s, const char* name) {
    auto i = s->document()->index->nodeIndex(name);
    return i ? *i : -1;
}
}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private:
    // Written off the UI thread: the window answers while a big drawing is made.
    bool exported(const QString& path) {
        int written = -1;
        window_->exportTo(path, [&written](bool ok) { written = ok; });
        return QTest::qWaitFor([&written] { return written >= 0; }, 30000) && written == 1;
    }

    MainWindow* window_ = nullptr;
    GraphSession* session_ = nullptr;

    bool open(const QString& file) {
        QSignalSpy loaded(session_, &GraphSession::graphLoaded);
        window_->openFile(file);
        return loaded.wait(20000);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
        window_ = new MainWindow;
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        session_ = window_->session();
        QVERIFY(open(kData + QStringLiteral("/ir/resnet_tiny.json")));
        QCOMPARE(session_->document()->graph.nodes.size(), size_t(51));
    }
    void cleanupTestCase() { delete window_; }

    void clickSelectsNodeAndShowsProperties() {
        GraphView* view = window_->graphView();
        const ItemRef target = ItemRef::node(nodeIndex(session_, "convolution"));
        view->setZoom(1.0);
        view->centerOn(target);
        const QPointF pos = view->viewportPosOf(target);
        QVERIFY(view->viewport()->rect().contains(pos.toPoint()));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pos.toPoint());
        QCOMPARE(session_->selectionModel()->selection(), target);
        QCOMPARE(window_->panelAs<PropertiesPanel>(kPropertiesPanel)->shownName(), QStringLiteral("convolution"));
        // Its inputs are highlighted: the graph input x feeds it.
        const auto* lay = session_->layout();
        QVERIFY(session_->selectionModel()->itemFlags()[lay->inputItem[0]] & kFlagProducer);
        QVERIFY(session_->selectionModel()->itemFlags()[lay->nodeItem[target.index]] & kFlagSelected);
        // ... and its consumer.
        const int64_t bn = nodeIndex(session_, "_native_batch_norm_legit_no_training");
        QVERIFY(session_->selectionModel()->itemFlags()[lay->nodeItem[bn]] & kFlagConsumer);
        // A click on empty canvas clears the selection.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(3, 3));
        QVERIFY(session_->selectionModel()->selection().isNone());
    }

    void walkUpAndDown() {
        GraphView* view = window_->graphView();
        const int64_t relu = nodeIndex(session_, "relu_");
        session_->selectionModel()->select(ItemRef::node(relu), true);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Up);
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::node(nodeIndex(session_, "getitem")));
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::node(relu));
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(session_->selectionModel()->selection(),
                 ItemRef::node(nodeIndex(session_, "max_pool2d_with_indices")));
        // Alt+Down from the window's Go menu.
        QTest::keyClick(window_, Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::node(nodeIndex(session_, "getitem_1")));
        // Up from a convolution reaches its data input, not its weight.
        session_->selectionModel()->select(ItemRef::node(nodeIndex(session_, "convolution_1")));
        QVERIFY(session_->selectionModel()->walkToProducer());
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::node(nodeIndex(session_, "getitem_1")));
    }

    // The zoom in the status bar never reads "0.0%" (Fit on a huge graph).
    void zoomTextKeepsTwoDigits() {
        QCOMPARE(zoomText(1.5), QStringLiteral("150%"));
        QCOMPARE(zoomText(0.1), QStringLiteral("10%"));
        QCOMPARE(zoomText(0.025), QStringLiteral("2.5%"));
        QCOMPARE(zoomText(0.00034), QStringLiteral("0.034%"));
        QCOMPARE(zoomText(0.0000012), QStringLiteral("0.00012%"));
    }

    void searchCountsAndCycles() {
        SearchPanel* search = window_->panelAs<SearchPanel>(kSearchPanel);
        QTest::keyClick(window_, Qt::Key_F, Qt::ControlModifier);
        QLineEdit* edit = search->lineEdit();
        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("conv"));
        search->runSearch();
        // 11 convolution nodes + 9 weights whose names contain "conv" (from the fixture).
        QCOMPARE(search->matchCount(), 20);
        QCOMPARE(session_->selectionModel()->highlight().size(), size_t(20));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(search->currentMatch(), 0);
        QCOMPARE(session_->selectionModel()->selection(), search->matches()[0]);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(search->currentMatch(), 1);
        QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(search->currentMatch(), 19);
        // The match is centred in the view.
        const QPointF pos = window_->graphView()->viewportPosOf(session_->selectionModel()->selection());
        const QRect vp = window_->graphView()->viewport()->rect();
        QVERIFY(std::abs(pos.x() - vp.center().x()) < 3 || std::abs(pos.y() - vp.center().y()) < 3);
        QVERIFY(vp.contains(pos.toPoint()));
        edit->clear();
        search->runSearch();
        QCOMPARE(search->matchCount(), 0);
        QVERIFY(session_->selectionModel()->highlight().empty());
    }

    void opStatisticsPickHighlights() {
        window_->panelAs<OpStatsPanel>(kOpStatsPanel)->pickOpType(QStringLiteral("aten.convolution.default"));
        QCOMPARE(session_->selectionModel()->highlight().size(), size_t(11));
        QCOMPARE(session_->selectionModel()->selection(), ItemRef::node(nodeIndex(session_, "convolution")));
        QCOMPARE(window_->panelAs<OpStatsPanel>(kOpStatsPanel)->table()->topLevelItemCount(), 9);
    }

    void exportSvgPngMermaid() {
        QTemporaryDir dir;
        QVERIFY(exported(dir.filePath(QStringLiteral("g.svg"))));
        QFile svg(dir.filePath(QStringLiteral("g.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("id=\"op_convolution\""));
        QVERIFY(text.contains("<title>convolution_1</title>"));
        QVERIFY(text.contains("stroke-dasharray"));
        QVERIFY(exported(dir.filePath(QStringLiteral("g.png"))));
        QImage png(dir.filePath(QStringLiteral("g.png")));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 300 && png.height() > 1000);
        QVERIFY(exported(dir.filePath(QStringLiteral("g.mmd"))));
        QFile mmd(dir.filePath(QStringLiteral("g.mmd")));
        QVERIFY(mmd.open(QIODevice::ReadOnly));
        QVERIFY(mmd.readAll().startsWith("flowchart TD\n"));
    }

    void weightsToggle() {
        const size_t withWeights = session_->layout()->result.items.size();
        QSignalSpy relaid(session_, &GraphSession::layoutChanged);
        session_->setShowWeights(false);
        QVERIFY(relaid.wait(20000));
        const auto& items = session_->layout()->result.items;
        QVERIFY(items.size() < withWeights);
        for (const auto& it : items) QVERIFY(!irscope::layout::isWeightItem(it.kind));
        session_->setShowWeights(true);
        QVERIFY(relaid.wait(20000));
        QCOMPARE(session_->layout()->result.items.size(), withWeights);
    }

    void propertiesExplainTensorLists() {
        QVERIFY(open(kData + QStringLiteral("/ir/llama_block.json")));
        QVERIFY(session_->selectionModel()->selectNodeByName(QStringLiteral("cat")));
        auto* tree = window_->panelAs<PropertiesPanel>(kPropertiesPanel)->tree();
        QVERIFY(!tree->findItems(QStringLiteral("tensor-list arguments"), Qt::MatchExactly | Qt::MatchRecursive, 0)
                     .isEmpty());
        QVERIFY(
            tree->findItems(QStringLiteral("_tensor_list_sizes"), Qt::MatchExactly | Qt::MatchRecursive, 0).isEmpty());
        // A weight shows its placeholder and original name.
        QVERIFY(session_->selectionModel()->selectNodeByName(QStringLiteral("p_norm1_weight")));
        QCOMPARE(window_->panelAs<PropertiesPanel>(kPropertiesPanel)->shownName(), QStringLiteral("p_norm1_weight"));
        const auto original =
            tree->findItems(QStringLiteral("Original name"), Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(original.size(), 1);
        QCOMPARE(original.front()->text(1), QStringLiteral("norm1_weight"));  // weight_name_mapping in the fixture
    }

    void corruptFileKeepsPreviousGraph() {
        const size_t nodes = session_->document()->graph.nodes.size();
        const QString path = session_->filePath();
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"model_name\": \"x\", \"nodes\": [ {\"name\": 3,");
        f.close();
        QSignalSpy failed(session_, &GraphSession::loadFailed);
        window_->openFile(bad);
        QVERIFY(failed.wait(20000));
        QVERIFY(window_->messageVisible());
        QVERIFY(window_->messageText().contains(QStringLiteral("broken.json")));
        QCOMPARE(session_->document()->graph.nodes.size(), nodes);
        QCOMPARE(session_->filePath(), path);
    }

    void levelsOfDetailDraw() {
        GraphView* view = window_->graphView();
        for (double zoom : {0.05, 0.3, 1.0}) {
            view->setZoom(zoom);
            QImage img(view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
            view->renderFrame(img);
            // Something other than the background is drawn at every level.
            const QRgb bg = view->theme().background.rgba();
            int drawn = 0;
            for (int y = 0; y < img.height(); y += 4)
                for (int x = 0; x < img.width(); x += 4) drawn += img.pixel(x, y) != bg;
            QVERIFY2(drawn > 20, qPrintable(QStringLiteral("zoom %1: %2 pixels").arg(zoom).arg(drawn)));
        }
    }

    void themeFollowsSystemPalette() {
        GraphView* view = window_->graphView();
        QVERIFY(!view->theme().dark);
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::WindowText, Qt::white);
        dark.setColor(QPalette::Text, Qt::white);
        QApplication::setPalette(dark);
        QCoreApplication::processEvents();
        QVERIFY(view->theme().dark);
        if (qEnvironmentVariableIsSet("IRSCOPE_SHOT_DIR")) {
            view->setZoom(1.0);
            window_->grab().save(qEnvironmentVariable("IRSCOPE_SHOT_DIR") + QStringLiteral("/dark.png"));
        }
        QApplication::setPalette(light);
        QCoreApplication::processEvents();
        QVERIFY(!view->theme().dark);
    }

    // A 2,500-node chain is a column 2,500 layers tall: the minimap keeps it
    // a column you can see and click (it was under a pixel wide), and a click
    // at its foot goes to the last nodes.
    void minimapShowsATallColumn() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("column.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const int n = 2500;
            QByteArray nodes;
            QString prev = QStringLiteral("x");
            for (int i = 0; i < n; ++i) {
                const QString name = QStringLiteral("relu_%1").arg(i);
                nodes +=
                    QStringLiteral(
                        R"(%1{"name":"%2","op_type":"aten.relu.default","inputs":[{"name":"%3","shape":[4],"dtype":"float32","producer_node":"%3","producer_output_idx":0}],"outputs":[{"name":"%2","shape":[4],"dtype":"float32"}],"attrs":{}})")
                        .arg(i ? QStringLiteral(",") : QString(), name, prev)
                        .toUtf8();
                prev = name;
            }
            f.write(
                QStringLiteral(
                    R"({"model_name":"Column","pytorch_version":"2.13.0","graph_inputs":[{"name":"x","shape":[4],"dtype":"float32"}],"graph_outputs":[{"name":"%1","shape":[4],"dtype":"float32"}],"weights":[],"weight_name_mapping":{},"nodes":[)")
                    .arg(prev)
                    .toUtf8() +
                nodes + "]}");
        }
        QVERIFY(open(path));
        auto* minimap = window_->graphView()->findChild<QWidget*>(QStringLiteral("minimap"));
        QVERIFY(minimap && minimap->isVisible());
        const QImage shot = minimap->grab().toImage();
        const QColor bg = shot.pixelColor(shot.width() - 4, shot.height() / 2);
        int columns = 0;
        for (int x = 2; x < shot.width() - 2; ++x) {
            bool drawn = false;
            for (int y = 2; y < shot.height() - 2 && !drawn; ++y) {
                const QColor c = shot.pixelColor(x, y);
                drawn =
                    std::abs(c.red() - bg.red()) + std::abs(c.green() - bg.green()) + std::abs(c.blue() - bg.blue()) >
                    40;
            }
            columns += drawn;
        }
        QVERIFY2(columns >= 15, qPrintable(QString::number(columns)));
        // A click at its foot shows the end of the chain.
        QTest::mouseClick(minimap, Qt::LeftButton, {}, QPoint(12, minimap->height() - 1));  // its last row
        const QRectF seen = window_->graphView()->visibleSceneRect();
        const auto items = session_->layout()->itemsOf(ItemRef::node(2499));
        QVERIFY(!items.empty());
        const auto& last = session_->layout()->result.items[static_cast<size_t>(items.front())].rect;
        QVERIFY2(seen.contains(QPointF(last.center().x, last.center().y)),
                 qPrintable(QStringLiteral("%1..%2 vs %3").arg(seen.top()).arg(seen.bottom()).arg(last.center().y)));
        QVERIFY(open(kData + QStringLiteral("/ir/resnet_tiny.json")));  // as the other tests expect
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
