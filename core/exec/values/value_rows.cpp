#include "core/exec/values/value_rows.h"

namespace irscope::exec {

const char* weightStatusName(WeightStatus s) {
    switch (s) {
    case WeightStatus::Loaded: return "loaded";
    case WeightStatus::FromIr: return "IR constant";
    case WeightStatus::FromConstants: return "constants file";
    case WeightStatus::Entered: return "entered";
    case WeightStatus::Missing: return "missing";
    case WeightStatus::ShapeMismatch: return "shape mismatch";
    case WeightStatus::DTypeMismatch: return "dtype mismatch";
    case WeightStatus::UnusedInFile: return "unused in file";
    }
    return "?";
}

const char* inputSourceName(InputSource s) {
    switch (s) {
    case InputSource::Random: return "random";
    case InputSource::Zeros: return "zeros";
    case InputSource::Ones: return "ones";
    case InputSource::File: return "file";
    }
    return "?";
}

const char* valueFileName(ValueFile f) {
    switch (f) {
    case ValueFile::Weights: return "weights";
    case ValueFile::Constants: return "constants";
    case ValueFile::Inputs: return "inputs";
    case ValueFile::Expected: return "expected";
    case ValueFile::ReferenceIntermediates: return "reference intermediates";
    }
    return "?";
}

}  // namespace irscope::exec
