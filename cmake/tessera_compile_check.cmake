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
#             "ptx":  the source must compile to PTX (nvcc -ptx) that ptxas
#                     assembles for its .target, and the PTX must contain
#                     the text after each "// expect-ptx:" line of the
#                     source, and none after a "// expect-no-ptx:" line. An
#                     optional "// nvcc-flags: ..." line replaces ARCH_FLAGS.
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

if(MODE STREQUAL "ptx")
  # One front-end pass to PTX; ptxas then assembles that text (below), so
  # the test costs one compilation, not two.
  set(_command "${COMPILER}" ${_flags} ${_arch_flags} -ptx "${SOURCE}" -o "${OBJECT}.ptx")
else()
  set(_command "${COMPILER}" ${_flags} ${_arch_flags} -c "${SOURCE}" -o "${OBJECT}")
endif()
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
    set(_ptx "${OBJECT}.ptx")
    file(READ "${_ptx}" _ptx_text)
    # ptxas assembles the PTX for the target the PTX names, so the forms
    # checked below are also forms ptxas accepts.
    if(NOT _ptx_text MATCHES "\n\\.target[ \t]+(sm_[0-9]+a?)")
      message(FATAL_ERROR "${_ptx}: no .target sm_NN line")
    endif()
    set(_target "${CMAKE_MATCH_1}")
    get_filename_component(_bin "${COMPILER}" DIRECTORY)
    set(_ptxas_command "${_bin}/ptxas" "-arch=${_target}" "${_ptx}" -o "${OBJECT}")
    execute_process(COMMAND ${_ptxas_command} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    list(JOIN _ptxas_command " " _ptxas_command_line)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "ptxas failed (exit ${_rc}):\n  ${_ptxas_command_line}\n${_out}")
    endif()
    # Each expected text must occur (+) or must not (-).
    set(_missing "")
    foreach(_kind IN ITEMS "+;expect-ptx;missing" "-;expect-no-ptx;unwanted")
      list(GET _kind 0 _sign)
      list(GET _kind 1 _tag)
      list(GET _kind 2 _what)
      if(_sign STREQUAL "+")
        set(_lines ${_expect_ptx})
      else()
        set(_lines ${_expect_no_ptx})
      endif()
      foreach(_line IN LISTS _lines)
        string(REGEX REPLACE "^\n?// ${_tag}:[ \t]*" "" _text "${_line}")
        string(STRIP "${_text}" _text)
        string(REPLACE "<tessera-lsqb>" "[" _text "${_text}")
        string(REPLACE "<tessera-rsqb>" "]" _text "${_text}")
        string(FIND "${_ptx_text}" "${_text}" _at)
        if((_sign STREQUAL "+" AND _at EQUAL -1) OR (_sign STREQUAL "-" AND NOT _at EQUAL -1))
          string(APPEND _missing "\n  ${_what}: ${_text}")
        endif()
      endforeach()
    endforeach()
    if(NOT _missing STREQUAL "")
      message(FATAL_ERROR "${SOURCE}: the PTX (${_ptx}) does not read as expected:${_missing}\n  ${_command_line}")
    endif()
    list(LENGTH _expect_ptx _n_expect)
    message(STATUS "PTX holds the ${_n_expect} expected forms and assembles for ${_target}: ${_ptx}")
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
