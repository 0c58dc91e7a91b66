#pragma once
// ValueSources: every value a debugging session did not compute itself, and
// where it came from. The tensor files by kind (state_dict, constants, inputs,
// expected outputs, reference intermediates) with their paths, the constants
// the user typed (kept as typed, so they can be replayed on a reloaded IR),
// the source of each graph input (random with a seed, zeros, ones, the
// inputs file), and the settings that recreate all of it.
//
// Not thread-safe: the Debugger guards it with its lock. Internal to core.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/exec/values/value_rows.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::exec {

class ValueSources {
public:
    explicit ValueSources(const ir::Graph& graph);

    void setFile(ValueFile kind, io::TensorMap tensors, const std::string& path);
    const ir::Graph& graph() const { return graph_; }
    const io::TensorMap& file(ValueFile kind) const;
    const std::string& path(ValueFile kind) const;  // "" when none loaded

    // Cast the state_dict to the IR's dtypes (io/weight_cast.h), now and for
    // every state_dict loaded later; the file's own tensors are kept, so
    // turning it off gives them back. Returns how many entries were cast.
    size_t setCastWeights(bool on);
    bool castWeights() const { return castWeights_; }
    size_t castCount() const { return castCount_; }
    // The state_dict as the run reads it: cast when castWeights(), else the file's.
    const io::TensorMap& weightsForRun() const;

    // Typed constants by original name, in the order first typed.
    void enter(const EnteredConstant& typed, const at::Tensor& value);
    bool clearEntered(const std::string& originalName);  // false when none was entered
    std::vector<std::string> enteredNames() const;
    // The constants file overridden by typed values (see value_precedence.h).
    const io::TensorMap& userConstants() const { return userConstants_; }

    void setInputSource(const std::string& input, InputSource source);
    void setAllInputSources(InputSource source);
    InputSource inputSource(size_t graphInput) const { return inputSources_[graphInput]; }
    void setSeed(int64_t seed) { seed_ = seed; }
    int64_t seed() const { return seed_; }
    // The value of each graph input under its source (an input whose File
    // source has no entry is left out: pre-flight reports it).
    io::TensorMap effectiveInputs() const;

    // A value from the files or typed by the user, by tensor name: typed, user
    // constants, state_dict, inputs file (undefined when none).
    at::Tensor fileValue(const std::string& name) const;
    // The reference of a tensor: reference intermediates, else expected outputs.
    at::Tensor reference(const std::string& name) const;
    // Both reference files as one map (intermediates win).
    io::TensorMap references() const;

    ValueSettings settings() const;

private:
    void mergeUserConstants();
    size_t recast();

    const ir::Graph& graph_;
    std::map<ValueFile, io::TensorMap> files_;
    std::map<ValueFile, std::string> paths_;
    std::vector<ValueFile> loadOrder_;
    std::vector<EnteredConstant> typed_;             // as typed, in order
    std::map<std::string, at::Tensor> typedValues_;  // original name -> value
    io::TensorMap userConstants_;
    std::vector<InputSource> inputSources_;
    int64_t seed_ = 0;
    bool castWeights_ = false;
    io::TensorMap cast_;  // weightsForRun() while castWeights_
    size_t castCount_ = 0;
};

}  // namespace irscope::exec
