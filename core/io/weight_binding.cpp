#include "core/io/weight_binding.h"

#include <unordered_map>
#include <unordered_set>

#include "core/io/tensor_dtype.h"

namespace irscope::io {

namespace {

std::string who(const std::string& placeholder, const std::string& key) {
    if (placeholder.empty()) return "weight '" + key + "'";
    return placeholder + " (state_dict key '" + key + "')";
}

// Canonical spelling of an IR dtype ("torch.float" -> "float32"); unknown
// names (float8_e4m3fn) stay as written.
std::string canonicalDType(const std::string& name) {
    auto type = scalarTypeFromName(name);
    if (type) return scalarTypeName(*type);
    return name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
}

}  // namespace

const char* weightProblemKindName(WeightProblem::Kind kind) {
    switch (kind) {
    case WeightProblem::Kind::Missing: return "missing";
    case WeightProblem::Kind::Unexpected: return "unexpected";
    case WeightProblem::Kind::ShapeMismatch: return "shape mismatch";
    case WeightProblem::Kind::DTypeMismatch: return "dtype mismatch";
    }
    return "?";
}

bool WeightBinding::complete() const {
    for (const auto& p : problems)
        if (p.kind != WeightProblem::Kind::Unexpected) return false;
    return true;
}

size_t WeightBinding::count(WeightProblem::Kind kind) const {
    size_t n = 0;
    for (const auto& p : problems) n += p.kind == kind;
    return n;
}

WeightBinding bindWeights(const ir::Graph& graph, const TensorMap& tensors) {
    WeightBinding out;
    // Placeholders per original name, in mapping order.
    std::unordered_map<std::string, std::vector<std::string>> placeholdersOf;
    std::vector<std::string> originals;  // Graph::weights, then mapped names weights lacks
    std::unordered_set<std::string> seenOriginal;
    for (const auto& w : graph.weights)
        if (seenOriginal.insert(w.name).second) originals.push_back(w.name);
    for (const auto& [placeholder, original] : graph.weightNameMapping) {
        placeholdersOf[original].push_back(placeholder);
        if (seenOriginal.insert(original).second) originals.push_back(original);
    }
    std::unordered_map<std::string, const ir::TensorMeta*> metaOf;
    for (const auto& w : graph.weights) metaOf.emplace(w.name, &w);
    std::unordered_set<std::string> constants;
    for (const auto& [name, value] : graph.constants) constants.insert(name);

    std::unordered_set<std::string> usedKeys;
    std::vector<WeightProblem> mismatches;
    for (const std::string& original : originals) {
        const auto& placeholders = placeholdersOf[original];
        const std::string firstPlaceholder = placeholders.empty() ? std::string() : placeholders.front();
        const NamedTensor* found = tensors.entry(original);
        if (!found)
            for (const auto& p : placeholders)
                if ((found = tensors.entry(p))) break;
        const ir::TensorMeta* meta = metaOf.count(original) ? metaOf[original] : nullptr;
        if (!found) {
            if (constants.count(original)) {
                out.fromConstants.push_back(original);
                continue;
            }
            WeightProblem p{WeightProblem::Kind::Missing, firstPlaceholder, original, {}, {}, {}, {}, {}, {}};
            if (meta) {
                p.irShape = meta->shape;
                p.irDType = canonicalDType(meta->dtype);
            }
            p.message = who(firstPlaceholder, original) + ": missing from the tensor file" +
                        (meta ? " (the IR expects " + ir::shapeToList(meta->shape) +
                                    (meta->hasDtype() ? " " + p.irDType : std::string()) + ")"
                              : std::string());
            out.problems.push_back(std::move(p));
            continue;
        }
        usedKeys.insert(found->name);
        out.bound.push_back({original, placeholders, found->tensor, found->source});
        if (!meta) continue;
        const std::vector<int64_t> fileShape = found->tensor.sizes().vec();
        const std::string fileDType = scalarTypeName(found->tensor.scalar_type());
        const std::string irDType = canonicalDType(meta->dtype);
        const std::string keyNote = found->name == original ? std::string() : " (found as '" + found->name + "')";
        // A mismatch names both sides, whichever of shape and dtype differs.
        auto mismatch = [&](WeightProblem::Kind kind, std::string message) {
            mismatches.push_back({kind, firstPlaceholder, original, meta->shape, fileShape, irDType, fileDType,
                                  found->source, who(firstPlaceholder, original) + keyNote + message});
        };
        if (!ir::sizesFit(meta->shape, fileShape))
            mismatch(WeightProblem::Kind::ShapeMismatch, ": shape " + ir::shapeToList(meta->shape) + " in the IR, " +
                                                             ir::shapeToList(fileShape) + " in " + found->source);
        if (meta->hasDtype() && irDType != fileDType)
            mismatch(WeightProblem::Kind::DTypeMismatch,
                     ": dtype " + irDType + " in the IR, " + fileDType + " in " + found->source + " (shapes " +
                         ir::shapeToList(meta->shape) + " and " + ir::shapeToList(fileShape) + ")");
    }
    for (auto& p : mismatches) out.problems.push_back(std::move(p));
    // The parts of a tensor subclass (torchao's "w.qdata") are read by the
    // program's accessors through the subclass weight, not matched by name.
    auto isSubclassPart = [&](const std::string& name) {
        for (const auto& s : tensors.subclasses())
            if (name.size() > s.name.size() && name.compare(0, s.name.size(), s.name) == 0 &&
                name[s.name.size()] == '.' && usedKeys.count(s.name))
                return true;
        return false;
    };
    for (const auto& e : tensors) {
        if (usedKeys.count(e.name) || (!tensors.subclasses().empty() && isSubclassPart(e.name))) continue;
        WeightProblem p{WeightProblem::Kind::Unexpected,        {},       e.name, {}, e.tensor.sizes().vec(), {},
                        scalarTypeName(e.tensor.scalar_type()), e.source, {}};
        p.message = "state_dict key '" + e.name + "' (" + ir::shapeToList(p.fileShape) + " " + p.fileDType + ", in " +
                    e.source + ") matches no weight of the IR";
        out.problems.push_back(std::move(p));
    }
    return out;
}

}  // namespace irscope::io
