#include "core/exec/values/value_sources.h"

#include <algorithm>

#include "core/exec/engine/subclass_values.h"
#include "core/exec/engine/value_precedence.h"
#include "core/exec/values/random_inputs.h"
#include "core/io/weight_cast.h"

namespace irscope::exec {

ValueSources::ValueSources(const ir::Graph& graph) : graph_(graph) {
    inputSources_.assign(graph.graphInputs.size(), InputSource::Random);
}

void ValueSources::setFile(ValueFile kind, io::TensorMap tensors, const std::string& path) {
    // A tensor-subclass weight is stored as its parts: its value, rebuilt,
    // is what the tables, the binding and the run see (subclass_values.h).
    files_[kind] = lacksSubclassValues(tensors) ? withSubclassValues(tensors) : std::move(tensors);
    paths_[kind] = path;
    if (kind == ValueFile::Weights) recast();
    std::erase(loadOrder_, kind);
    loadOrder_.push_back(kind);
    if (kind == ValueFile::Constants) mergeUserConstants();
    if (kind == ValueFile::Inputs) setAllInputSources(InputSource::File);
}

size_t ValueSources::setCastWeights(bool on) {
    castWeights_ = on;
    return recast();
}

size_t ValueSources::recast() {
    castCount_ = 0;
    cast_ = {};
    if (!castWeights_) return 0;
    io::CastWeights c = io::castToIrDtypes(graph_, file(ValueFile::Weights));
    cast_ = std::move(c.tensors);
    castCount_ = c.cast;
    return castCount_;
}

const io::TensorMap& ValueSources::weightsForRun() const { return castWeights_ ? cast_ : file(ValueFile::Weights); }

const io::TensorMap& ValueSources::file(ValueFile kind) const {
    static const io::TensorMap empty;
    auto it = files_.find(kind);
    return it == files_.end() ? empty : it->second;
}

const std::string& ValueSources::path(ValueFile kind) const {
    static const std::string none;
    auto it = paths_.find(kind);
    return it == paths_.end() ? none : it->second;
}

void ValueSources::enter(const EnteredConstant& typed, const at::Tensor& value) {
    auto same = [&](const EnteredConstant& e) { return e.name == typed.name; };
    if (auto it = std::find_if(typed_.begin(), typed_.end(), same); it != typed_.end())
        *it = typed;
    else
        typed_.push_back(typed);
    typedValues_[typed.name] = value;
    mergeUserConstants();
}

bool ValueSources::clearEntered(const std::string& name) {
    if (!typedValues_.erase(name)) return false;
    std::erase_if(typed_, [&](const EnteredConstant& e) { return e.name == name; });
    mergeUserConstants();
    return true;
}

std::vector<std::string> ValueSources::enteredNames() const {
    std::vector<std::string> names;
    for (const auto& e : typed_) names.push_back(e.name);
    return names;
}

void ValueSources::mergeUserConstants() {
    std::vector<std::pair<std::string, at::Tensor>> entered;
    for (const auto& e : typed_) entered.emplace_back(e.name, typedValues_.at(e.name));
    userConstants_ = exec::mergeUserConstants(file(ValueFile::Constants), entered);
}

void ValueSources::setInputSource(const std::string& input, InputSource source) {
    for (size_t i = 0; i < graph_.graphInputs.size(); ++i)
        if (graph_.graphInputs[i].name == input) inputSources_[i] = source;
}

void ValueSources::setAllInputSources(InputSource source) {
    std::fill(inputSources_.begin(), inputSources_.end(), source);
}

io::TensorMap ValueSources::effectiveInputs() const {
    const bool anyRandom =
        std::find(inputSources_.begin(), inputSources_.end(), InputSource::Random) != inputSources_.end();
    const io::TensorMap random = anyRandom ? makeRandomInputs(graph_, seed_) : io::TensorMap{};
    const io::TensorMap& inputsFile = file(ValueFile::Inputs);
    io::TensorMap out;
    for (size_t i = 0; i < graph_.graphInputs.size(); ++i) {
        const auto& in = graph_.graphInputs[i];
        switch (inputSources_[i]) {
        case InputSource::Random: out.insert(in.name, *random.find(in.name), "random"); break;
        case InputSource::Zeros: out.insert(in.name, makeFilledInput(in, 0), "zeros"); break;
        case InputSource::Ones: out.insert(in.name, makeFilledInput(in, 1), "ones"); break;
        case InputSource::File:
            if (const auto* e = inputsFile.entry(in.name)) out.insert(in.name, e->tensor, e->source);
            break;
        }
    }
    return out;
}

at::Tensor ValueSources::fileValue(const std::string& name) const {
    if (auto it = typedValues_.find(name); it != typedValues_.end()) return it->second;
    for (const io::TensorMap* map : {&userConstants_, &weightsForRun(), &file(ValueFile::Inputs)})
        if (const at::Tensor* t = map->find(name)) return *t;
    return {};
}

at::Tensor ValueSources::reference(const std::string& name) const {
    if (const at::Tensor* t = file(ValueFile::ReferenceIntermediates).find(name)) return *t;
    if (const at::Tensor* t = file(ValueFile::Expected).find(name)) return *t;
    return {};
}

io::TensorMap ValueSources::references() const {
    io::TensorMap refs = file(ValueFile::ReferenceIntermediates);
    for (const auto& e : file(ValueFile::Expected))
        if (!refs.contains(e.name)) refs.insert(e.name, e.tensor, e.source);
    return refs;
}

ValueSettings ValueSources::settings() const {
    ValueSettings s;
    for (ValueFile kind : loadOrder_) s.files.emplace_back(kind, path(kind));
    s.entered = typed_;
    for (size_t i = 0; i < graph_.graphInputs.size(); ++i)
        s.inputSources.emplace_back(graph_.graphInputs[i].name, inputSources_[i]);
    s.seed = seed_;
    s.castWeights = castWeights_;
    return s;
}

}  // namespace irscope::exec
