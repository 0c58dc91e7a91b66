// The GUI module's entry points, looked up by name from the launcher (app/main.cpp).
#include "gui_main.h"

extern "C" __attribute__((visibility("default"))) int irscope_gui_main(int argc, char** argv) {
    return irscope::app::runGui(argc, argv);
}
