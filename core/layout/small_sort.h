#pragma once
// A stable sort for the short ranges the ordering phase sorts thousands of
// times per layout (a layer of a few vertices, an anchor's satellites).
// std::stable_sort takes a temporary buffer from the heap on every call:
// on a 150-item graph that was a third of the layout's allocations and a
// tenth of its time. Insertion sort is stable, allocates nothing and is
// the fastest sort for a few dozen elements; longer ranges still go to
// std::stable_sort.
#include <algorithm>
#include <iterator>
#include <utility>

namespace irscope::layout::detail {

template <typename It, typename Less>
void stableSortSmall(It first, It last, Less less) {
    constexpr std::ptrdiff_t kInsertionLimit = 32;
    if (last - first > kInsertionLimit) {
        std::stable_sort(first, last, less);
        return;
    }
    for (It i = first; i != last; ++i) {
        auto value = std::move(*i);
        It j = i;
        // Moves past only the strictly greater, so equal elements keep their order.
        for (; j != first && less(value, *std::prev(j)); --j) *j = std::move(*std::prev(j));
        *j = std::move(value);
    }
}

}  // namespace irscope::layout::detail
