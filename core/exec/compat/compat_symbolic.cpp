// PyTorch's symbolic ops: the arithmetic a dynamic-shape program does on its
// sizes. torch.export serializes them by their Python callables
// (_operator.mul, math.trunc, torch.sym_float: serialize.py's _SYM_OPS), whose
// arguments are named as Python's inspect.signature names them (a, b; x for
// math.trunc; b, t, f for sym_ite). No libtorch has a kernel for them: they
// are Python. Each runs here with Python's semantics on Python numbers (int,
// float, bool), each value a 0-d tensor (int64, float64, bool) as the reader
// types it: floor division and modulo toward negative infinity, true
// division to float, int ** negative int to float, comparisons of an int
// with a float by value.
#include <climits>
#include <cmath>
#include <stdexcept>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec::compat {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

// A Python number: bool, int or float, as Python's numeric tower orders them.
struct Number {
    enum class Kind { Bool, Int, Float } kind;
    int64_t i = 0;  // Bool and Int
    double f = 0;   // Float
    static Number of(const c10::IValue& v) {
        const c10::Scalar s = v.toScalar();
        if (s.isBoolean()) return {Kind::Bool, s.toBool() ? 1 : 0, 0};
        if (s.isFloatingPoint()) return {Kind::Float, 0, s.toDouble()};
        return {Kind::Int, s.toLong(), 0};
    }
    bool isFloat() const { return kind == Kind::Float; }
    double asDouble() const { return isFloat() ? f : static_cast<double>(i); }
    bool truthy() const { return isFloat() ? f != 0.0 : i != 0; }
};

at::Tensor intValue(int64_t v) { return at::scalar_to_tensor(c10::Scalar(v)); }
at::Tensor floatValue(double v) { return at::scalar_to_tensor(c10::Scalar(v)); }
at::Tensor boolValue(bool v) { return at::scalar_to_tensor(c10::Scalar(v)); }
at::Tensor valueOf(const Number& n) {
    return n.kind == Number::Kind::Float  ? floatValue(n.f)
           : n.kind == Number::Kind::Bool ? boolValue(n.i != 0)
                                          : intValue(n.i);
}

[[noreturn]] void zeroDivision(const char* what) {
    throw std::runtime_error(std::string("ZeroDivisionError: ") + what + " (a size the program divides by is 0)");
}
// Python's ints do not overflow; a size past int64 has no meaning here.
[[noreturn]] void overflow(const char* op) {
    throw std::runtime_error(std::string("OverflowError: ") + op + " of two sizes does not fit in 64 bits");
}
int64_t checkedAdd(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) overflow("+");
    return r;
}
int64_t checkedSub(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) overflow("-");
    return r;
}
int64_t checkedMul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) overflow("*");
    return r;
}

// Python's int // and %: the quotient floored, the remainder the divisor's sign.
int64_t floorDiv(int64_t a, int64_t b) {
    if (b == 0) zeroDivision("integer division or modulo by zero");
    if (a == INT64_MIN && b == -1) overflow("//");
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
int64_t floorMod(int64_t a, int64_t b) {
    if (b == 0) zeroDivision("integer division or modulo by zero");
    if (b == -1) return 0;  // and INT64_MIN % -1 would trap
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
// Python's float % and //, as CPython's float_divmod computes them.
double floatMod(double a, double b) {
    if (b == 0.0) zeroDivision("float modulo");
    double mod = std::fmod(a, b);
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) mod += b;
    } else {
        mod = std::copysign(0.0, b);
    }
    return mod;
}
double floatFloorDiv(double a, double b) {
    if (b == 0.0) zeroDivision("float floor division by zero");
    double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
    if (div == 0.0) return std::copysign(0.0, a / b);
    const double floorDiv = std::floor(div);
    return div - floorDiv > 0.5 ? floorDiv + 1.0 : floorDiv;
}

template <typename IntOp, typename FloatOp>
Tensors arithmetic(Stack& s, IntOp intOp, FloatOp floatOp) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (a.isFloat() || b.isFloat()) return {floatValue(floatOp(a.asDouble(), b.asDouble()))};
    return {intValue(intOp(a.i, b.i))};
}

