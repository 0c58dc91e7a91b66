// Validation against the malformed corpus (tests/data/malformed/expected.tsv,
// written by hand in make_malformed.py): every case must produce its finding.
#include <QtTest>

#include <fstream>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/ir/validate.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::dataPath;

class TestValidate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void seedsAreClean_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("SimpleMLP") << "seeds/SimpleMLP.json";
        QTest::newRow("MaskedLinear") << "seeds/MaskedLinear.json";
        QTest::newRow("GatherWithIndex") << "seeds/GatherWithIndex.json";
    }
    void seedsAreClean() {
        QFETCH(QString, file);
        const auto graph = ir::loadGraphFile(dataPath(file.toStdString()));
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        for (const auto& d : diagnostics) qWarning("%s", ir::formatDiagnostic(d).c_str());
        QCOMPARE(diagnostics.size(), size_t(0));
    }

    void corpus_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("text");
        std::ifstream manifest(dataPath("malformed/expected.tsv"));
        QVERIFY(manifest.good());
        std::string line;
        int rows = 0;
        while (std::getline(manifest, line)) {
            const auto fields = QString::fromStdString(line).split('\t');
            QCOMPARE(fields.size(), 4);
            QTest::newRow(qPrintable(fields[0])) << fields[0] << fields[1] << fields[2] << fields[3];
            ++rows;
        }
        QVERIFY(rows >= 30);
    }
    void corpus() {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, code);
        QFETCH(QString, text);
        const std::string path = dataPath("malformed/" + file.toStdString());
        if (kind == "load") {
            try {
                ir::loadGraphFile(path);
            } catch (const ir::LoadError& e) {
                QVERIFY2(std::string(e.what()).find(text.toStdString()) != std::string::npos, e.what());
                QVERIFY2(std::string(e.what()).rfind(path, 0) == 0, "the message must start with the file name");
                return;
            }
            QFAIL("expected the file to be refused");
        }
        const auto graph = ir::loadGraphFile(path);
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        const ir::Severity severity = kind == "error"     ? ir::Severity::Error
                                      : kind == "warning" ? ir::Severity::Warning
                                                          : ir::Severity::Info;
        QString all;
        for (const auto& d : diagnostics) {
            all += QString::fromStdString(ir::formatDiagnostic(d)) + "\n";
            if (d.severity == severity && d.code == code.toStdString() &&
                d.message.find(text.toStdString()) != std::string::npos)
                return;
        }
        QFAIL(qPrintable("no " + kind + " [" + code + "] containing \"" + text + "\"; got:\n" + all));
    }

    void missingConstantNamesEverythingNeeded() {
        const auto graph = ir::loadGraphFile(dataPath("malformed/meta_extracted.json"));
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        QCOMPARE(ir::countSeverity(diagnostics, ir::Severity::Error), size_t(0));  // a warning until execution
        const auto& d = diagnostics.at(0);
        QCOMPARE(d.code, std::string("missing-constant"));
        QCOMPARE(d.node, std::string("mul"));
        QCOMPARE(d.tensor, std::string("c_mask"));
        QVERIFY(d.message.find("--constants") != std::string::npos);
        QVERIFY(d.message.find("meta device") != std::string::npos);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestValidate)
#include "test_validate.moc"
