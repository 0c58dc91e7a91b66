#include "core/ir/natural_order.h"

#include <algorithm>
#include <cctype>

namespace irscope::ir {

bool naturalLess(std::string_view a, std::string_view b) {
    // Names share long prefixes ("model.layers.12.mlp.experts."): skip the
    // identical bytes at memcmp speed, backing up to the start of a digit run
    // the difference falls in, so that run still compares by value.
    const size_t common = static_cast<size_t>(
        std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(std::min(a.size(), b.size())), b.begin())
            .first -
        a.begin());
    size_t i = common;
    while (i > 0 && std::isdigit(static_cast<unsigned char>(a[i - 1]))) --i;
    size_t j = i;
    while (i < a.size() && j < b.size()) {
        const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            // Compare digit runs by value: skip leading zeros, then length, then digits.
            size_t ia = i, jb = j;
            while (ia < a.size() && a[ia] == '0') ++ia;
            while (jb < b.size() && b[jb] == '0') ++jb;
            size_t ea = ia, eb = jb;
            while (ea < a.size() && std::isdigit(static_cast<unsigned char>(a[ea]))) ++ea;
            while (eb < b.size() && std::isdigit(static_cast<unsigned char>(b[eb]))) ++eb;
            if (ea - ia != eb - jb) return ea - ia < eb - jb;
            if (int c = a.substr(ia, ea - ia).compare(b.substr(jb, eb - jb)); c != 0) return c < 0;
            i = ea;
            j = eb;
            continue;
        }
        if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
    return a < b;  // equal by value ("01" vs "1"): a total order all the same
}

}  // namespace irscope::ir
