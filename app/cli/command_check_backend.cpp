// irscope check-backend in the C++ program: it compiles with the user's
// PyTorch, so it runs in Python (python/irscope/check_backend.py, the
// pip-installed `irscope` command hands it over). Here: where to find it.
#include <iostream>

#include "cli/command.h"

namespace irscope::cli {
namespace {

int runCheckBackend(const std::vector<std::string>&) {
    std::cerr << "irscope check-backend compiles with your PyTorch, so it runs in Python: install irscope into that "
                 "environment (pip install ., README: Install with pip) and run `irscope check-backend` there, or "
                 "`python -m irscope.check_backend`. A backend that only dumps its values is checked here by "
                 "`irscope check-dump`.\n";
    return kExitUsage;
}

const CommandRegistration commandCheckBackendRegistration{
    Command{"check-backend", "check a torch.compile backend group by group (Python: pip install irscope)",
            "Usage: irscope check-backend PROGRAM --backend NAME|MODULE:FUNCTION [--inputs FILE]\n"
            "                             [--depth N] [--report R.json] [--repro DIR]\n\n"
            "Runs in Python, in the environment whose PyTorch the backend compiles with\n"
            "(docs/python.md): the pip-installed `irscope` command or\n"
            "`python -m irscope.check_backend`.\n",
            runCheckBackend}};

}  // namespace
}  // namespace irscope::cli
