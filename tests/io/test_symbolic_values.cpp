// A .pt2's symbolic values as the reader keeps them: each size the program
// computes with its expression over the symbols (sym_int_values,
// sym_float_values, sym_bool_values), shown with the symbols' ranges. The
// programs are tests/data/programs/sized_*.pt2 (make_sized_programs.py); the
// expected texts are read off their model.json by hand.
#include <QtTest>

#include "core/ir/json_io.h"
#include "core/ir/symbol_ranges.h"
#include "test_support.h"

namespace ir = irscope::ir;
using irscope::test::dataPath;

class TestSymbolicValues : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // B * H, float(L) ** -0.5, and the sizes themselves.
    void headReshapeAttention() {
        const ir::Graph g = ir::loadGraphFile(dataPath("programs/sized_head_attention.pt2"));
        QCOMPARE(g.symbolicExpressions.at("mul"), std::string("4*s77"));
        QCOMPARE(g.symbolicExpressions.at("sym_size_int_3"), std::string("s27"));
        QCOMPARE(g.symbolicExpressions.at("pow_1"), std::string("float(s27)**-0.5"));
        QCOMPARE(ir::symbolicValueText(g, "mul"), std::string("4*s77, s77 \u2208 [1, 8]"));
        QCOMPARE(ir::symbolicValueText(g, "linear"), std::string());  // a tensor
    }

    // .item() gives an unbacked symbol; the checks read comparisons of it.
    void dataDependentSizes() {
        const ir::Graph g = ir::loadGraphFile(dataPath("programs/sized_kv_cache_item.pt2"));
        QCOMPARE(g.symbolicExpressions.at("item"), std::string("u0"));
        QCOMPARE(g.symbolicExpressions.at("ge_1"), std::string("u0 >= 1"));
        QCOMPARE(ir::symbolicValueText(g, "item"), std::string("u0, u0 \u2208 [1, 128]"));
        bool unbacked = false;
        for (const auto& r : g.symbolRanges) unbacked = unbacked || r.symbol == "u0";
        QVERIFY(unbacked);
    }

    // A derived dim: the input's size reads as the user wrote it.
    void derivedDims() {
        const ir::Graph g = ir::loadGraphFile(dataPath("programs/sized_halves_positions.pt2"));
        const ir::Shape& x = g.graphInputs.at(0).shape;
        QCOMPARE(ir::shapeToList(x), std::string("[2, 2*s44, 8]"));
        QVERIFY(x[0] == 2 && x[2] == 8);  // sizes stay sizes
        QVERIFY(x[1].isSymbol() && x[1] == ir::Dim::symbol("2*s44"));
        QVERIFY(!ir::staticSizes(x));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSymbolicValues)
#include "test_symbolic_values.moc"
