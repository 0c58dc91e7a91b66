#pragma once
// Where each value of a run comes from, as plain rows: one per weight /
// constant, one per graph input, one per value the pre-flight found missing
// with the kind of remedy it needs. Also the names of the value files a
// debugger holds and the settings that recreate its sources on a reloaded
// document. Torch-free: widget files include this. The wording of remedies
// for a particular window ("the Constants dock") belongs to the GUI.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/ir/dim.h"

namespace irscope::exec {

enum class WeightStatus {
    Loaded,         // from the state_dict, shape and dtype as the IR says
    FromIr,         // from the IR's own `constants`
    FromConstants,  // from the --constants file
    Entered,        // typed by the user
    Missing,        // no value anywhere
    ShapeMismatch,
    DTypeMismatch,
    UnusedInFile,  // in the file, but no IR weight maps to it
};
const char* weightStatusName(WeightStatus status);  // "loaded", "IR constant", "missing", ...

struct WeightRow {
    std::string placeholder;                // first placeholder ("" for an unused file entry)
    std::vector<std::string> placeholders;  // every placeholder mapping to it
    std::string originalName;               // state_dict key / constant name
    char kind = '?';                        // 'p', 'b', 'c', or '?' (other / unused)
    bool constantLike = false;              // c_, or a b_ the state_dict lacks (non-persistent buffer)
    bool used = false;                      // some node reads it
    ir::Shape irShape;
    std::string irDtype;
    std::vector<int64_t> loadedShape;  // empty with loadedDtype "" when no value
    std::string loadedDtype;
    std::string source;  // file path, "IR constants", "entered"
    WeightStatus status = WeightStatus::Missing;
    std::string message;  // what is wrong, in a sentence ("" when nothing)
    // The row's place among all rows in natural order of placeholder and of
    // original name: computed with the rows, off the UI thread, so a view
    // sorting 70,000 rows by name compares integers.
    uint32_t placeholderRank = 0, originalRank = 0;
    bool hasValue() const { return !loadedDtype.empty(); }
};

enum class InputSource { Random, Zeros, Ones, File };
const char* inputSourceName(InputSource source);  // "random", "zeros", "ones", "file"

struct InputRow {
    std::string name;
    ir::Shape irShape;
    std::string irDtype;
    InputSource source = InputSource::Random;
    std::vector<int64_t> loadedShape;
    std::string loadedDtype;
    std::string problem;  // "not in the inputs file", shape mismatch, ...
};

// What supplies a missing value; the GUI and the CLI word it their own way.
enum class Remedy {
    ChooseInputSource,         // a graph input: random / zeros / ones, or an inputs file
    EnterConstant,             // a lifted constant: type its value or load a constants file
    EnterNonPersistentBuffer,  // a buffer the loaded state_dict cannot have: type it or a constants file
    LoadStateDict,             // a parameter or buffer: a state_dict that has it
    CastToIrDtype,             // a state_dict value in another dtype than the IR's: cast the weights
};

// A value the pre-flight check found missing, with what fixes it.
struct MissingRow {
    MissingValue value;
    Remedy remedy = Remedy::LoadStateDict;
    // A parameter or buffer while no state_dict is loaded yet: not an alarm, just
    // waiting for --weights (the graph does not mark these red). Only values a
    // state_dict can never supply (lifted constants) are flagged before one is loaded.
    bool awaitsStateDict = false;
    // For a value typed by hand: how it is typed, from the IR's shape and
    // dtype ("e.g. [1, 0, 1, 0, 1, 0] int64"); "" for the other remedies.
    std::string example;
};

// The tensor files a debugger reads its values from.
enum class ValueFile { Weights, Constants, Inputs, Expected, ReferenceIntermediates };
const char* valueFileName(ValueFile file);  // "weights", "constants", "inputs", "expected", "reference intermediates"
inline constexpr ValueFile kValueFiles[] = {ValueFile::Weights, ValueFile::Constants, ValueFile::Inputs,
                                            ValueFile::Expected, ValueFile::ReferenceIntermediates};

// A constant typed by the user, as typed.
struct EnteredConstant {
    std::string name;   // original name
    std::string text;   // "[1, 0, 1, 0]"
    std::string dtype;  // "float32"
};

// Everything the user chose as a source of values: applied to a reloaded
// document, it recreates the same values (see Debugger::restore).
struct ValueSettings {
    std::vector<std::pair<ValueFile, std::string>> files;  // in the order they were loaded
    std::vector<EnteredConstant> entered;
    std::vector<std::pair<std::string, InputSource>> inputSources;  // by graph input name
    int64_t seed = 0;
    bool castWeights = false;  // the state_dict cast to the IR's dtypes
};

}  // namespace irscope::exec
