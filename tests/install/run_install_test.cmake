# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# cmake -P script behind the install.find_package test.

cmake_minimum_required(VERSION 3.25)

function(_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    list(JOIN ARGN " " _cmd)
    message(FATAL_ERROR "${what} failed (exit ${_rc}):\n  ${_cmd}\n${_out}")
  endif()
  set(_last_output "${_out}" PARENT_SCOPE)
endfunction()

set(_prefix "${WORK_DIR}/prefix")
set(_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

_run("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${_prefix}")
if(NOT EXISTS "${_prefix}/include/tessera/layout.hpp")
  message(FATAL_ERROR "install did not put tessera/layout.hpp under ${_prefix}/include")
endif()

_run("consumer configure" "${CMAKE_COMMAND}"
  -S "${CONSUMER_DIR}" -B "${_build}" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  "-DCMAKE_PREFIX_PATH=${_prefix}"
  "-DTESSERA_EXPECTED_PREFIX=${_prefix}"
  "-DTESSERA_EXPECTED_VERSION=${EXPECTED_VERSION}"
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
  "-DTESSERA_CONSUMER_CUDA=${CONSUMER_CUDA}"
  "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
  -DCMAKE_BUILD_TYPE=Release)
_run("consumer build" "${CMAKE_COMMAND}" --build "${_build}")
_run("consumer run" "${_build}/tessera_consumer")
string(STRIP "${_last_output}" _printed)
message(STATUS "consumer printed: ${_printed}")
# (4,8):(8,1) at (1,2) is 1*8 + 2*1 = 10.
if(NOT _printed STREQUAL "size=32 layout(1,2)=10")
  message(FATAL_ERROR "consumer printed '${_printed}', expected 'size=32 layout(1,2)=10'")
endif()