Tensors add(Stack& s) {
    return arithmetic(s, checkedAdd, [](double a, double b) { return a + b; });
}
Tensors sub(Stack& s) {
    return arithmetic(s, checkedSub, [](double a, double b) { return a - b; });
}
Tensors mul(Stack& s) {
    return arithmetic(s, checkedMul, [](double a, double b) { return a * b; });
}
Tensors floordiv(Stack& s) { return arithmetic(s, floorDiv, floatFloorDiv); }
Tensors mod(Stack& s) { return arithmetic(s, floorMod, floatMod); }

Tensors truediv(Stack& s) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (b.asDouble() == 0.0) zeroDivision("division by zero");
    return {floatValue(a.asDouble() / b.asDouble())};
}

Tensors power(Stack& s) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (!a.isFloat() && !b.isFloat() && b.i >= 0) {
        int64_t result = 1, base = a.i;
        for (int64_t e = b.i; e > 0; e >>= 1) {
            if (e & 1) result = checkedMul(result, base);
            if (e > 1) base = checkedMul(base, base);  // not past the last bit: 65536 ** 2 fits
        }
        return {intValue(result)};
    }
    if (a.asDouble() == 0.0 && b.asDouble() < 0) zeroDivision("0.0 cannot be raised to a negative power");
    return {floatValue(std::pow(a.asDouble(), b.asDouble()))};
}

Tensors neg(Stack& s) {
    const Number a = Number::of(s[0]);
    return {a.isFloat() ? floatValue(-a.f) : intValue(checkedSub(0, a.i))};
}
Tensors pos(Stack& s) {
    const Number a = Number::of(s[0]);
    return {a.isFloat() ? floatValue(a.f) : intValue(a.i)};
}

// Comparisons by value, an int against a float exactly where the double holds it.
template <typename Compare>
Tensors comparison(Stack& s, Compare compare) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (a.isFloat() || b.isFloat()) return {boolValue(compare(a.asDouble(), b.asDouble()))};
    return {boolValue(compare(a.i, b.i))};
}
Tensors eq(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a == b; });
}
Tensors ne(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a != b; });
}
Tensors lt(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a < b; });
}
Tensors le(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a <= b; });
}
Tensors gt(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a > b; });
}
Tensors ge(Stack& s) {
    return comparison(s, [](auto a, auto b) { return a >= b; });
}

// and_, or_: logical on two bools (SymBool & SymBool), bitwise on ints;
// shifts always give an int (True << True is 2).
template <typename Op>
Tensors bitwise(Stack& s, Op op, const char* name, bool keepsBool) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (a.isFloat() || b.isFloat())
        throw std::runtime_error(std::string("TypeError: unsupported operand type(s) for ") + name + ": 'float'");
    const int64_t r = op(a.i, b.i);
    if (keepsBool && a.kind == Number::Kind::Bool && b.kind == Number::Kind::Bool) return {boolValue(r != 0)};
    return {intValue(r)};
}
Tensors andOp(Stack& s) {
    return bitwise(
        s, [](int64_t a, int64_t b) { return a & b; }, "&", true);
}
Tensors orOp(Stack& s) {
    return bitwise(
        s, [](int64_t a, int64_t b) { return a | b; }, "|", true);
}
int64_t shiftCount(int64_t b) {
    if (b < 0) throw std::runtime_error("ValueError: negative shift count");
    return b;
}
Tensors lshift(Stack& s) {
    const auto shift = [](int64_t a, int64_t b) {
        if (a == 0) return int64_t{0};
        if (shiftCount(b) >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b))) overflow("<<");
        return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
    };
    return bitwise(s, shift, "<<", false);
}
Tensors rshift(Stack& s) {
    const auto shift = [](int64_t a, int64_t b) { return shiftCount(b) >= 64 ? (a < 0 ? -1 : 0) : a >> b; };
    return bitwise(s, shift, ">>", false);
}

