#pragma once
// OffThreadRelease: the last owner of a big document dropping it on the UI
// thread (the window replacing a 100,000-node graph, its layout, its
// debugger with every intermediate) froze the window for as long as the
// destructors ran: hundreds of milliseconds of freeing. Objects made with
// makeReleasedOffThread are deleted on a background thread when their last
// owner lets go on the UI thread, and in place anywhere else.
#include <memory>
#include <utility>

namespace irscope::widgets {

// Deletes `destroy` on a background thread when called on the application's
// UI thread, else runs it now.
void releaseOffUiThread(void (*destroy)(void*), void* object);

// `object`, shared, deleted off the UI thread. `keepAlive` (may be null) is
// held until then: what the object refers to (the document a debugger reads).
template <class T, class Keep = void>
std::shared_ptr<T> makeReleasedOffThread(T* object, std::shared_ptr<Keep> keepAlive = nullptr) {
    return std::shared_ptr<T>(object, [keep = std::move(keepAlive)](T* p) mutable {
        struct Bundle {
            T* object;
            std::shared_ptr<Keep> keep;
        };
        releaseOffUiThread(
            [](void* b) {
                auto* held = static_cast<Bundle*>(b);
                delete held->object;  // before what it refers to
                delete held;
            },
            new Bundle{p, std::move(keep)});
    });
}

}  // namespace irscope::widgets
