// The doctest main of the suites: the plugins are loaded first, as the CLI
// loads them (the registry itself never does).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "plugins.h"

int main(int argc, char **argv) {
    filterlab::load_plugins();
    doctest::Context context;
    context.applyCommandLine(argc, argv);
    return context.run();
}
