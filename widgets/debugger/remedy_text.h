#pragma once
// How this window tells a user to supply a missing value: the core says what
// kind of remedy a value needs (exec::Remedy); only the GUI knows its docks
// and menus, so the sentences naming them live here.
#include <QString>

#include "core/exec/values/value_rows.h"

namespace irscope::widgets {

// A value the nodes read that nothing in the IR gives (a dangling producer):
// no file can supply it; the IR is broken.
bool isDanglingValue(const exec::MissingRow& row);
// "enter the value of constant 'mask' in the Constants dock (...) or load a constants file"
QString remedyText(const exec::MissingRow& row);
// "c_mask (constant 'mask'), needed by: mul: " + remedyText
QString missingText(const exec::MissingRow& row);
// A weights-table row's message, with the remedy when its value is missing.
QString weightRowMessage(const exec::WeightRow& row);

}  // namespace irscope::widgets
