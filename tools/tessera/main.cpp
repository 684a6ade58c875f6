// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera <command> [args...]`: dispatches to the subcommands registered with
// TESSERA_TOOL_COMMAND (tools/tessera/command.hpp).
#include "command.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace tessera::tool {

std::vector<command>& command_registry() {
  static std::vector<command> registry;
  return registry;
}

namespace {

const command* find_command(std::string_view name) {
  for (const command& c : command_registry()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void print_usage(std::FILE* out) {
  std::vector<const command*> sorted;
  std::size_t width = 4;  // "help"
  for (const command& c : command_registry()) {
    sorted.push_back(&c);
    width = std::max(width, c.name.size());
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const command* a, const command* b) { return a->name < b->name; });
  std::fprintf(out, "usage: tessera <command> [args...]\n\ncommands:\n");
  std::fprintf(out, "  %-*s  %s\n", static_cast<int>(width), "help",
               "list the commands; `tessera help <command>` exits 0 iff it exists");
  for (const command* c : sorted) {
    std::fprintf(out, "  %-*s  %s\n", static_cast<int>(width), c->name.c_str(), c->help.c_str());
  }
}

// Two registrations of one name are a programming error; report them all.
bool registry_is_consistent() {
  bool ok = true;
  const auto& registry = command_registry();
  for (std::size_t i = 0; i < registry.size(); ++i) {
    for (std::size_t j = i + 1; j < registry.size(); ++j) {
      if (registry[i].name == registry[j].name) {
        std::fprintf(stderr, "tessera: command '%s' is registered twice\n", registry[i].name.c_str());
        ok = false;
      }
    }
    if (registry[i].name.empty() || registry[i].name == "help" || registry[i].run == nullptr) {
      std::fprintf(stderr, "tessera: invalid registration '%s'\n", registry[i].name.c_str());
      ok = false;
    }
  }
  return ok;
}

int run_help(int argc, char** argv) {
  if (argc == 0) {
    print_usage(stdout);
    return 0;
  }
  if (const command* c = find_command(argv[0])) {
    std::printf("tessera %s: %s\n", c->name.c_str(), c->help.c_str());
    return 0;
  }
  std::fprintf(stderr, "tessera: no command '%s'\n", argv[0]);
  return 1;
}

}  // namespace
}  // namespace tessera::tool

int main(int argc, char** argv) {
  using namespace tessera::tool;
  if (!registry_is_consistent()) return 70;
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    return run_help(argc - 2, argv + 2);
  }
  if (const command* c = find_command(name)) {
    return c->run(argc - 2, argv + 2);
  }
  std::fprintf(stderr, "tessera: unknown command '%s'\n\n", argv[1]);
  print_usage(stderr);
  return 2;
}
