// PyTorch's symbolic ops (_operator.*, math.trunc, torch.sym_*), run as IR
// nodes over 0-d values the way a dynamic-shape program passes them, against
// what Python itself computes (each expected value written out by hand from
// Python's rules: floor toward negative infinity, true division to float,
// int ** negative int to float); and symbolic values passed to Tensor ops as
// PyTorch passes a Python number.
#include "exec_test_util.h"

#include "core/exec/engine/session.h"
#include "core/io/tensor_dtype.h"
#include "core/ir/op_schema_table.h"
#include "core/ir/validate.h"

#include <variant>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

// An argument: a symbolic value computed at run time (a 0-d tensor, a graph
// input the node names), or a literal the program wrote (an attr).
using Arg = std::variant<at::Tensor, json>;

at::Tensor sym(int64_t v) { return at::scalar_to_tensor(c10::Scalar(v)); }
at::Tensor sym(double v) { return at::scalar_to_tensor(c10::Scalar(v)); }
at::Tensor symBool(bool v) { return at::scalar_to_tensor(c10::Scalar(v)); }

struct Outcome {
    at::Tensor value;
    std::string error;
};

// One node `op` with named arguments; `tensors` are ordinary tensor inputs
// taken first (a Tensor op's self). Returns its output.
Outcome runNode(const std::string& op, const std::vector<std::pair<std::string, Arg>>& args,
                const std::vector<at::Tensor>& tensors = {}) {
    json gin = json::array(), nin = json::array(), sizeIn = json::array(), attrs = json::object();
    io::TensorMap m;
    const auto addInput = [&](const std::string& name, const at::Tensor& t, json& to) {
        const std::string dt = io::scalarTypeName(t.scalar_type());
        gin.push_back(meta(name, t.sizes().vec(), dt));
        to.push_back(meta(name, t.sizes().vec(), dt, name));
        m.insert(name, t);
    };
    for (size_t i = 0; i < tensors.size(); ++i) {
        std::string name = "t";  // appended piecewise: GCC 12 -O3 warns (falsely) on "t" + std::string
        name += std::to_string(i);
        addInput(name, tensors[i], nin);
    }
    for (const auto& [name, arg] : args) {
        if (const auto* t = std::get_if<at::Tensor>(&arg)) {
            std::string input = "s_";
            input += name;
            addInput(input, *t, sizeIn);  // named by the attr, after the tensor inputs
            attrs[name] = input;
        } else {
            attrs[name] = std::get<json>(arg);
        }
    }
    for (auto& s : sizeIn) nin.push_back(s);
    json out = json{{"name", "n"}, {"shape", json::array()}};
    auto g = graphOf(gin, json::array({out}), json::array({node("n", op, nin, json::array({out}), attrs)}));
    Session s(g);
    s.setInputs(m);
    RunResult r = s.runToEnd();
    if (r.error) return {{}, r.error->message};
    Outcome o;
    s.value("n", o.value);
    return o;
}

at::Tensor value(const std::string& op, const std::vector<std::pair<std::string, Arg>>& args,
                 const std::vector<at::Tensor>& tensors = {}) {
    Outcome o = runNode(op, args, tensors);
    if (!o.error.empty()) qWarning("%s: %s", op.c_str(), o.error.c_str());
    return o.value;
}

bool isInt(const at::Tensor& t, int64_t v) {
    return t.defined() && t.dim() == 0 && t.scalar_type() == at::kLong && t.item<int64_t>() == v;
}
bool isFloat(const at::Tensor& t, double v) {
    return t.defined() && t.dim() == 0 && t.scalar_type() == at::kDouble && t.item<double>() == v;
}
bool isBool(const at::Tensor& t, bool v) {
    return t.defined() && t.dim() == 0 && t.scalar_type() == at::kBool && t.item<bool>() == v;
}

std::string str(const at::Tensor& t) {
    if (!t.defined()) return "(no value)";
    std::ostringstream s;
    s << t.scalar_type() << " " << t;
    return s.str();
}

}  // namespace

