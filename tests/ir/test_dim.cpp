// One dimension of a declared shape (core/ir/dim.h): a size, a symbol of a
// dynamic-shape program, or a dim the file did not write as an integer. The
// expected texts are how PyTorch prints sizes and how torch.export names its
// symbols (tests/io/test_symbolic_values.cpp reads them from a .pt2).
#include <QtTest/QtTest>

#include <algorithm>

#include "core/ir/json_io.h"
#include "core/ir/tensor_meta.h"
#include "test_support.h"

using namespace irscope;
using ir::Dim;
using ir::Shape;

class TestDim : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aDimIsASizeASymbolOrUnreadable() {
        const Dim four = 4, seq = Dim::symbol("s27"), bad = Dim::unreadable();
        QVERIFY(four.isSize() && !four.isSymbol() && !four.isUnreadable());
        QVERIFY(!seq.isSize() && seq.isSymbol() && !seq.isUnreadable());
        QVERIFY(!bad.isSize() && !bad.isSymbol() && bad.isUnreadable());
        QCOMPARE(four.size(), std::optional<int64_t>(4));
        QVERIFY(!seq.size() && !bad.size());
        QCOMPARE(seq.expression(), std::string("s27"));
        QCOMPARE(four.expression(), std::string());
        QCOMPARE(four.text(), std::string("4"));
        QCOMPARE(seq.text(), std::string("s27"));
        QCOMPARE(bad.text(), std::string("?"));
        QCOMPARE(Dim::symbol("").text(), std::string("?"));  // a symbol the file did not spell
        // No number stands for "not a number": the most negative size is a size.
        const Dim lowest = INT64_MIN;
        QVERIFY(lowest.isSize() && lowest != bad);
        QCOMPARE(sizeof(Dim), size_t{16});
    }

    void equalityIsByKindAndValue() {
        QVERIFY(Dim(4) == 4 && Dim(4) != 5 && Dim::symbol("s27") != 27);
        QVERIFY(Dim::symbol("2*s27") == Dim::symbol(std::string("2*") + "s27"));  // interned: one text, one symbol
        QVERIFY(Dim::symbol("s27") != Dim::symbol("s28"));
        QVERIFY(Dim::unreadable() == Dim::unreadable() && Dim::unreadable() != Dim::symbol(""));
        QVERIFY((Shape{1, Dim::symbol("s0")}) == (Shape{1, Dim::symbol("s0")}));
        QVERIFY((Shape{1, Dim::symbol("s0")}) != (Shape{1, 8}));
    }

    void shapesSortSizesThenSymbolsThenUnreadable() {
        std::vector<Shape> shapes{{Dim::unreadable()}, {Dim::symbol("s1")}, {10}, {2}, {Dim::symbol("s0")}};
        std::sort(shapes.begin(), shapes.end());
        const std::vector<Shape> expected{{2}, {10}, {Dim::symbol("s0")}, {Dim::symbol("s1")}, {Dim::unreadable()}};
        QVERIFY(shapes == expected);
    }

    void textsAsPythonAndTheDrawingsWriteThem() {
        const Shape staticShape{1, 4}, dynamic{4, Dim::symbol("s77"), 8}, unreadable{2, Dim::unreadable()};
        QCOMPARE(ir::shapeToList(staticShape), std::string("[1, 4]"));
        QCOMPARE(ir::shapeToList(dynamic), std::string("[4, s77, 8]"));
        QCOMPARE(ir::shapeToList(unreadable), std::string("[2, ?]"));
        QCOMPARE(ir::shapeToList(Shape{}), std::string("[]"));
        QCOMPARE(ir::shapeToX(staticShape), std::string("1x4"));
        // With a symbol, a multiplication sign: "4*s77" keeps its product.
        QCOMPARE(ir::shapeToX(Shape{Dim::symbol("4*s77"), 8}), std::string("4*s77\u00d78"));
        QCOMPARE(ir::shapeToX(Shape{}), std::string());
        QCOMPARE(ir::shapeToList(ir::Sizes{3, 0}), std::string("[3, 0]"));
    }

    void sizesOfAShape() {
        QCOMPARE(ir::staticSizes(Shape{2, 3}), std::optional<ir::Sizes>(ir::Sizes{2, 3}));
        QVERIFY(!ir::staticSizes(Shape{2, Dim::symbol("s0")}));
        QVERIFY(!ir::staticSizes(Shape{Dim::unreadable()}));
        QCOMPARE(ir::elementCount(Shape{2, 3, 4}), std::optional<int64_t>(24));
        QVERIFY(!ir::elementCount(Shape{2, Dim::symbol("s0")}));
        QVERIFY(!ir::elementCount(Shape{2, -1}));
        QVERIFY(!ir::elementCount(Shape{INT64_MAX, 2}));  // overflows
        QCOMPARE(ir::elementCount(Shape{}), std::optional<int64_t>(1));
    }

    void sizesFitWhereTheProgramFixesThem() {
        const Shape dynamic{1, Dim::symbol("s27"), 64};
        QVERIFY(ir::sizesFit(dynamic, {1, 300, 64}));  // a symbol takes any size here (ranges: symbol_ranges)
        QVERIFY(!ir::sizesFit(dynamic, {2, 300, 64}));
        QVERIFY(!ir::sizesFit(dynamic, {1, 300}));
        QVERIFY(ir::sizesFit(Shape{Dim::unreadable()}, {7}));
        QVERIFY(ir::sizesFit(Shape{-1}, {1}));  // a hand-written negative dim says nothing (validate reports it)
    }

    // Two exports of one model number their symbols as they meet them:
    // pairing tensors by shape goes by the sizes, not the symbols' names.
    void shapesAgreeOnSizesNotOnSymbolNames() {
        QVERIFY(ir::shapesAgree(Shape{1, Dim::symbol("s27"), 64}, Shape{1, Dim::symbol("s31"), 64}));
        QVERIFY(!ir::shapesAgree(Shape{1, Dim::symbol("s27"), 64}, Shape{1, 8, 64}));
        QVERIFY(!ir::shapesAgree(Shape{1, 64}, Shape{1, 64, 1}));
        QVERIFY(!ir::shapesAgree(Shape{2, 64}, Shape{1, 64}));
        QVERIFY(ir::shapesAgree(Shape{}, Shape{}));
    }

    // A JSON dim that is not an integer is unreadable (the loader says
    // where); the file's other dims stay sizes.
    void jsonDimsThatAreNotIntegers() {
        const ir::Graph g = ir::loadGraphFile(test::dataPath("malformed/float_dim.json"));  // relu: [1, 8.5]
        const ir::TensorMeta* relu = nullptr;
        for (const auto& n : g.nodes)
            for (const auto& m : n.outputs)
                if (m.name == "relu") relu = &m;
        QVERIFY(relu);
        QCOMPARE(relu->shape.size(), size_t{2});
        QVERIFY(relu->shape[0] == 1);
        QVERIFY(relu->shape[1].isUnreadable());
        QCOMPARE(ir::shapeToList(relu->shape), std::string("[1, ?]"));
        QVERIFY(!ir::elementCount(relu->shape));
        QVERIFY(!g.loadDiagnostics.empty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestDim)
#include "test_dim.moc"
