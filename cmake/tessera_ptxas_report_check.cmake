# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# ctest driver (cmake -P) of the ptxas.* tests on library translation units:
# checks the `ptxas -v` report that cmake/tessera_ptxas_log.sh saved when
# tessera_runtime compiled the unit, against tessera_ptxas_report.cmake's
# rules and the allow-spill lines of RULES. Inputs (-D):
#   REPORT  the saved report (<build>/ptxas-reports/<source>.txt)
#   RULES   tests/ptxas/library/<source stem>.txt

cmake_minimum_required(VERSION 3.25)

foreach(_var REPORT RULES)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "tessera_ptxas_report_check: ${_var} not given")
  endif()
endforeach()
if(NOT EXISTS "${REPORT}")
  message(FATAL_ERROR "no ptxas report at ${REPORT}: it is written when tessera_runtime compiles the "
                      "translation unit (build the library first; a failed compile removes it)")
endif()
file(READ "${REPORT}" _report)
include("${CMAKE_CURRENT_LIST_DIR}/tessera_ptxas_report.cmake")
tessera_check_ptxas_report("${RULES}" "${_report}")
