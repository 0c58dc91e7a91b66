#include "core/exec/values/value_tables.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/value_precedence.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/values/value_text.h"
#include "core/io/tensor_dtype.h"
#include "core/io/weight_binding.h"
#include "core/modules/module_tree.h"

namespace irscope::exec {

namespace {

std::string canonicalDtype(const std::string& irDtype) {
    auto st = scalarTypeOfIrDtype(irDtype);
    return st ? io::scalarTypeName(*st) : irDtype;
}

char prefixKind(const std::string& placeholder) {
    if (placeholder.size() > 2 && placeholder[1] == '_' &&
        (placeholder[0] == 'p' || placeholder[0] == 'b' || placeholder[0] == 'c'))
        return placeholder[0];
    return '?';
}

WeightStatus statusOf(ValueOrigin origin) {
    switch (origin) {
    case ValueOrigin::Entered: return WeightStatus::Entered;
    case ValueOrigin::ConstantsFile: return WeightStatus::FromConstants;
    case ValueOrigin::IrConstant: return WeightStatus::FromIr;
    case ValueOrigin::StateDict: break;
    }
    return WeightStatus::Loaded;
}

// Everything a row needs to know, looked up once per table (70,000 weights:
// hash maps, never a scan per row).
struct RowContext {
    const ir::Graph& graph;
    const ir::GraphIndex& index;
    const ValueSources& sources;
    io::WeightBinding binding;
    std::unordered_map<std::string, const io::WeightProblem*> problemOf;
    std::unordered_map<std::string, const io::BoundWeight*> boundOf;
    std::unordered_map<std::string, EffectiveConstant> constantOf;
    std::unordered_map<std::string, std::string> unusableConstant;

