// An empty program: core/CMakeLists.txt links one core/exec floor into it
// whole, with only the floors below it, so that the link fails when the floor
// calls up into a floor above.
int main() { return 0; }