class TestSymbolicOps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Python floors toward negative infinity, and its remainder takes the
    // divisor's sign; C++ truncates. Floats do the same in float.
    void floorDivisionAndModuloArePython() {
        QVERIFY2(isInt(value("_operator.floordiv", {{"a", sym(int64_t{-7})}, {"b", json(2)}}), -4), "-7 // 2");
        QVERIFY(isInt(value("_operator.floordiv", {{"a", sym(int64_t{7})}, {"b", json(-2)}}), -4));
        QVERIFY(isInt(value("_operator.floordiv", {{"a", sym(int64_t{12})}, {"b", sym(int64_t{4})}}), 3));
        QVERIFY(isFloat(value("_operator.floordiv", {{"a", sym(-7.5)}, {"b", json(2)}}), -4.0));
        QVERIFY(isInt(value("_operator.mod", {{"a", sym(int64_t{-7})}, {"b", json(2)}}), 1));
        QVERIFY(isInt(value("_operator.mod", {{"a", sym(int64_t{7})}, {"b", json(-2)}}), -1));
        QVERIFY(isFloat(value("_operator.mod", {{"a", sym(-7.5)}, {"b", json(2)}}), 0.5));
        const Outcome zero = runNode("_operator.floordiv", {{"a", sym(int64_t{3})}, {"b", sym(int64_t{0})}});
        QVERIFY2(zero.error.find("ZeroDivisionError") != std::string::npos, zero.error.c_str());
    }

    // True division is always a float; int ** int stays an int unless the
    // exponent is negative; a float anywhere makes a float.
    void divisionAndPowerTypes() {
        QVERIFY(isFloat(value("_operator.truediv", {{"a", sym(int64_t{7})}, {"b", json(2)}}), 3.5));
        QVERIFY(isFloat(value("_operator.truediv", {{"a", sym(int64_t{8})}, {"b", json(2)}}), 4.0));
        QVERIFY(isInt(value("_operator.pow", {{"a", sym(int64_t{3})}, {"b", json(4)}}), 81));
        QVERIFY(isFloat(value("_operator.pow", {{"a", sym(int64_t{2})}, {"b", json(-1)}}), 0.5));
        // L ** -0.5 with L = 16, as an attention scales its scores.
        QVERIFY(isFloat(value("_operator.pow", {{"a", sym(16.0)}, {"b", json(-0.5)}}), 0.25));
        QVERIFY(isInt(value("_operator.mul", {{"a", sym(int64_t{6})}, {"b", json(4)}}), 24));
        QVERIFY(isFloat(value("_operator.mul", {{"a", sym(int64_t{6})}, {"b", json(0.5)}}), 3.0));
        QVERIFY(isInt(value("_operator.sub", {{"a", sym(int64_t{6})}, {"b", sym(int64_t{9})}}), -3));
        QVERIFY(isInt(value("_operator.add", {{"a", sym(int64_t{6})}, {"b", json(1)}}), 7));
        QVERIFY(isInt(value("_operator.neg", {{"a", sym(int64_t{6})}}), -6));
        QVERIFY(isFloat(value("_operator.pos", {{"a", sym(2.5)}}), 2.5));
    }

    // Comparisons give bools; an int compares with a float by value.
    void comparisonsAndLogic() {
        QVERIFY(isBool(value("_operator.ge", {{"a", sym(int64_t{1})}, {"b", json(1)}}), true));
        QVERIFY(isBool(value("_operator.lt", {{"a", sym(int64_t{3})}, {"b", json(2.5)}}), false));
        QVERIFY(isBool(value("_operator.eq", {{"a", sym(int64_t{2})}, {"b", json(2.0)}}), true));
        QVERIFY(isBool(value("_operator.ne", {{"a", sym(int64_t{2})}, {"b", json(3)}}), true));
        QVERIFY(isBool(value("_operator.le", {{"a", sym(int64_t{5})}, {"b", sym(int64_t{4})}}), false));
        QVERIFY(isBool(value("_operator.gt", {{"a", sym(int64_t{5})}, {"b", sym(int64_t{4})}}), true));
        QVERIFY(isBool(value("_operator.and_", {{"a", symBool(true)}, {"b", symBool(false)}}), false));
        QVERIFY(isBool(value("_operator.or_", {{"a", symBool(true)}, {"b", symBool(false)}}), true));
        QVERIFY(isInt(value("_operator.and_", {{"a", sym(int64_t{6})}, {"b", json(3)}}), 2));
        QVERIFY(isInt(value("_operator.lshift", {{"a", sym(int64_t{3})}, {"b", json(2)}}), 12));
        QVERIFY(isInt(value("_operator.rshift", {{"a", sym(int64_t{-9})}, {"b", json(1)}}), -5));
        QVERIFY(isBool(value("torch.sym_not", {{"a", symBool(false)}}), true));
    }

    // Python's ints: a square that fits is exact; one past 64 bits, a shift
    // by a negative count, and True << True (an int) as Python has them.
    void edgesOfPythonInts() {
        QVERIFY(isInt(value("_operator.pow", {{"a", sym(int64_t{65536})}, {"b", json(2)}}), 4294967296));
        const Outcome big = runNode("_operator.mul", {{"a", sym(int64_t{1} << 62)}, {"b", json(4)}});
        QVERIFY2(big.error.find("OverflowError") != std::string::npos, big.error.c_str());
        const Outcome shift = runNode("_operator.lshift", {{"a", sym(int64_t{1})}, {"b", json(-1)}});
        QVERIFY2(shift.error.find("negative shift count") != std::string::npos, shift.error.c_str());
        QVERIFY(isInt(value("_operator.lshift", {{"a", symBool(true)}, {"b", symBool(true)}}), 2));
        QVERIFY(isInt(value("_operator.floordiv", {{"a", sym(int64_t{-9})}, {"b", json(-1)}}), 9));
        QVERIFY(isInt(value("_operator.mod", {{"a", sym(int64_t{-9})}, {"b", json(-1)}}), 0));
    }

    // torch.sym_* and math.trunc, as torch/__init__.py defines them on numbers.
    void torchSymFunctions() {
        QVERIFY(isInt(value("torch.sym_int", {{"a", sym(-2.7)}}), -2));
        QVERIFY(isInt(value("math.trunc", {{"x", sym(2.9)}}), 2));
        QVERIFY(isFloat(value("torch.sym_float", {{"a", sym(int64_t{6})}}), 6.0));
        QVERIFY(
            isInt(value("torch.sym_ite", {{"b", symBool(false)}, {"t", sym(int64_t{1})}, {"f", sym(int64_t{9})}}), 9));
        QVERIFY(isInt(value("torch.sym_max", {{"a", sym(int64_t{2})}, {"b", sym(int64_t{7})}}), 7));
        QVERIFY(isFloat(value("torch.sym_max", {{"a", sym(int64_t{5})}, {"b", json(3.5)}}), 5.0));
        QVERIFY(isInt(value("torch.sym_min", {{"a", sym(int64_t{2})}, {"b", sym(int64_t{7})}}), 2));
        QVERIFY(isFloat(value("torch.sym_sqrt", {{"a", sym(int64_t{16})}}), 4.0));
    }

    // y * x.shape[1]: the size is wrapped as PyTorch wraps a Python number,
    // so it does not promote the tensor (float32 stays float32; an int32
    // tensor times a float size becomes the default float32, not float64).
    void symbolicValueWhereATensorIsDue() {
        const at::Tensor y = at::tensor({1.5f, -2.0f});
        const at::Tensor r = value("aten.mul.Tensor", {{"other", sym(int64_t{3})}}, {y});
        QVERIFY2(
            r.defined() && r.scalar_type() == at::kFloat && r[0].item<float>() == 4.5f && r[1].item<float>() == -6.0f,
            str(r).c_str());
        const at::Tensor ints = at::tensor({2, 4}, at::kInt);
        const at::Tensor half = value("aten.mul.Tensor", {{"other", sym(0.5)}}, {ints});
        QVERIFY2(half.defined() && half.scalar_type() == at::kFloat && half[1].item<float>() == 2.0f,
                 str(half).c_str());
    }

    // A float size where a Scalar is due keeps its fraction (0.25, not 0).
    void symbolicFloatWhereAScalarIsDue() {
        const at::Tensor y = at::tensor({2.0f, 8.0f});
        const at::Tensor r = value("aten.mul.Scalar", {{"other", sym(0.25)}}, {y});
        QVERIFY2(r.defined() && r[0].item<float>() == 0.5f && r[1].item<float>() == 2.0f, str(r).c_str());
    }

    // validate knows PyTorch's symbolic ops, and never calls one it does
    // not run a custom op of the model's own.
    void validateKnowsThemAndNeverBlamesTheModel() {
        QVERIFY(ir::isKnownOpType("_operator.floordiv"));
        QVERIFY(ir::isKnownOpType("torch.sym_float"));
        QVERIFY(ir::isKnownOpType("math.trunc"));
        QVERIFY(!ir::isKnownOpType("_operator.matmul"));
        json out = json{{"name", "n"}, {"shape", json::array()}, {"dtype", "int64"}};
        json in = json::array({meta("a0", {}, "int64", "a0")});
        auto g = graphOf(json::array({meta("a0", {}, "int64")}), json::array({out}),
                         json::array({node("n", "_operator.matmul", in, json::array({out}), {{"a", "a0"}})}));
        bool said = false;
        for (const auto& d : ir::validateGraph(g, ir::GraphIndex(g))) {
            QVERIFY2(d.message.find("is a custom op") == std::string::npos, d.message.c_str());
            said = said || d.message.find("one of PyTorch's symbolic ops") != std::string::npos;
        }
        QVERIFY(said);
        const Outcome run = runNode("_operator.matmul", {{"a", sym(int64_t{2})}, {"b", json(2)}});
        QVERIFY2(run.error.find("one of PyTorch's symbolic ops") != std::string::npos &&
                     run.error.find("custom op (") == std::string::npos,
                 run.error.c_str());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestSymbolicOps)
#include "test_symbolic_ops.moc"
