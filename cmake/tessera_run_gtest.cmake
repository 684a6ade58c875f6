# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Runs one GoogleTest executable for ctest (cmake -P -DEXE=<path>) and echoes
# its output. When it exits 0 having skipped every test (GTEST_SKIP without a
# suitable GPU), it prints the marker that the test's SKIP_REGULAR_EXPRESSION
# matches, so ctest reports "Skipped" rather than "Passed". A failing run never
# prints the marker and stays a failure.

cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED EXE)
  message(FATAL_ERROR "tessera_run_gtest: EXE not given")
endif()
execute_process(COMMAND "${EXE}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${_out}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${_rc}")
endif()
if(_out MATCHES "\\[==========\\] Running 0 tests")
  message(FATAL_ERROR "${EXE} has no tests")
endif()
if(_out MATCHES "\\[  PASSED  \\] 0 tests" AND _out MATCHES "\\[  SKIPPED \\]")
  message(STATUS "tessera-gtest: every test was skipped")
endif()
