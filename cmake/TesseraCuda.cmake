# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# CUDA helpers, used by Tessera's own build and installed with the package so
# that find_package(tessera) consumers get them too.

include_guard(GLOBAL)

# tessera_set_cuda_archs(<target> <arch>...)
#
# Overrides the CUDA architectures of one target, e.g.
#   tessera_set_cuda_archs(my_hopper_kernel 90a)
#   tessera_set_cuda_archs(my_ampere_kernel 80 86)
# Entries follow CMAKE_CUDA_ARCHITECTURES: "90a" compiles
# -gencode=arch=compute_90a,code=[compute_90a,sm_90a] (the arch-specific
# Hopper features: WGMMA, setmaxnreg); "-real" / "-virtual" suffixes work too.
# Equivalent to setting the target's CUDA_ARCHITECTURES property.
function(tessera_set_cuda_archs target)
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "tessera_set_cuda_archs: '${target}' is not a target")
  endif()
  if(ARGC LESS 2)
    message(FATAL_ERROR "tessera_set_cuda_archs: no architectures given for '${target}' [e.g. 80 or 90a]")
  endif()
  set(_archs ${ARGN})
  set_property(TARGET "${target}" PROPERTY CUDA_ARCHITECTURES "${_archs}")
endfunction()

# tessera_cuda_gencode_flags(<out-var> <arch>...)
#
# The nvcc -gencode flags for a CMAKE_CUDA_ARCHITECTURES-style list, for
# places where nvcc is run by hand (compile-fail and header tests).
function(tessera_cuda_gencode_flags out)
  set(_flags "")
  foreach(_arch IN LISTS ARGN)
    if(_arch MATCHES "^([0-9]+[a-z]?)-real$")
      list(APPEND _flags "-gencode=arch=compute_${CMAKE_MATCH_1},code=sm_${CMAKE_MATCH_1}")
    elseif(_arch MATCHES "^([0-9]+[a-z]?)-virtual$")
      list(APPEND _flags "-gencode=arch=compute_${CMAKE_MATCH_1},code=compute_${CMAKE_MATCH_1}")
    elseif(_arch MATCHES "^[0-9]+[a-z]?$")
      list(APPEND _flags "-gencode=arch=compute_${_arch},code=sm_${_arch}")
    else()
      message(FATAL_ERROR "tessera_cuda_gencode_flags: cannot read architecture '${_arch}' [expected e.g. 80, 90a, 90a-real]")
    endif()
  endforeach()
  set(${out} "${_flags}" PARENT_SCOPE)
endfunction()
