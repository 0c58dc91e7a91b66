// Lets the commands module build even when no torch command source exists yet.
extern "C" int irscope_commands_module_version() { return 1; }
