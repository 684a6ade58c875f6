// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Everything in Tessera. Under a host compiler: the layout algebra, tensors,
// atom traits and the host-side GEMM interface. Under nvcc, also the PTX
// wrappers (arch/) and the kernels (gemm/*.cuh).
// Not included: <tessera/viz/svg.hpp> (SVG pictures of layouts, host tooling)
// and <tessera/cute_compat.hpp> (CuTe's CUTE_ macro spellings, opt-in).
// tests/headers checks that this list covers every other public header.

#include <tessera/config.hpp>
#include <tessera/layout.hpp>
#include <tessera/tensor.hpp>
#include <tessera/atom.hpp>

#include <tessera/arch/sm90/gmma_desc.hpp>

#include <tessera/pipeline/ordered_sequence.hpp>
#include <tessera/pipeline/pipeline_state.hpp>
#include <tessera/pipeline/pipeline_token.hpp>
#include <tessera/pipeline/release_peers.hpp>
#include <tessera/tma/multicast_mask.hpp>
#include <tessera/tma/tma_coord.hpp>
// TMA descriptors (host) name CUDA driver types: with the toolkit's headers.
#if defined(__CUDACC__) || __has_include(<cuda.h>)
#include <tessera/tma/make_tma_desc.hpp>
#include <tessera/tma/tensor_map.hpp>
#include <tessera/tma/tma_copy.hpp>
#endif
// Cluster launches (host) call the CUDA runtime: with the toolkit's headers.
#if defined(__CUDACC__) || __has_include(<cuda_runtime.h>)
#include <tessera/arch/sm90/cluster_launch.hpp>
#endif
#include <tessera/gemm/api.hpp>
#include <tessera/gemm/launch_attributes.hpp>
#include <tessera/gemm/sm80_config.hpp>
#include <tessera/gemm/sm80_tensorop.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/arch.cuh>
#include <tessera/arch/global_timer.cuh>
#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/arch/sm80/ldmatrix.cuh>
#include <tessera/arch/sm80/cache_policy.cuh>
#include <tessera/arch/sm80/mma.cuh>
#include <tessera/arch/sm80/prefetch.cuh>
#include <tessera/arch/sm90/cluster.cuh>
#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/setmaxnreg.cuh>
#include <tessera/arch/sm90/st_async.cuh>
#include <tessera/arch/sm90/sm90a_image.cuh>
#include <tessera/arch/sm90/stmatrix.cuh>
#include <tessera/arch/sm90/tma.cuh>
#include <tessera/arch/sm90/wgmma.cuh>
#include <tessera/arch/sm90/wgmma_ops.cuh>
#include <tessera/atom/sync_sm90.cuh>
#include <tessera/arch/sm90/bulk_copy.cuh>
#include <tessera/atom/bulk_copy_sm90.cuh>
#include <tessera/atom/bulk_copy_auto_sm90.cuh>
#include <tessera/arch/sm90/cluster_barrier.cuh>
#include <tessera/pipeline/pipeline_barrier_ring.cuh>
#include <tessera/pipeline/pipeline_async.cuh>
#include <tessera/pipeline/pipeline_tma_async.cuh>
#include <tessera/pipeline/pipeline_tma_store.cuh>
#include <tessera/pipeline/pipeline_transaction_async.cuh>
#include <tessera/pipeline/ordered_sequence_barrier.cuh>

#include <tessera/gemm/simt_sgemm.cuh>
#include <tessera/gemm/simt_tiled.cuh>
#include <tessera/gemm/sm80_mainloop.cuh>
#include <tessera/gemm/sm80_epilogue.cuh>
#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_tma_gemm.cuh>
#include <tessera/gemm/sm80_ws_gemm.cuh>
#include <tessera/gemm/sm90_ws_gemm.cuh>
#endif