// math.trunc and torch.sym_int: toward zero, to int.
Tensors trunc(Stack& s) {
    const Number a = Number::of(s[0]);
    if (!a.isFloat()) return {intValue(a.i)};
    if (!std::isfinite(a.f)) throw std::runtime_error("ValueError: cannot convert a non-finite float to integer");
    const double t = std::trunc(a.f);
    if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) overflow("int()");
    return {intValue(static_cast<int64_t>(t))};
}
Tensors symFloat(Stack& s) { return {floatValue(Number::of(s[0]).asDouble())}; }
Tensors symNot(Stack& s) { return {boolValue(!Number::of(s[0]).truthy())}; }
Tensors symIte(Stack& s) { return {valueOf(Number::of(Number::of(s[0]).truthy() ? s[1] : s[2]))}; }
Tensors symSqrt(Stack& s) {
    const double v = Number::of(s[0]).asDouble();
    if (v < 0) throw std::runtime_error("ValueError: math domain error (the square root of a negative size)");
    return {floatValue(std::sqrt(v))};
}

// torch.sym_max / sym_min: an int where both are ints, else a float.
template <bool Max>
Tensors extremum(Stack& s) {
    const Number a = Number::of(s[0]), b = Number::of(s[1]);
    if (a.isFloat() || b.isFloat()) {
        const double x = a.asDouble(), y = b.asDouble();
        return {floatValue(Max ? (x < y ? y : x) : (y < x ? y : x))};
    }
    return {intValue(Max ? std::max(a.i, b.i) : std::min(a.i, b.i))};
}

}  // namespace

std::vector<Entry> symbolicEntries() {
    return {
        {"_operator::add(Scalar a, Scalar b) -> Scalar", add},
        {"_operator::sub(Scalar a, Scalar b) -> Scalar", sub},
        {"_operator::mul(Scalar a, Scalar b) -> Scalar", mul},
        {"_operator::floordiv(Scalar a, Scalar b) -> Scalar", floordiv},
        {"_operator::mod(Scalar a, Scalar b) -> Scalar", mod},
        {"_operator::truediv(Scalar a, Scalar b) -> Scalar", truediv},
        {"_operator::pow(Scalar a, Scalar b) -> Scalar", power},
        {"_operator::neg(Scalar a) -> Scalar", neg},
        {"_operator::pos(Scalar a) -> Scalar", pos},
        {"_operator::eq(Scalar a, Scalar b) -> Scalar", eq},
        {"_operator::ne(Scalar a, Scalar b) -> Scalar", ne},
        {"_operator::lt(Scalar a, Scalar b) -> Scalar", lt},
        {"_operator::le(Scalar a, Scalar b) -> Scalar", le},
        {"_operator::gt(Scalar a, Scalar b) -> Scalar", gt},
        {"_operator::ge(Scalar a, Scalar b) -> Scalar", ge},
        {"_operator::and_(Scalar a, Scalar b) -> Scalar", andOp},
        {"_operator::or_(Scalar a, Scalar b) -> Scalar", orOp},
        {"_operator::lshift(Scalar a, Scalar b) -> Scalar", lshift},
        {"_operator::rshift(Scalar a, Scalar b) -> Scalar", rshift},
        {"math::trunc(Scalar x) -> Scalar", trunc},
        {"torch::sym_int(Scalar a) -> Scalar", trunc},
        {"torch::sym_float(Scalar a) -> Scalar", symFloat},
        {"torch::sym_not(Scalar a) -> Scalar", symNot},
        {"torch::sym_ite(Scalar b, Scalar t, Scalar f) -> Scalar", symIte},
        {"torch::sym_max(Scalar a, Scalar b) -> Scalar", extremum<true>},
        {"torch::sym_min(Scalar a, Scalar b) -> Scalar", extremum<false>},
        {"torch::sym_sqrt(Scalar a) -> Scalar", symSqrt},
        {"torch::_sym_sqrt(Scalar a) -> Scalar", symSqrt},
    };
}

}  // namespace irscope::exec::compat
