// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Subcommand registry of the `tessera` tool. A subcommand lives in its own
// file in tools/tessera/ (.cpp, or .cu when it needs CUDA) and registers
// itself at static-initialisation time:
//
//   int run_demo(int argc, char** argv);   // argv[0] is the first argument
//   TESSERA_TOOL_COMMAND(demo, "print the seed layouts", run_demo)
//
// The name may be an identifier (demo) or a string literal ("gemm-check").
// `tessera <name> args...` calls the function with the arguments after the
// name; its return value is the exit status.
#pragma once

#include <string>
#include <vector>

namespace tessera::tool {

using command_fn = int (*)(int argc, char** argv);

struct command {
  std::string name;
  std::string help;
  command_fn run;
};

// The registered commands, in registration order. Defined in main.cpp, so
// there is exactly one registry in the executable.
std::vector<command>& command_registry();

struct command_registrar {
  // `spelled` is the macro argument as written: an identifier or a quoted
  // string literal, whose quotes are dropped.
  command_registrar(const char* spelled, const char* help, command_fn run) {
    std::string name(spelled);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    command_registry().push_back(command{name, help, run});
  }
};

}  // namespace tessera::tool

#define TESSERA_TOOL_DETAIL_CONCAT_(a, b) a##b
#define TESSERA_TOOL_DETAIL_CONCAT(a, b) TESSERA_TOOL_DETAIL_CONCAT_(a, b)

// Registers `fn` (int(int, char**)) as the subcommand `name` with a one-line help.
#define TESSERA_TOOL_COMMAND(name, help, fn)                                   \
  namespace {                                                                  \
  const ::tessera::tool::command_registrar TESSERA_TOOL_DETAIL_CONCAT(         \
      tessera_tool_command_, __COUNTER__){#name, help, fn};                    \
  }
