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
#             "ptx":  the source must compile (ptxas included), and its PTX
#                     (nvcc -ptx) must contain the text after each
#                     "// expect-ptx:" line of the source, and none after a
#                     "// expect-no-ptx:" line. An optional
#                     "// nvcc-flags: ..." line replaces ARCH_FLAGS.
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
elseif(MODE STREQUAL "ptx")
  # The expected texts hold PTX's brackets, which would stop CMake from
  # splitting a list at its semicolons: they stand as placeholders in the
  # lists and are put back where each text is searched for.
  file(READ "${SOURCE}" _source_text)
  string(REPLACE "[" "<tessera-lsqb>" _source_text "${_source_text}")
  string(REPLACE "]" "<tessera-rsqb>" _source_text "${_source_text}")
  string(REGEX MATCHALL "(^|\n)// expect-ptx:[^\n]*" _expect_ptx "${_source_text}")
  string(REGEX MATCHALL "(^|\n)// expect-no-ptx:[^\n]*" _expect_no_ptx "${_source_text}")
  if(NOT _expect_ptx)
    message(FATAL_ERROR "${SOURCE}: a PTX test needs at least one '// expect-ptx: <text>' line")
  endif()
  file(STRINGS "${SOURCE}" _ptx_flags_line REGEX "^// nvcc-flags:")
  if(_ptx_flags_line)
    list(GET _ptx_flags_line 0 _ptx_flags_line)
    string(REGEX REPLACE "^// nvcc-flags:[ \t]*" "" _ptx_flags_line "${_ptx_flags_line}")
    separate_arguments(_arch_flags UNIX_COMMAND "${_ptx_flags_line}")
  endif()
elseif(NOT MODE STREQUAL "pass")
  message(FATAL_ERROR "tessera_compile_check: MODE must be 'fail', 'pass', 'ptxas' or 'ptx', not '${MODE}'")
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

if(MODE STREQUAL "pass" OR MODE STREQUAL "ptxas" OR MODE STREQUAL "ptx")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "compilation failed (exit ${_rc}):\n  ${_command_line}\n${_out}")
  endif()
  message(STATUS "compiled: ${_command_line}")
  if(MODE STREQUAL "ptxas")
    include("${CMAKE_CURRENT_LIST_DIR}/tessera_ptxas_report.cmake")
    tessera_check_ptxas_report("${SOURCE}" "${_out}")
  endif()
  if(MODE STREQUAL "ptx")
    # The same compilation stopped at PTX: the text ptxas was given above.
    set(_ptx "${OBJECT}.ptx")
    file(REMOVE "${_ptx}")
    set(_ptx_command "${COMPILER}" ${_flags} ${_arch_flags} -ptx "${SOURCE}" -o "${_ptx}")
    execute_process(COMMAND ${_ptx_command} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    list(JOIN _ptx_command " " _ptx_command_line)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "PTX generation failed (exit ${_rc}):\n  ${_ptx_command_line}\n${_out}")
    endif()
    file(READ "${_ptx}" _ptx_text)
    set(_missing "")
    foreach(_line IN LISTS _expect_ptx)
      string(REGEX REPLACE "^\n?// expect-ptx:[ \t]*" "" _want "${_line}")
      string(STRIP "${_want}" _want)
      string(REPLACE "<tessera-lsqb>" "[" _want "${_want}")
      string(REPLACE "<tessera-rsqb>" "]" _want "${_want}")
      string(FIND "${_ptx_text}" "${_want}" _at)
      if(_at EQUAL -1)
        string(APPEND _missing "\n  missing:   ${_want}")
      endif()
    endforeach()
    foreach(_line IN LISTS _expect_no_ptx)
      string(REGEX REPLACE "^\n?// expect-no-ptx:[ \t]*" "" _unwanted "${_line}")
      string(STRIP "${_unwanted}" _unwanted)
      string(REPLACE "<tessera-lsqb>" "[" _unwanted "${_unwanted}")
      string(REPLACE "<tessera-rsqb>" "]" _unwanted "${_unwanted}")
      string(FIND "${_ptx_text}" "${_unwanted}" _at)
      if(NOT _at EQUAL -1)
        string(APPEND _missing "\n  unwanted:  ${_unwanted}")
      endif()
    endforeach()
    if(NOT _missing STREQUAL "")
      message(FATAL_ERROR "${SOURCE}: the PTX (${_ptx}) does not read as expected:${_missing}\n  ${_ptx_command_line}")
    endif()
    list(LENGTH _expect_ptx _n_expect)
    message(STATUS "PTX holds the ${_n_expect} expected forms: ${_ptx}")
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
