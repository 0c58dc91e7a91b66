#pragma once
// Small helpers shared by the Qt Test suites.
#include <QString>

#include <fstream>
#include <sstream>
#include <string>

namespace irscope::test {

inline std::string dataPath(const std::string& relative) { return std::string(IRSCOPE_TEST_DATA) + "/" + relative; }

inline std::string readFile(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

inline QString q(const std::string& text) { return QString::fromStdString(text); }

// data/ir/<name>: the IR fixtures most suites open.
inline std::string irPath(const std::string& name) { return dataPath("ir/" + name); }
inline QString irFixture(const QString& name) { return q(irPath(name.toStdString())); }

// The fixture folder (IRSCOPE_TEST_DATA) as a QString.
inline const QString kData = QString::fromUtf8(IRSCOPE_TEST_DATA);

}  // namespace irscope::test
