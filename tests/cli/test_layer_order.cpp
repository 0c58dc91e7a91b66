// Layers drawn in the order they run, in both exports of the same model:
// `irscope render --depth 1` (layers closed) and `--depth 2` (layers open)
// of a Llama decoder, an MoE decoder and a GPT-2-style model, each as the
// .pt2 torch.export.save wrote and as the JSON pytorch-ir wrote
// (tests/data/layer_order/make_layer_order_cases.py). Layer i+1 lies wholly
// below layer i. The .pt2 drawings had the layers side by side, in reverse.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::readFile;
using irscope::test::runIrscope;

class TestLayerOrder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layersStackInRunOrder_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("list");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("depth");
        for (const char* ext : {"pt2", "json"})
            for (const char* depth : {"1", "2"}) {
                const QString tail = QStringLiteral(".%1 depth %2").arg(QLatin1String(ext), QLatin1String(depth));
                QTest::newRow(qPrintable(QStringLiteral("llama") + tail))
                    << QStringLiteral("llama_decoder.%1").arg(QLatin1String(ext)) << QStringLiteral("layers") << 3
                    << QString::fromLatin1(depth);
                QTest::newRow(qPrintable(QStringLiteral("moe") + tail))
                    << QStringLiteral("moe_decoder.%1").arg(QLatin1String(ext)) << QStringLiteral("layers") << 3
                    << QString::fromLatin1(depth);
                QTest::newRow(qPrintable(QStringLiteral("gpt2") + tail))
                    << QStringLiteral("gpt2_style.%1").arg(QLatin1String(ext)) << QStringLiteral("h") << 2
                    << QString::fromLatin1(depth);
            }
    }
    void layersStackInRunOrder() {
        QFETCH(QString, file);
        QFETCH(QString, list);
        QFETCH(int, layers);
        QFETCH(QString, depth);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("drawing.svg"));
        const auto r =
            runIrscope({"render", q(dataPath("layer_order/" + file.toStdString())), "--depth", depth, "-o", out});
        QCOMPARE(r.exitCode, 0);
        const QString svg = QString::fromStdString(readFile(out.toStdString()));
        // A closed layer is a module box, an open one a frame: <g id="module_layers.1" ...><title>..</title><rect x y w
        // h
        const QString kind = depth == QLatin1String("1") ? QStringLiteral("module") : QStringLiteral("frame");
        double previousBottom = -1;
        for (int i = 0; i < layers; ++i) {
            const QRegularExpression box(
                QStringLiteral("<g id=\"%1_%2\\.%3\"[^>]*>(?:<title>[^<]*</title>)?\\s*<rect x=\"["
                               "-\\d.]+\" y=\"([-\\d.]+)\" width=\"[\\d.]+\" height=\"([\\d.]+)\"")
                    .arg(kind, list)
                    .arg(i));
            const auto m = box.match(svg);
            QVERIFY2(m.hasMatch(), qPrintable(QStringLiteral("no %1 %2.%3 in the drawing").arg(kind, list).arg(i)));
            const double y = m.captured(1).toDouble(), height = m.captured(2).toDouble();
            QVERIFY2(y >= previousBottom,
                     qPrintable(QStringLiteral("%1.%2 starts at y=%3, above the end of %1.%4 (y=%5)")
                                    .arg(list)
                                    .arg(i)
                                    .arg(y)
                                    .arg(i - 1)
                                    .arg(previousBottom)));
            previousBottom = y + height;
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestLayerOrder)
#include "test_layer_order.moc"
