# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Runs one compiler invocation for ctest (cmake -P). Inputs (-D):
#   MODE      "fail": the source must NOT compile and the compiler output must
#                     contain the text after "// expect-error:" on line 3.
#                     For .cu sources an optional line 4 "// nvcc-flags: ..."
#                     replaces ARCH_FLAGS (e.g. to target sm_75).
#             "pass": the source must compile.
#             "ptxas": the source must compile with `-Xptxas -v`, and the
#                     report must keep tessera_ptxas_report.cmake's rules.
#   COMPILER  the compiler executable
#   SOURCE    the translation unit
#   OBJECT    where the object file goes
#   FLAGS     compiler flags, separated by "|"
#   ARCH_FLAGS  architecture flags (nvcc only), separated by "|"

cmake_minimum_required(VERSION 3.25)

foreach(_var MODE COMPILER SOURCE OBJECT)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "tessera_compile_check: ${_var} not given")
  endif()
endforeach()
string(REPLACE "|" ";" _flags "${FLAGS}")
string(REPLACE "|" ";" _arch_flags "${ARCH_FLAGS}")

if(MODE STREQUAL "fail")
  file(READ "${SOURCE}" _head LIMIT 8192)
  string(REPLACE "\r" "" _head "${_head}")
  string(REGEX MATCH "^[^\n]*\n[^\n]*\n// expect-error:[ \t]*([^\n]*)" _match "${_head}")
  set(_expect "${CMAKE_MATCH_1}")
  string(STRIP "${_expect}" _expect)
  if(_expect STREQUAL "")
    message(FATAL_ERROR "${SOURCE}: line 3 must be '// expect-error: <text the compiler must print>'")
  endif()
  string(REGEX MATCH "^[^\n]*\n[^\n]*\n[^\n]*\n// nvcc-flags:[ \t]*([^\n]*)" _match4 "${_head}")
  set(_line4_flags "${CMAKE_MATCH_1}")  # saved: if(MATCHES) below resets CMAKE_MATCH_1
  if(_match4)
    if(NOT SOURCE MATCHES "\\.cu$")
      message(FATAL_ERROR "${SOURCE}: '// nvcc-flags:' is only read in .cu files")
    endif()
    separate_arguments(_arch_flags UNIX_COMMAND "${_line4_flags}")
  endif()
elseif(MODE STREQUAL "ptxas")
  list(APPEND _flags -Xptxas -v)
elseif(NOT MODE STREQUAL "pass")
  message(FATAL_ERROR "tessera_compile_check: MODE must be 'fail', 'pass' or 'ptxas', not '${MODE}'")
endif()

get_filename_component(_object_dir "${OBJECT}" DIRECTORY)
file(MAKE_DIRECTORY "${_object_dir}")
file(REMOVE "${OBJECT}")

set(_command "${COMPILER}" ${_flags} ${_arch_flags} -c "${SOURCE}" -o "${OBJECT}")
execute_process(COMMAND ${_command}
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _out)
list(JOIN _command " " _command_line)

if(MODE STREQUAL "pass" OR MODE STREQUAL "ptxas")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "compilation failed (exit ${_rc}):\n  ${_command_line}\n${_out}")
  endif()
  message(STATUS "compiled: ${_command_line}")
  if(MODE STREQUAL "ptxas")
    include("${CMAKE_CURRENT_LIST_DIR}/tessera_ptxas_report.cmake")
    tessera_check_ptxas_report("${SOURCE}" "${_out}")
  endif()
  return()
endif()

if(_rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not:\n  ${_command_line}\n${_out}")
endif()
string(FIND "${_out}" "${_expect}" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed to compile as required, but the output lacks the expected text\n"
                      "  expected: ${_expect}\n  command:  ${_command_line}\n--- compiler output ---\n${_out}")
endif()
message(STATUS "failed as required, output contains \"${_expect}\"\n  ${_command_line}")
