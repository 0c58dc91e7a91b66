#pragma once
// The control-flow corpus nested two levels deep (tests/data/nested/, made
// by make_nested_programs.py on PyTorch 2.13): its files and its programs'
// names, for the exec suites that walk it.
#include <string>

#include <QDir>
#include <QStringList>

#include "test_support.h"

namespace irscope::test {

inline std::string nestedFile(const std::string& file) { return dataPath("nested/" + file); }

// "branch_in_loop", ...: one per .pt2 of the corpus, sorted.
inline QStringList nestedPrograms() {
    QStringList names;
    for (const QString& f : QDir(QString::fromStdString(nestedFile(""))).entryList({"*.pt2"}, QDir::Files, QDir::Name))
        names << f.chopped(4);
    return names;
}

}  // namespace irscope::test
