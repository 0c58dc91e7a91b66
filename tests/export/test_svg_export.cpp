// SVG export: parsed back with QXmlStreamReader, checked for ids, titles,
// dashed weight edges, fills and escaping.
#include <QDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>

#include "core/export/svg_export.h"
#include "core/ir/json_io.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "layout/layout_checks.h"

using namespace irscope;

namespace {

struct Element {
    QString name;
    QXmlStreamAttributes attrs;
    QString title;     // <title> of a <g>
    QString text;      // text of a <text>
    QString parentId;  // id of the enclosing <g>
};

struct ParsedSvg {
    QXmlStreamAttributes root;
    std::vector<Element> elements;
    std::map<QString, size_t> groupById;
};

ParsedSvg parse(const std::string& svg) {
    ParsedSvg out;
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    std::vector<size_t> stack;  // open elements
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            Element e;
            e.name = xml.name().toString();
            e.attrs = xml.attributes();
            for (auto it = stack.rbegin(); it != stack.rend(); ++it)
                if (out.elements[*it].name == "g") {
                    e.parentId = out.elements[*it].attrs.value("id").toString();
                    break;
                }
            if (e.name == "svg") out.root = e.attrs;
            out.elements.push_back(e);
            stack.push_back(out.elements.size() - 1);
            if (e.name == "g" && e.attrs.hasAttribute("id"))
                out.groupById[e.attrs.value("id").toString()] = stack.back();
        } else if (xml.isEndElement()) {
            stack.pop_back();
        } else if (xml.isCharacters() && !stack.empty()) {
            Element& e = out.elements[stack.back()];
            if (e.name == "text") e.text += xml.text();
            if (e.name == "title") {
                for (auto it = stack.rbegin() + 1; it != stack.rend(); ++it)
                    if (out.elements[*it].name == "g") {
                        out.elements[*it].title += xml.text();
                        break;
                    }
            }
        }
    }
    if (xml.hasError()) qWarning("%s", qPrintable(xml.errorString()));
    [&] { QVERIFY2(!xml.hasError(), qPrintable(xml.errorString())); }();
    return out;
}

std::string renderFixture(const char* file, bool weights, double scale = 1.0) {
    const auto graph = ir::loadGraphFile(std::string(IRSCOPE_TEST_DATA) + "/ir/" + file);
    const ir::GraphIndex index(graph);
    exporter::SvgOptions o;
    o.scale = scale;
    return exporter::graphToSvg(graph, index, weights, o);
}

// Fill of the shape (first rect/polygon) inside group `id`.
QString shapeFill(const ParsedSvg& svg, const QString& id) {
    for (const auto& e : svg.elements)
        if (e.parentId == id && (e.name == "rect" || e.name == "polygon")) return e.attrs.value("fill").toString();
    return {};
}

}  // namespace

class TestSvgExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bufferVsConstant() {
        // x -> linear(p_linear_weight, p_linear_bias) -> mul(b_scale) -> add(c_offset) -> output
        const ParsedSvg svg = parse(renderFixture("buffer_vs_constant.json", true));
        QVERIFY(!svg.elements.empty());
        QCOMPARE(svg.elements.front().name, QString("svg"));
        const QStringList ids{"op_linear",       "op_mul",    "op_add",     "input_x", "w_p_linear_weight",
                              "w_p_linear_bias", "w_b_scale", "w_c_offset", "output_0"};
        for (const auto& id : ids) QVERIFY2(svg.groupById.count(id), qPrintable(id));
        QCOMPARE(svg.elements[svg.groupById.at("op_linear")].title, QString("linear"));
        QCOMPARE(svg.elements[svg.groupById.at("w_b_scale")].title, QString("b_scale"));
        QCOMPARE(svg.elements[svg.groupById.at("op_mul")].attrs.value("class").toString(),
                 QString("node op elementwise"));

        // Edges: 4 dashed weight edges with a dasharray on their path, 4 solid ones without.
        int dashed = 0, solid = 0, labelled = 0;
        for (const auto& e : svg.elements) {
            if (e.name != "path") continue;
            const auto& g = svg.elements[svg.groupById.at(e.parentId)];
            const QString cls = g.attrs.value("class").toString();
            if (cls == "edge dashed") {
                ++dashed;
                QVERIFY(!e.attrs.value("stroke-dasharray").isEmpty());
                QVERIFY(g.title.startsWith("p_") || g.title.startsWith("b_") || g.title.startsWith("c_"));
            } else {
                QCOMPARE(cls, QString("edge solid"));
                ++solid;
                QVERIFY(e.attrs.value("stroke-dasharray").isEmpty());
            }
        }
        for (const auto& e : svg.elements)
            if (e.name == "text" && e.parentId.startsWith("e") && e.text == "1x4") ++labelled;
        QCOMPARE(dashed, 4);
        QCOMPARE(solid, 4);
        QCOMPARE(labelled, 3);  // x->linear, linear->mul, mul->add; the output edge has no label
        QCOMPARE(svg.elements[svg.groupById.at("e0")].title, QString("x -> linear"));

