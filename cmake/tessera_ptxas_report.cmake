# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# tessera_check_ptxas_report(<source> <output>)
#
# Reads the `ptxas -v` report <output> of compiling <source> and fails
# (FATAL_ERROR) unless every entry function it built keeps two rules:
#   * no "wgmma.mma_async instructions are serialized" (C7510-C7515, one
#     code per cause: accumulators or A registers defined by other
#     instructions, too few registers, a function call, ...): ptxas makes
#     every wgmma of the kernel wait for the previous one, which silently
#     costs a third of the speed or more (session 13: 0.53-0.72x cuBLAS);
#   * no spill stores or loads (local-memory traffic), except in entry
#     functions whose mangled name matches a "// allow-spill: <regex>" line
#     of <source> (each such line should say why in the comment above it);
#     an allow-spill line that matches no spilling function is an error too,
#     so that a fixed spill takes its exemption with it.
# Used by tessera_compile_check.cmake in MODE "ptxas".

function(tessera_check_ptxas_report source output)
  file(STRINGS "${source}" _allow_lines REGEX "^// allow-spill:")
  set(_allow "")
  foreach(_line IN LISTS _allow_lines)
    string(REGEX REPLACE "^// allow-spill:[ \t]*" "" _re "${_line}")
    string(STRIP "${_re}" _re)
    if(NOT _re STREQUAL "")
      list(APPEND _allow "${_re}")
    endif()
  endforeach()

  string(REPLACE ";" "," _out_lines "${output}")
  string(REPLACE "\n" ";" _out_lines "${_out_lines}")
  set(_function "")
  set(_entries 0)
  set(_errors "")
  set(_used "")
  foreach(_line IN LISTS _out_lines)
    if(_line MATCHES "wgmma.mma_async instructions are serialized")
      string(APPEND _errors "  wgmma serialised: ${_line}\n")
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
            list(APPEND _used "${_re}")
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

  foreach(_re IN LISTS _allow)
    if(NOT _re IN_LIST _used)
      string(APPEND _errors "  allow-spill line matches no spilling function (remove it): ${_re}\n")
    endif()
  endforeach()
  if(_entries EQUAL 0)
    message(FATAL_ERROR "${source}: ptxas compiled no entry function (nothing instantiated?):\n${output}")
  endif()
  if(NOT _errors STREQUAL "")
    message(FATAL_ERROR "${source}: ptxas report breaks a rule:\n${_errors}")
  endif()
  message(STATUS "${source}: ${_entries} entry functions, no wgmma serialisation, no unexpected spill")
endfunction()
