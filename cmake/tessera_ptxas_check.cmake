# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Compiles one CUDA translation unit with `ptxas -v` for ctest (cmake -P) and
# checks the report of every entry function it builds:
#   * no C7515 ("wgmma.mma_async instructions are serialized"): ptxas makes
#     every wgmma of the kernel wait for the previous one, which silently
#     costs a third of the speed or more (session 13: 0.53-0.65x cuBLAS);
#   * no spill stores or loads (local-memory traffic), except in entry
#     functions whose mangled name matches a "// allow-spill: <regex>" line
#     of the source (each such line should say why in the comment above it).
# Inputs (-D): COMPILER, SOURCE, OBJECT, FLAGS and ARCH_FLAGS as in
# tessera_compile_check.cmake (separated by "|").

cmake_minimum_required(VERSION 3.25)

foreach(_var COMPILER SOURCE OBJECT ARCH_FLAGS)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "tessera_ptxas_check: ${_var} not given")
  endif()
endforeach()
string(REPLACE "|" ";" _flags "${FLAGS}")
string(REPLACE "|" ";" _arch_flags "${ARCH_FLAGS}")

file(STRINGS "${SOURCE}" _allow_lines REGEX "^// allow-spill:")
set(_allow "")
foreach(_line IN LISTS _allow_lines)
  string(REGEX REPLACE "^// allow-spill:[ \t]*" "" _re "${_line}")
  string(STRIP "${_re}" _re)
  if(NOT _re STREQUAL "")
    list(APPEND _allow "${_re}")
  endif()
endforeach()

get_filename_component(_object_dir "${OBJECT}" DIRECTORY)
file(MAKE_DIRECTORY "${_object_dir}")
set(_command "${COMPILER}" ${_flags} ${_arch_flags} -Xptxas -v -c "${SOURCE}" -o "${OBJECT}")
execute_process(COMMAND ${_command} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
list(JOIN _command " " _command_line)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "compilation failed (exit ${_rc}):\n  ${_command_line}\n${_out}")
endif()

string(REPLACE ";" "," _out_lines "${_out}")
string(REPLACE "\n" ";" _out_lines "${_out_lines}")
set(_function "")
set(_entries 0)
set(_errors "")
foreach(_line IN LISTS _out_lines)
  if(_line MATCHES "C7515")
    string(APPEND _errors "  wgmma serialised (C7515): ${_line}\n")
  endif()
  if(_line MATCHES "Compiling entry function '([^']+)'")
    math(EXPR _entries "${_entries} + 1")
  endif()
  if(_line MATCHES "Function properties for ([^ ]+)")
    set(_function "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
    set(_stores "${CMAKE_MATCH_1}")
    set(_loads "${CMAKE_MATCH_2}")
    if(NOT _stores EQUAL 0 OR NOT _loads EQUAL 0)
      set(_allowed FALSE)
      foreach(_re IN LISTS _allow)
        if(_function MATCHES "${_re}")
          set(_allowed TRUE)
        endif()
      endforeach()
      if(_allowed)
        message(STATUS "allowed spill (${_stores} B stores, ${_loads} B loads) in ${_function}")
      else()
        string(APPEND _errors
          "  local-memory spill (${_stores} B stores, ${_loads} B loads) in ${_function} [no allow-spill line matches]\n")
      endif()
    endif()
  endif()
endforeach()

if(_entries EQUAL 0)
  message(FATAL_ERROR "${SOURCE}: ptxas compiled no entry function (nothing instantiated?):\n${_out}")
endif()
if(NOT _errors STREQUAL "")
  message(FATAL_ERROR "${SOURCE}: ptxas report breaks a rule:\n${_errors}")
endif()
message(STATUS "${SOURCE}: ${_entries} entry functions, no wgmma serialisation, no unexpected spill")