        // Parameters, buffers and constants have three different fills, none an op's.
        const QString p = shapeFill(svg, "w_p_linear_weight"), b = shapeFill(svg, "w_b_scale"),
                      c = shapeFill(svg, "w_c_offset");
        QVERIFY(!p.isEmpty() && !b.isEmpty() && !c.isEmpty());
        QVERIFY(p != b && b != c && p != c);
        QCOMPARE(shapeFill(svg, "w_p_linear_bias"), p);
        QVERIFY(shapeFill(svg, "op_linear") != p);
        // Ops are rounded rects; inputs, weights and outputs polygons.
        bool opRect = false;
        for (const auto& e : svg.elements)
            if (e.parentId == "op_linear" && e.name == "rect") opRect = e.attrs.value("rx") == QString("6");
        QVERIFY(opRect);
        bool label = false;
        for (const auto& e : svg.elements)
            if (e.parentId == "op_linear" && e.name == "text" && e.text == "linear") label = true;
        QVERIFY(label);
    }

    void noWeights() {
        const ParsedSvg svg = parse(renderFixture("buffer_vs_constant.json", false));
        for (const auto& [id, index] : svg.groupById) QVERIFY2(!id.startsWith("w_"), qPrintable(id));
        for (const auto& e : svg.elements) QVERIFY(!e.attrs.hasAttribute("stroke-dasharray"));
        QVERIFY(svg.groupById.count("op_add"));
    }

    void scaleSetsSizeNotViewBox() {
        const ParsedSvg a = parse(renderFixture("simple_mlp.json", true));
        const ParsedSvg b = parse(renderFixture("simple_mlp.json", true, 2.0));
        QCOMPARE(a.root.value("viewBox"), b.root.value("viewBox"));
        QCOMPARE(b.root.value("width").toDouble(), 2 * a.root.value("width").toDouble());
        QVERIFY(a.root.value("width").toDouble() > 0);
    }

    void escapingAndUniqueIds() {
        // A hand-made layout: a name with XML specials and a weight drawn twice.
        layout::LayoutGraph g;
        auto add = [&](layout::ItemKind kind, std::string name) {
            layout::LayoutNode n;
            n.kind = kind;
            n.name = name;
            n.lines = {name, "2x2"};
            n.width = 120;
            n.height = 42;
            return g.addNode(n);
        };
        const int a = add(layout::ItemKind::Op, "a<b&\"c\"'");
        const int w1 = add(layout::ItemKind::Parameter, "p_w");
        const int w2 = add(layout::ItemKind::Parameter, "p_w");
        const int b = add(layout::ItemKind::Op, "b");
        g.addEdge({a, b, layout::EdgeStyle::Solid, "1x<2>", 0});
        g.addEdge({w1, a, layout::EdgeStyle::Dashed, "", 1});
        g.addEdge({w2, b, layout::EdgeStyle::Dashed, "", 1});
        const std::string text = exporter::layoutToSvg(layout::computeLayout(g));
        const ParsedSvg svg = parse(text);
        QVERIFY(svg.groupById.count("w_p_w"));
        QVERIFY(svg.groupById.count("w_p_w_1"));
        QVERIFY(svg.groupById.count("op_a_b__c__"));
        QCOMPARE(svg.elements[svg.groupById.at("op_a_b__c__")].title, QString("a<b&\"c\"'"));
        bool shapeLabel = false;
        for (const auto& e : svg.elements) shapeLabel = shapeLabel || (e.name == "text" && e.text == "1x<2>");
        QVERIFY(shapeLabel);
        QCOMPARE(QString::fromStdString(exporter::xmlEscape("<&>\"'")), QString("&lt;&amp;&gt;&quot;&apos;"));
    }

    // Every model of the real-export corpus (what pytorch-ir wrote for
    // PyTorch 2.13's modules) lays out with no two boxes overlapping and
    // every edge running down, with its weights and without: the drawings
    // users see, not only the engine's hand-made fixtures.
    void everyRealExportLaysOutCleanly() {
        QDir dir(QString(IRSCOPE_TEST_DATA) + "/real");
        const QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
        int checked = 0;
        for (const QString& name : files) {
            if (name.endsWith(".meta.json") || name.endsWith("_sqnr.json")) continue;
            ir::Graph graph;
            try {
                graph = ir::loadGraphFile(dir.filePath(name).toStdString());
            } catch (const std::exception&) {
                continue;  // not an IR (reference data beside the models)
            }
            const ir::GraphIndex index(graph);
            for (const bool weights : {true, false}) {
                layout::GraphLayoutOptions go;
                go.includeWeights = weights;
                const layout::LayoutResult r = layout::computeLayout(layout::buildLayoutGraph(graph, index, go));
                QString why;
                QVERIFY2(layout_checks::noOverlaps(r, &why), qPrintable(name + ": " + why));
                if (r.stats.reversedEdges == 0)
                    QVERIFY2(layout_checks::edgesPointDown(r, &why), qPrintable(name + ": " + why));
            }
            ++checked;
        }
        QVERIFY2(checked >= 40, qPrintable(QString("%1 models checked").arg(checked)));
    }

    void largerFixturesParse() {
        for (const char* f : {"llama_block.json", "resnet_tiny.json", "cnn_bn.json"}) {
            const ParsedSvg svg = parse(renderFixture(f, true));
            QVERIFY2(svg.groupById.size() > 10, f);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSvgExport)
#include "test_svg_export.moc"
