#pragma once
// DebuggerValues: the Debugger's part for the values a run reads and does not
// compute: weights, constants, inputs, the reference files, typed constants,
// the inputs' sources, and the rows of the tables that show them. Each change
// resets the run, because every later value depends on it. No torch headers.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/exec/values/value_rows.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerValues {
public:
    explicit DebuggerValues(DebuggerCore& core) : core_(core) {}

    // Throws std::runtime_error with "FILE: reason" on failure.
    // `progress` (optional) hears the share done: 0 to 0.7 while the file is
    // read, when returning false stops the load with io::ReadCancelled and
    // nothing changed; then up to 0.95 while what was read is bound, which
    // cannot be cancelled (its return value is ignored).
    using LoadProgress = std::function<bool(double fraction)>;
    void load(ValueFile kind, const std::string& path, const LoadProgress& progress = {});
    std::string path(ValueFile kind) const;  // "" when none loaded
    void loadWeights(const std::string& p) { load(ValueFile::Weights, p); }
    void loadConstants(const std::string& p) { load(ValueFile::Constants, p); }
    void loadInputs(const std::string& p) { load(ValueFile::Inputs, p); }
    void loadExpected(const std::string& p) { load(ValueFile::Expected, p); }
    void loadReferenceIntermediates(const std::string& p) { load(ValueFile::ReferenceIntermediates, p); }
    // Values from a run of another graph (an `irscope run --dump` of the other
    // side of a comparison) as the reference intermediates, renamed to this
    // graph's tensor names: pairs (name in the file, name here), from
    // diff::tensorNamesBToA. Tensors without a pair are left out. Throws like load().
    void loadRenamedReference(const std::string& path, const std::vector<std::pair<std::string, std::string>>& renames);
    std::string weightsPath() const { return path(ValueFile::Weights); }
    std::string constantsPath() const { return path(ValueFile::Constants); }
    std::string inputsPath() const { return path(ValueFile::Inputs); }
    std::string expectedPath() const { return path(ValueFile::Expected); }
    std::string intermediatesPath() const { return path(ValueFile::ReferenceIntermediates); }

    // Casts the state_dict to the IR's dtypes, now and on later loads (off:
    // the file's own dtypes again); the rows' source says "(cast from …)".
    // Returns how many entries were cast.
    size_t setCastWeights(bool on);
    bool castWeights() const;

    // Typed constant by original name (a placeholder name is accepted too):
    // "[1, 0, 1, 0]" with "float32". Throws std::invalid_argument with the
    // reason (syntax, ragged, unknown dtype). Returns a warning ("" when none),
    // e.g. when the shape differs from the IR's.
    std::string enterConstant(const std::string& name, const std::string& text, const std::string& dtype);
    void clearEnteredConstant(const std::string& name);
    std::vector<std::string> enteredConstants() const;
    // Writes the user-provided constants (file + entered, by original name)
    // as .pt/.safetensors. The IR is never touched.
    void saveConstants(const std::string& path) const;

    // Inputs: a source for every graph input (File only when a file is loaded).
    void setInputSource(const std::string& input, InputSource source);
    void setAllInputSources(InputSource source);
    void setRandomSeed(int64_t seed);
    int64_t randomSeed() const;

    // Every source of values the user chose, and the same choices applied to
    // this debugger (a reloaded document): what fails to apply (a file that is
    // gone, a constant the new IR rejects) is returned as messages, the rest applies.
    ValueSettings settings() const;
    std::vector<std::string> restore(const ValueSettings& settings);

    // The tables' rows.
    std::vector<WeightRow> weightRows() const;
    std::vector<InputRow> inputRows() const;
    std::vector<MissingRow> missing() const;  // pre-flight

private:
    // Parses and records a typed constant without handing it to the session,
    // so that restore() rebuilds the executor's registry once for all of them.
    std::string typeConstant(const std::string& name, const std::string& text, const std::string& dtype);

    DebuggerCore& core_;
};

}  // namespace irscope::exec
