#include "core/ir/optional_tensor_readings.h"

#include <algorithm>
#include <bit>
#include <climits>

namespace irscope::ir {
namespace {

// b_bn_running_mean names running_mean; p_fc_bias names bias.
bool namesArgument(const std::string& input, const std::string& arg) {
    return input == arg ||
           (input.size() > arg.size() && input.compare(input.size() - arg.size(), arg.size(), arg) == 0 &&
            input[input.size() - arg.size() - 1] == '_');
}

std::vector<int64_t> listSizesOf(const OpNode& node) {
    std::vector<int64_t> out;
    auto it = node.attrs.find("_tensor_list_sizes");
    if (it == node.attrs.end() || !it->is_array()) return out;
    for (const auto& v : *it)
        if (v.is_number_integer()) out.push_back(v.get<int64_t>());
    return out;
}

bool isList(SchemaArgKind k) { return k == SchemaArgKind::TensorList || k == SchemaArgKind::OptionalTensorList; }

}  // namespace

OptionalTensorPlan planOptionalTensors(const std::vector<SchemaArg>& args, const OpNode& node) {
    OptionalTensorPlan plan;
    plan.takes.assign(args.size(), -1);
    const auto hasAttr = [&](const std::string& name) { return node.attrs.is_object() && node.attrs.contains(name); };
    const std::vector<int64_t> listSizes = listSizesOf(node);
    const int32_t nInputs = static_cast<int32_t>(node.inputs.size() - sizeInputCount(node));

    // Inputs the other arguments certainly take: a Tensor not given as an
    // attr takes one, a list as many as _tensor_list_sizes says.
    int32_t certain = 0;
    size_t list = 0;
    std::vector<size_t> open;
    for (size_t i = 0; i < args.size(); ++i) {
        const SchemaArgKind k = args[i].kind;
        if (k == SchemaArgKind::Tensor && !hasAttr(args[i].name)) ++certain;
        if (isList(k)) certain += list < listSizes.size() ? static_cast<int32_t>(listSizes[list++]) : 0;
        if (k != SchemaArgKind::OptionalTensor) continue;
        const bool spelledNone =
            node.exported && std::find(node.exported->noneArguments.begin(), node.exported->noneArguments.end(),
                                       args[i].name) != node.exported->noneArguments.end();
        if ((hasAttr(args[i].name) && node.attrs[args[i].name].is_null()) || spelledNone)
            plan.takes[i] = 0;
        else
            open.push_back(i);
    }
    const int32_t available = nInputs - certain;
    if (available <= 0 || static_cast<size_t>(available) >= open.size() || open.size() > 12) {
        // None, or all of them: no choice (the greedy rule then equals the only reading).
        for (size_t i : open) plan.takes[i] = available <= 0 ? 0 : 1;
        if (open.size() > 12) std::fill(plan.takes.begin(), plan.takes.end(), int8_t{-1});
        return plan;
    }
    // Every subset of `available` open arguments, scored by names.
    struct Reading {
        std::vector<size_t> taken;
        std::vector<int32_t> inputOf;  // per taken argument, the node input it gets
        int score = 0;
    };
    std::vector<Reading> readings;
    const size_t n = open.size();
    for (uint32_t bits = 0; bits < (1u << n); ++bits) {
        if (std::popcount(bits) != available) continue;
        Reading r;
        for (size_t j = 0; j < n; ++j)
            if (bits & (1u << j)) r.taken.push_back(open[j]);
        int32_t cursor = 0;
        list = 0;
        for (size_t i = 0; i < args.size(); ++i) {
            if (args[i].kind == SchemaArgKind::Tensor && !hasAttr(args[i].name)) ++cursor;
            if (isList(args[i].kind)) cursor += list < listSizes.size() ? static_cast<int32_t>(listSizes[list++]) : 0;
            if (std::find(r.taken.begin(), r.taken.end(), i) != r.taken.end()) r.inputOf.push_back(cursor++);
        }
        for (size_t t = 0; t < r.taken.size(); ++t) {
            const int32_t in = r.inputOf[t];
            if (in < 0 || in >= nInputs) continue;
            const std::string& name = node.inputs[static_cast<size_t>(in)].name;
            for (size_t j : open)
                if (namesArgument(name, args[j].name)) r.score += j == r.taken[t] ? 1 : -1;
        }
        readings.push_back(std::move(r));
    }
    int best = INT_MIN, atBest = 0;
    for (const auto& r : readings) {
        if (r.score > best) {
            best = r.score;
            atBest = 0;
        }
        atBest += r.score == best ? 1 : 0;
    }
    if (atBest == 1) {
        for (const auto& r : readings) {
            if (r.score != best) continue;
            for (size_t i : open) plan.takes[i] = std::find(r.taken.begin(), r.taken.end(), i) != r.taken.end() ? 1 : 0;
        }
        return plan;
    }
    plan.available = available;
    for (size_t i : open) plan.undecided.push_back(args[i].name);
    for (const auto& r : readings) {
        if (r.score != best) continue;
        std::string text;
        for (size_t t = 0; t < r.taken.size(); ++t) {
            const int32_t in = r.inputOf[t];
            text += (t ? ", " : "") + args[r.taken[t]].name + "=" +
                    (in >= 0 && in < nInputs ? node.inputs[static_cast<size_t>(in)].name : std::string("?"));
        }
        plan.readings.push_back(std::move(text));
    }
    return plan;
}

std::string OptionalTensorPlan::explanation() const {
    if (readings.empty()) return {};
    std::string text, settle;
    for (const auto& r : readings) text += (text.empty() ? "" : " or ") + r;
    for (const auto& name : undecided) settle += (settle.empty() ? "\"" : " or \"") + name + "\": null";
    // The greedy reading is pytorch-ir's own executor's: the first tensors to
    // the first arguments. It runs; the node says, every time, that it is a reading.
    return "ambiguous inputs: pytorch-ir drops a None passed for a Tensor? argument, and " + std::to_string(available) +
           " of this node's " + std::to_string(undecided.size()) + " optional tensor arguments can be read as " + text +
           "; run as the first (pytorch-ir's " +
           "reading). If that is wrong, add which one was None to the node's attrs (" + settle + ")";
}

size_t sizeInputCount(const OpNode& node) {
    if (!node.attrs.is_object() || node.inputs.empty()) return 0;
    std::vector<std::string> named;
    for (const auto& [key, value] : node.attrs.items()) {
        if (value.is_string()) named.push_back(value.get<std::string>());
        if (value.is_array())
            for (const auto& element : value)
                if (element.is_string()) named.push_back(element.get<std::string>());
    }
    size_t count = 0;
    while (count < node.inputs.size() &&
           std::find(named.begin(), named.end(), node.inputs[node.inputs.size() - 1 - count].name) != named.end())
        ++count;
    return count;
}

}  // namespace irscope::ir