    RowContext(const ir::Graph& g, const ir::GraphIndex& i, const ValueSources& s)
        : graph(g), index(i), sources(s), binding(io::bindWeights(g, s.weightsForRun())) {
        for (const auto& p : binding.problems)
            if (p.kind != io::WeightProblem::Kind::Unexpected && !problemOf.count(p.key)) problemOf[p.key] = &p;
        for (const auto& b : binding.bound) boundOf[b.key] = &b;
        EffectiveConstants constants = effectiveConstants(g, s.userConstants());
        for (auto& c : constants.values) constantOf.emplace(c.name, std::move(c));
        for (auto& [name, why] : constants.unusable) unusableConstant.emplace(name, why);
    }
};

// Weight and constant names in IR order: Graph::weights, then mapping-only names.
std::vector<std::string> originalNames(const ir::Graph& g, std::unordered_set<std::string>& seen) {
    std::vector<std::string> names;
    for (const auto& w : g.weights)
        if (seen.insert(w.name).second) names.push_back(w.name);
    for (const auto& [placeholder, original] : g.weightNameMapping)
        if (seen.insert(original).second) names.push_back(original);
    return names;
}

// The value under torch_ir's order: a constant (typed, file, IR), else the state_dict.
at::Tensor resolveValue(const RowContext& c, const std::string& orig, WeightRow& r) {
    if (auto it = c.constantOf.find(orig); it != c.constantOf.end()) {
        r.status = statusOf(it->second.origin);
        r.source = it->second.source.empty() ? c.sources.path(ValueFile::Constants) : it->second.source;
        return it->second.tensor;
    }
    if (auto it = c.unusableConstant.find(orig); it != c.unusableConstant.end()) r.message = it->second;
    auto bound = c.boundOf.find(orig);
    if (bound == c.boundOf.end()) return {};
    r.source = bound->second->source;
    r.status = WeightStatus::Loaded;
    if (auto it = c.problemOf.find(orig); it != c.problemOf.end()) {
        r.status = it->second->kind == io::WeightProblem::Kind::ShapeMismatch ? WeightStatus::ShapeMismatch
                                                                              : WeightStatus::DTypeMismatch;
        r.message = it->second->message;
    }
    return bound->second->tensor;
}

// A value that came from a constant: checked against the IR here (the
// binding checked state_dict values already).
void checkAgainstIr(WeightRow& r) {
    if (r.status == WeightStatus::Loaded || r.status == WeightStatus::ShapeMismatch ||
        r.status == WeightStatus::DTypeMismatch)
        return;
    if (!r.irDtype.empty() && !ir::sizesFit(r.irShape, r.loadedShape)) {
        r.message = r.originalName + ": shape " + ir::shapeToList(r.irShape) + " in the IR, " +
                    indexText(r.loadedShape) + " from " + r.source;
        r.status = WeightStatus::ShapeMismatch;
    } else if (!r.irDtype.empty() && r.irDtype != r.loadedDtype) {
        r.message = r.originalName + ": dtype " + r.irDtype + " in the IR, " + r.loadedDtype + " from " + r.source;
        r.status = WeightStatus::DTypeMismatch;
    }
}

WeightRow weightRow(const RowContext& c, const std::string& orig) {
    WeightRow r;
    r.originalName = orig;
    r.placeholders = c.index.placeholdersOf(orig);
    r.placeholder = r.placeholders.empty() ? std::string() : r.placeholders.front();
    r.kind = prefixKind(r.placeholder);
    if (const auto wi = c.index.weightIndex(orig)) {
        const ir::TensorMeta& meta = c.graph.weights[static_cast<size_t>(*wi)];
        r.irShape = meta.shape;
        r.irDtype = canonicalDtype(meta.dtype);
        r.used = !c.index.usesOfWeight(*wi).empty();
    }
    const bool inFile = c.boundOf.count(orig) != 0;
    r.constantLike = r.kind == 'c' || c.index.constant(orig) != nullptr || (r.kind == 'b' && !inFile);
    const at::Tensor value = resolveValue(c, orig, r);
    if (value.defined()) {
        r.loadedShape = value.sizes().vec();
        r.loadedDtype = io::scalarTypeName(value.scalar_type());
        checkAgainstIr(r);
        return r;
    }
    r.status = WeightStatus::Missing;
    const std::string& weightsPath = c.sources.path(ValueFile::Weights);
    if (r.constantLike)
        r.message = (r.kind == 'b' ? "non-persistent buffer '" : "constant '") + orig + "' has no value";
    else
        r.message = "'" + orig + "' is not in the state_dict" +
                    (weightsPath.empty() ? std::string(" (no weights loaded)") : " " + weightsPath);
    return r;
}

WeightRow unusedRow(const std::string& name, const at::Tensor* tensor, const std::string& source,
                    const std::string& message, bool constantLike) {
    WeightRow r;
    r.originalName = name;
    r.constantLike = constantLike;
    r.status = WeightStatus::UnusedInFile;
    r.source = source;
    if (tensor) {
        r.loadedShape = tensor->sizes().vec();
        r.loadedDtype = io::scalarTypeName(tensor->scalar_type());
    }
    r.message = message;
    return r;
}

}  // namespace

namespace {

// Sets each row's `rank` to its place in natural order of `name` (stable:
// equal names keep row order).
void rankNaturally(std::vector<WeightRow>& rows, std::string WeightRow::*name, uint32_t WeightRow::*rank) {
    std::vector<uint32_t> order(rows.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<uint32_t>(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return modules::naturalLess(rows[a].*name, rows[b].*name); });
    for (size_t k = 0; k < order.size(); ++k) rows[order[k]].*rank = static_cast<uint32_t>(k);
}

}  // namespace

std::vector<WeightRow> weightRows(const ir::Graph& graph, const ir::GraphIndex& index, const ValueSources& sources) {
    const RowContext c(graph, index, sources);
    std::unordered_set<std::string> seen;
    std::vector<WeightRow> rows;
    for (const auto& orig : originalNames(graph, seen)) rows.push_back(weightRow(c, orig));
    const io::TensorMap& weights = sources.weightsForRun();
    for (const auto& p : c.binding.problems)
        if (p.kind == io::WeightProblem::Kind::Unexpected)
            rows.push_back(unusedRow(p.key, weights.find(p.key), p.source, p.message, false));
    for (const auto& e : sources.file(ValueFile::Constants)) {
        if (seen.count(e.name) || index.originalName(e.name)) continue;
        rows.push_back(unusedRow(e.name, &e.tensor, e.source,
                                 "'" + e.name + "' in " + e.source + " is not a constant of the IR", true));
    }
    rankNaturally(rows, &WeightRow::placeholder, &WeightRow::placeholderRank);
    rankNaturally(rows, &WeightRow::originalName, &WeightRow::originalRank);
    return rows;
}

std::vector<InputRow> inputRows(const ir::Graph& g, const ValueSources& sources, const io::TensorMap& effective) {
    std::vector<InputRow> rows;
    for (size_t i = 0; i < g.graphInputs.size(); ++i) {
        const auto& in = g.graphInputs[i];
        InputRow r;
        r.name = in.name;
        r.irShape = in.shape;
        r.irDtype = canonicalDtype(in.dtype);
        r.source = sources.inputSource(i);
        if (const at::Tensor* t = effective.find(in.name)) {
            r.loadedShape = t->sizes().vec();
            r.loadedDtype = io::scalarTypeName(t->scalar_type());
            if (!ir::sizesFit(r.irShape, r.loadedShape))
                r.problem = "shape " + indexText(r.loadedShape) + ", the IR expects " + ir::shapeToList(r.irShape);
            else if (!r.irDtype.empty() && r.irDtype != r.loadedDtype)
                r.problem = "dtype " + r.loadedDtype + ", the IR expects " + r.irDtype;
        } else if (r.source == InputSource::File) {
            const std::string& path = sources.path(ValueFile::Inputs);
            r.problem = path.empty() ? "no inputs file loaded" : "not in " + path;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

bool awaitsStateDict(const MissingValue& mv, const ValueSources& sources) {
    return !mv.wrongDtype() && sources.path(ValueFile::Weights).empty() &&
           (mv.kind == "parameter" || mv.kind == "buffer" || mv.kind == "weight");
}

std::vector<MissingRow> missingRows(const std::vector<MissingValue>& missing, const ValueSources& sources) {
    std::vector<MissingRow> out;
    const bool haveStateDict = !sources.path(ValueFile::Weights).empty();
    std::unordered_map<std::string_view, const ir::TensorMeta*> metaByName;  // made when a row needs it
    for (const auto& mv : missing) {
        MissingRow r;
        r.value = mv;
        const std::string& what = mv.originalName.empty() ? mv.name : mv.originalName;
        if (mv.wrongDtype() && !sources.weightsForRun().contains(what) && !sources.weightsForRun().contains(mv.name))
            r.remedy = Remedy::EnterConstant;  // a typed value or a constants file: give it in the IR's dtype
        else if (mv.wrongDtype())
            r.remedy = Remedy::CastToIrDtype;
        else if (mv.kind == "input")
            r.remedy = Remedy::ChooseInputSource;
        else if (mv.kind == "constant")
            r.remedy = Remedy::EnterConstant;
        else if (mv.kind == "buffer" && haveStateDict && !sources.file(ValueFile::Weights).contains(what))
            r.remedy = Remedy::EnterNonPersistentBuffer;
        else
            r.remedy = Remedy::LoadStateDict;
        r.awaitsStateDict = awaitsStateDict(mv, sources);
        if (r.remedy == Remedy::EnterConstant || r.remedy == Remedy::EnterNonPersistentBuffer) {
            if (metaByName.empty())
                for (const auto& w : sources.graph().weights) metaByName.emplace(w.name, &w);
            auto it = metaByName.find(what);
            if (it == metaByName.end()) it = metaByName.find(mv.name);
            if (it != metaByName.end()) {
                const std::string text = exampleValueText(it->second->shape, it->second->dtype);
                if (!text.empty()) r.example = (text.starts_with("a ") ? "" : "e.g. ") + text + " " + it->second->dtype;
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace irscope::exec
