# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# cmake -P script behind headers.umbrella_complete: lists the headers that
# <tessera/tessera.hpp> pulls in (compiler -M) and fails naming every public
# header under INCLUDE_ROOT/tessera that it misses. Inputs (-D): COMPILER,
# FLAGS ("|"-separated), SOURCE (a TU including tessera.hpp), INCLUDE_ROOT,
# PATTERNS ("|"-separated globs to require, e.g. "*.hpp|*.cuh"), EXCLUDE (a
# regex of paths, relative to INCLUDE_ROOT, that the umbrella leaves out).

cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" _flags "${FLAGS}")
string(REPLACE "|" ";" _patterns "${PATTERNS}")

execute_process(COMMAND "${COMPILER}" ${_flags} -M "${SOURCE}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _deps ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "listing the dependencies of ${SOURCE} failed (exit ${_rc}):\n${_err}")
endif()
string(REGEX MATCHALL "[^ \t\r\n\\\\]+" _dep_list "${_deps}")
set(_seen "")
foreach(_dep IN LISTS _dep_list)
  if(_dep MATCHES ":$")
    continue()
  endif()
  file(REAL_PATH "${_dep}" _real)
  list(APPEND _seen "${_real}")
endforeach()

set(_globs "")
foreach(_pattern IN LISTS _patterns)
  list(APPEND _globs "${INCLUDE_ROOT}/tessera/${_pattern}")
endforeach()
file(GLOB_RECURSE _headers RELATIVE "${INCLUDE_ROOT}" ${_globs})
list(SORT _headers)

set(_missing "")
set(_checked 0)
foreach(_h IN LISTS _headers)
  if(_h STREQUAL "tessera/tessera.hpp" OR (NOT EXCLUDE STREQUAL "" AND _h MATCHES "${EXCLUDE}"))
    continue()
  endif()
  math(EXPR _checked "${_checked} + 1")
  file(REAL_PATH "${INCLUDE_ROOT}/${_h}" _real)
  if(NOT _real IN_LIST _seen)
    list(APPEND _missing "${_h}")
  endif()
endforeach()

if(_missing)
  list(JOIN _missing "\n  " _missing_lines)
  message(FATAL_ERROR "<tessera/tessera.hpp> does not include (directly or through another header):\n  ${_missing_lines}")
endif()
message(STATUS "tessera.hpp reaches all ${_checked} public headers (${PATTERNS})")
