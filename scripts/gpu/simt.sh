#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# GPU check of simt_sgemm (include/tessera/gemm/simt_sgemm.cuh), on a machine
# with an sm_80+ GPU (built for sm_90a: the H100/H200 of the device machine).
#   1. builds with nvcc directly, in parallel: the library TU, the device test
#      and one timing TU per tile configuration; -Xptxas -v reports saved,
#      every kernel with a spill listed
#   2. the SASS instruction mix of every k loop of the nt/tt/tn kernels of
#      each configuration (cuobjdump + an inline Python parser): FFMA share,
#      LDS widths, LDGSTS, BAR, integer/move overhead, local memory
#   3. runs tests/device/test_simt_sgemm.cu (fp64 reference)
#   4. compute-sanitizer memcheck on a small filter
#   5. times the configurations (c10 = SgemmDefault; c12 = the same
#      configuration in simt_tiled_sgemm, include/tessera/gemm/simt_tiled.cuh,
#      the kernel written with Tensors/TiledCopy/TiledMMA) and cuBLAS SGEMM
#      (true fp32) in the same run on 4096^3, 8192^3 and 4095x4097x4093,
#      three storage orders; fresh random data, L2 flushed before each run,
#      3 warm-ups, median of 25 CUDA-event timings; prints TFLOP/s, the ratio
#      and the difference to cuBLAS's result, then the same sorted, and each
#      configuration's geometric-mean and worst ratio over the cube sizes.
# Logs under $OUT (default /tmp/tessera-simt). Usage: scripts/gpu/simt.sh
# Without a GPU: scripts/gpu/simt.sh --emulate (host emulation, see below).
set -u
OUT=${OUT:-/tmp/tessera-simt}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${SIMT_BUILD:-/tmp/tessera-simt-build}
mkdir -p "$BUILD"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" > /dev/null || NVCC=/usr/local/cuda/bin/nvcc
ARCH=${SIMT_ARCH:--gencode=arch=compute_90a,code=sm_90a}
FLAGS="-O3 -std=c++20 -I$ROOT/include -I$ROOT/src $ARCH --expt-relaxed-constexpr"
start=$(date +%s)
# The timed configurations: c10 = SgemmDefault, c8-c11 the v4 FFMA walks,
# c12 = simt_tiled_sgemm with SgemmDefault (compare with c10), c13 = the same
# with the copies re-partitioned from %tid at every k tile (kLiveSrc = false,
# see simt_tiled.cuh). c2, c4-c7 are
# no longer timed by default (runtime); SIMT_CFG_IDS="0 1 ... 12" brings them back.
CFG_IDS=${SIMT_CFG_IDS:-"0 1 3 8 9 10 11 12 13"}
# The emulation checks every configuration, the tiled kernel (12, 13) and
# the tiled kernel with three other shapes (14-16).
EMU_IDS="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"

# --emulate: no GPU needed. Checks the kernel's index math, predicates and
# pipeline order on the host (g++ -fsanitize=address): the header is compiled
# with the CUDA features replaced by a std::thread emulation (cp.async copies
# immediately, so refilling a stage that is still being read shows up as a
# wrong result). Slow (one std::thread per CUDA thread): small shapes only.
if [ "${1:-}" = "--emulate" ]; then
  EMU=$BUILD/emu
  mkdir -p "$EMU"
  cat > "$EMU/cuda_runtime.h" <<'EMUEOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Host emulation of the CUDA features simt_sgemm uses: one std::thread per
// CUDA thread, blocks one after another, __syncthreads = std::barrier,
// cp.async = an immediate copy with zero fill (checks alignment and that
// nothing is read when the source size is 0).
#pragma once
#include <barrier>
#include <cstdint>
#include <cstring>
#include <cmath>
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
struct uint3 { unsigned x, y, z; };
inline thread_local uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim, gridDim;
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) float2 { float x, y; };
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
inline std::barrier<>* g_bar;
inline void __syncthreads() { g_bar->arrive_and_wait(); }
inline float* g_dyn_smem;
typedef int cudaError_t;
constexpr cudaError_t cudaSuccess = 0;
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
inline cudaError_t cudaFuncSetAttribute(const void*, cudaFuncAttribute, int) { return 0; }
inline cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, void*) { return 1; }
inline const char* cudaGetErrorString(cudaError_t) { return "emu"; }
namespace tessera::arch {
struct CacheAlways {};
struct CacheGlobal {};
template <int kBytes, class P = CacheAlways>
inline void cp_async_zfill(void* d, const void* s, uint32_t n) {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16);
  if (n > kBytes) std::abort();
  if ((reinterpret_cast<uintptr_t>(d) % kBytes) || (n && reinterpret_cast<uintptr_t>(s) % kBytes)) std::abort();
  if (n) std::memcpy(d, s, n);
  std::memset(static_cast<char*>(d) + n, 0, kBytes - n);
}
template <int kBytes, class P = CacheAlways>
inline void cp_async(void* d, const void* s, bool pred) { cp_async_zfill<kBytes, P>(d, s, pred ? kBytes : 0); }
inline void cp_async_fence() {}
template <int N> inline void cp_async_wait() {}
}  // namespace tessera::arch
EMUEOF
  cat > "$EMU/emu.cpp" <<'EMUEOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Runs simt_sgemm on the host emulation for every configuration and compares
// with an fp64 reference (relative Frobenius error, NaN-poisoned D, padding
// untouched); AddressSanitizer catches any access outside the operands.
#include "cuda_runtime.h"
#include <tessera/gemm/simt_tiled.cuh>  // the emulated copies under $EMU/tessera/gemm (both kernels)

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

using tessera::GemmArgs; using tessera::MatrixOrder; using tessera::Status; using tessera::validate_arguments;
#include "simt_retired_configs.hpp"
namespace simt = tessera::kernels::simt;
constexpr MatrixOrder R = MatrixOrder::row_major, C = MatrixOrder::col_major;

struct Case {
  int64_t m, n, k;
  MatrixOrder oa = R, ob = R, oc = R, od = R;
  float alpha = 1.0f, beta = 0.0f;
  int64_t pad_a = 0, pad_b = 0, pad_c = 0, pad_d = 0;
  int off_a = 0, off_b = 0, off_c = 0, off_d = 0;
  bool c_null = false, in_place = false;
  int64_t batch = 1;
  bool loop_batch = false;
};
struct Stored {
  int64_t rows, cols, ld, stride, batch; MatrixOrder order;
  int64_t index(int64_t b, int64_t r, int64_t c) const { return b * stride + (order == R ? r * ld + c : c * ld + r); }
  int64_t elements() const { return batch * stride + (order == R ? rows : cols) * ld; }
};
Stored stored(int64_t rows, int64_t cols, MatrixOrder o, int64_t pad, int64_t batch) {
  int64_t inner = o == R ? cols : rows, outer = o == R ? rows : cols;
  int64_t ld = std::max<int64_t>(inner, 1) + pad;
  return {rows, cols, ld, ld * std::max<int64_t>(outer, 1) + 4, batch, o};
}

int failures = 0, runs = 0;

// kTiled: 0 simt_sgemm; 1 simt_tiled_sgemm (planned without vec16_k);
// 2 the same with kLiveSrc = false.
template <class Cfg, int kTiled = 0>
void run(const Case& cs, const char* cfg_name) {
  std::mt19937 rng(1234 + runs);
  std::uniform_real_distribution<float> dist(-1, 1);
  Stored sa = stored(cs.m, cs.k, cs.oa, cs.pad_a, cs.batch), sb = stored(cs.k, cs.n, cs.ob, cs.pad_b, cs.batch);
  Stored sd = stored(cs.m, cs.n, cs.od, cs.pad_d, cs.batch);
  Stored sc = cs.in_place ? sd : stored(cs.m, cs.n, cs.oc, cs.pad_c, cs.batch);
  // exact-size heap buffers (ASan catches any overrun), offset by off_*
  auto make = [&](int64_t n, int off) { return std::vector<float>(n + off); };
  std::vector<float> A = make(sa.elements(), cs.off_a), B = make(sb.elements(), cs.off_b), Cm = make(sc.elements(), cs.off_c);
  for (auto& x : A) x = dist(rng);
  for (auto& x : B) x = dist(rng);
  for (auto& x : Cm) x = dist(rng);
  std::vector<float> D = cs.in_place ? std::vector<float>(Cm.begin() + cs.off_c, Cm.end()) : std::vector<float>(sd.elements(), NAN);
  std::vector<float> Dbuf(D.size() + cs.off_d);
  std::copy(D.begin(), D.end(), Dbuf.begin() + cs.off_d);
  // 16-byte alignment of the vectors' data is what malloc gives; off_* shifts it
  GemmArgs args;
  args.m = cs.m; args.n = cs.n; args.k = cs.k; args.batch_count = cs.batch; args.alpha = cs.alpha; args.beta = cs.beta;
  args.a = {A.data() + cs.off_a, cs.oa, sa.ld, cs.batch > 1 ? sa.stride : 0};
  args.b = {B.data() + cs.off_b, cs.ob, sb.ld, cs.batch > 1 ? sb.stride : 0};
  args.d = {Dbuf.data() + cs.off_d, cs.od, sd.ld, cs.batch > 1 ? sd.stride : 0};
  if (cs.in_place) args.c = args.d.view();
  else if (!cs.c_null) args.c = {Cm.data() + cs.off_c, cs.oc, sc.ld, cs.batch > 1 ? sc.stride : 0};
  else args.c = {nullptr, cs.oc, sc.ld, 0};
  Status v = validate_arguments(args);
  if (!v.ok()) { std::printf("invalid: %s\n", v.message.c_str()); ++failures; return; }
  auto r = simt::detail::plan_sgemm(args, !kTiled && Cfg::kVec16K);
  int64_t tm = (r.p.m + Cfg::kBlockM - 1) / Cfg::kBlockM, tn = (r.p.n + Cfg::kBlockN - 1) / Cfg::kBlockN;
  r.p.tiles_m = int(tm); r.p.tiles_n = int(tn);
  const void* fp = kTiled == 1   ? simt::detail::tiled_sgemm_function<Cfg, true>(r.mode_a, r.mode_b)
                   : kTiled == 2 ? simt::detail::tiled_sgemm_function<Cfg, false>(r.mode_a, r.mode_b)
                                 : simt::detail::sgemm_function<Cfg>(r.mode_a, r.mode_b);
  auto fn = reinterpret_cast<void (*)(simt::SgemmParams)>(const_cast<void*>(fp));
  float* smem = static_cast<float*>(std::aligned_alloc(16, ((Cfg::kSmemBytes + 15) / 16) * 16));
  g_dyn_smem = smem;
  gridDim = dim3(unsigned(tm * tn), cs.loop_batch ? 1u : unsigned(cs.batch));
  blockDim = dim3(Cfg::kThreads);
  if (cs.m > 0 && cs.n > 0)
  for (unsigned by = 0; by < gridDim.y; ++by)
    for (unsigned bx = 0; bx < gridDim.x; ++bx) {
      blockIdx = {bx, by, 0};
      std::fill(smem, smem + Cfg::kSmemFloats, NAN);
      std::barrier<> bar(Cfg::kThreads);
      g_bar = &bar;
      std::vector<std::thread> ts;
      for (int t = 0; t < Cfg::kThreads; ++t)
        ts.emplace_back([&, t] { threadIdx = {unsigned(t), 0, 0}; fn(r.p); });
      for (auto& t : ts) t.join();
    }
  std::free(smem);
  double e2 = 0, r2 = 0; int64_t bad = 0, touched = 0;
  std::vector<char> out(D.size(), 0);
  for (int64_t b = 0; b < cs.batch; ++b)
    for (int64_t i = 0; i < cs.m; ++i)
      for (int64_t j = 0; j < cs.n; ++j) {
        double acc = 0;
        for (int64_t kk = 0; kk < cs.k; ++kk) acc += double(A[cs.off_a + sa.index(b, i, kk)]) * B[cs.off_b + sb.index(b, kk, j)];
        double ref = cs.alpha * acc;
        if (cs.beta != 0) ref += double(cs.beta) * Cm[cs.off_c + sc.index(b, i, j)];
        int64_t di = sd.index(b, i, j);
        out[di] = 1;
        double got = Dbuf[cs.off_d + di];
        if (!std::isfinite(got)) ++bad;
        e2 += (got - ref) * (got - ref); r2 += ref * ref;
      }
  for (size_t e = 0; e < D.size(); ++e) {
    if (out[e]) continue;
    float x = Dbuf[cs.off_d + e], y = D[e];
    if (!(std::isnan(x) && std::isnan(y)) && x != y) ++touched;
  }
  double rel = r2 > 0 ? std::sqrt(e2 / r2) : std::sqrt(e2);
  bool ok = bad == 0 && touched == 0 && rel < 1e-5;
  ++runs;
  if (!ok) {
    ++failures;
    std::printf("FAIL %s %lldx%lldx%lld o=%d%d%d%d modes=%d,%d rel=%.2e nonfinite=%lld touched=%lld\n", cfg_name, (long long)cs.m,
                (long long)cs.n, (long long)cs.k, int(cs.oa), int(cs.ob), int(cs.oc), int(cs.od), int(r.mode_a), int(r.mode_b), rel,
                (long long)bad, (long long)touched);
  }
}

template <class Cfg, int kTiled = 0>
void suite(const char* name, bool quick) {
  auto run = [](const Case& cs, const char* n) { ::run<Cfg, kTiled>(cs, n); };
  for (MatrixOrder oa : {R, C}) for (MatrixOrder ob : {R, C}) for (MatrixOrder od : {R, C}) for (MatrixOrder oc : {R, C}) {
    if (quick && oc != od) continue;
    Case cs{131, 77, 45, oa, ob, oc, od}; cs.alpha = 0.75f; cs.beta = -0.5f; run(cs, name);
  }
  const int64_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {129, 131, 17}, {64, 300, 2}, {300, 64, 1}, {128, 128, 8}};
  for (auto& s : shapes) for (MatrixOrder oa : {R, C}) for (MatrixOrder ob : {R, C}) {
    Case cs{s[0], s[1], s[2], oa, ob, R, oa == ob ? R : C}; cs.beta = 0.25f; run(cs, name);
  }
  { Case cs{70, 90, 0}; cs.beta = 1.5f; run(cs, name); cs.beta = 0; cs.c_null = true; run(cs, name); }
  for (MatrixOrder oa : {R, C}) for (MatrixOrder ob : {R, C}) {
    Case cs{150, 140, 67, oa, ob, C, R}; cs.pad_a = 3; cs.pad_b = 4; cs.pad_c = 7; cs.pad_d = 9; cs.beta = 2; run(cs, name);
  }
  for (MatrixOrder oa : {R, C}) for (MatrixOrder ob : {R, C}) for (MatrixOrder od : {R, C}) {
    Case cs{133, 129, 41, oa, ob, od, od}; cs.off_a = 1; cs.off_b = 3; cs.off_c = 2; cs.off_d = 1; cs.beta = 0.5f; run(cs, name);
  }
  { Case cs{200, 136, 33, R, C, R, R}; cs.c_null = true; cs.alpha = -1.25f; run(cs, name); }
  { Case cs{96, 160, 40, C, R, R, R}; cs.in_place = true; cs.beta = 1; run(cs, name); }
  { Case bt{65, 130, 36, R, C, C, C}; bt.batch = 3; bt.beta = -1; bt.off_b = 2; run(bt, name); bt.loop_batch = true; run(bt, name); }
  { Case al{64, 128, 36, C, R, C, C}; al.batch = 2; al.beta = 0.5f; run(al, name); al.loop_batch = true; run(al, name); }
  // K-contiguous 16-byte aligned operands (vec16_k, K-major tiles)
  for (MatrixOrder oa : {R, C}) for (MatrixOrder ob : {R, C}) for (MatrixOrder od : {R, C}) {
    if (quick && od == C && oa != ob) continue;
    Case cs{133, 75, 45, oa, ob, od, od}; cs.pad_a = 3; cs.pad_b = ob == C ? 3 : 1; cs.pad_c = 1; cs.beta = -0.75f; run(cs, name);
  }
  { Case big{140, 72, 200, R, C, C, C}; big.beta = 0.5f; run(big, name); }
  { Case bt{70, 66, 52, R, C, R, R}; bt.batch = 2; bt.beta = 1; run(bt, name); bt.loop_batch = true; run(bt, name); }
  { Case mx{64, 96, 40, R, R, R, R}; mx.off_b = 1; run(mx, name); }  // vec16_k A next to elem_mn B
  { Case my{64, 96, 40, C, C, R, R}; my.off_a = 1; run(my, name); }  // elem_mn A next to vec16_k B
  std::printf("%s: done, %d runs so far, %d failures\n", name, runs, failures);
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  int which = argc > 1 ? std::atoi(argv[1]) : -1;
  if (which < 0 || which == 0) suite<simt::Sgemm128x128x16>("128x128x16 (v3 default)", false);
  if (which < 0 || which == 1) suite<simt::Sgemm128x128x16S4>("128x128x16 s4", true);
  if (which < 0 || which == 2) suite<retired::Sgemm128x128x16S2>("128x128x16 s2", true);
  if (which < 0 || which == 3) suite<simt::Sgemm128x128x16K>("128x128x16 K (vec16_k)", false);
  if (which < 0 || which == 4) suite<retired::Sgemm128x128x8>("128x128x8", true);
  if (which < 0 || which == 5) suite<retired::Sgemm128x128x16W>("128x128x16 W", true);
  if (which < 0 || which == 6) suite<retired::Sgemm128x256x16>("128x256x16", true);
  if (which < 0 || which == 7) suite<retired::Sgemm128x128x16NoPf>("128x128x16 NoPf", true);
  if (which < 0 || which == 8) suite<simt::Sgemm128x128x16WalkCols>("128x128x16 walk cols", false);
  if (which < 0 || which == 9) suite<simt::Sgemm128x128x16WalkBands>("128x128x16 walk bands", false);
  if (which < 0 || which == 10) suite<simt::Sgemm128x128x16S4WalkBands>("128x128x16 s4 walk bands", true);
  if (which < 0 || which == 11) suite<simt::Sgemm256x128x16WalkRows>("256x128x16 walk rows", true);
  if (which < 0 || which == 12) suite<simt::SgemmDefault, 1>("tiled 128x128x16 s4 walk bands (simt_tiled)", false);
  if (which < 0 || which == 13) suite<simt::SgemmDefault, 2>("tiled, copies re-partitioned per k tile", false);
  // The tiled kernel's thread layouts for other shapes (emulated, not timed).
  if (which < 0 || which == 14) suite<retired::Sgemm128x128x16W, 1>("tiled 128x128x16 4x8 lanes", true);
  if (which < 0 || which == 15) suite<simt::Sgemm256x128x16WalkRows, 1>("tiled 256x128x16 walk rows", true);
  if (which < 0 || which == 16) suite<retired::Sgemm128x128x8, 1>("tiled 128x128x8", true);
  std::printf("TOTAL runs %d failures %d\n", runs, failures);
  return failures != 0;
}
EMUEOF
  # The two kernel headers with the CUDA-only lines replaced, found before
  # the real ones (-I$EMU first).
  mkdir -p "$EMU/tessera/gemm"
  python3 - "$ROOT/include/tessera/gemm" "$EMU/tessera/gemm" <<'EMUEOF'
import sys
for name, edits in [("simt_sgemm.cuh", [('#include <tessera/arch/sm80/cp_async.cuh>\n', ''),
                                        ('asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));', 'v = threadIdx.x;'),
                                        ('asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(v));', 'v = blockIdx.x;'),
                                        ('extern __shared__ __align__(16) float smem[];', 'float* smem = g_dyn_smem;')]),
                    ("simt_tiled.cuh", [('extern __shared__ __align__(16) float smem[];', 'float* smem = g_dyn_smem;')])]:
    s = open(sys.argv[1] + "/" + name).read()
    for old, new in edits:
        assert old in s, old
        s = s.replace(old, new)
    open(sys.argv[2] + "/" + name, "w").write(s)
EMUEOF
  g++ -std=c++20 -O1 -g -fsanitize=address -I"$EMU" -I"$ROOT/include" -I"$ROOT/scripts/gpu" -o "$EMU/emu" "$EMU/emu.cpp" -pthread || exit 1
  rc=0
  for i in ${SIMT_EMU_CONFIGS:-$EMU_IDS}; do
    timeout 900 "$EMU/emu" $i > "$EMU/emu_$i.log" 2>&1 || rc=1
    grep -E "FAIL|ERROR|done" "$EMU/emu_$i.log" | head -20
  done
  echo "emulation rc=$rc"
  exit $rc
fi

echo "== device"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>&1 | tee "$OUT/device.txt"
$NVCC --version | tail -1

# One timing TU per configuration (CFG_ID), exporting run/shape functions.
cat > "$BUILD/bench_cfg.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include <tessera/gemm/simt_sgemm.cuh>
#include <tessera/gemm/simt_tiled.cuh>
#include <type_traits>
#include "simt_retired_configs.hpp"
namespace s = tessera::kernels::simt;
#if CFG_ID == 0
using Cfg = s::Sgemm128x128x16;
#elif CFG_ID == 1
using Cfg = s::Sgemm128x128x16S4;
#elif CFG_ID == 2
using Cfg = retired::Sgemm128x128x16S2;
#elif CFG_ID == 3
using Cfg = s::Sgemm128x128x16K;
#elif CFG_ID == 4
using Cfg = retired::Sgemm128x128x8;
#elif CFG_ID == 5
using Cfg = retired::Sgemm128x128x16W;
#elif CFG_ID == 6
using Cfg = retired::Sgemm128x256x16;
#elif CFG_ID == 7
using Cfg = retired::Sgemm128x128x16NoPf;
#elif CFG_ID == 8
using Cfg = s::Sgemm128x128x16WalkCols;
#elif CFG_ID == 9
using Cfg = s::Sgemm128x128x16WalkBands;
#elif CFG_ID == 10
using Cfg = s::Sgemm128x128x16S4WalkBands;
#elif CFG_ID == 11
using Cfg = s::Sgemm256x128x16WalkRows;
#elif CFG_ID == 12 || CFG_ID == 13
using Cfg = s::SgemmDefault;  // simt_tiled_sgemm (13: kLiveSrc = false)
#endif
static_assert(CFG_ID != 10 || std::is_same_v<Cfg, s::SgemmDefault>, "bench_cfg: configuration 10 must be the default");
#define TESSERA_CAT2(a, b) a##b
#define TESSERA_CAT(a, b) TESSERA_CAT2(a, b)
#if CFG_ID == 12 || CFG_ID == 13
constexpr bool kLive = CFG_ID == 12;
tessera::Status TESSERA_CAT(simt_run_, CFG_ID)(const tessera::GemmArgs& a) { return s::tiled_sgemm_launch<Cfg, kLive>(a, nullptr); }
const void* TESSERA_CAT(simt_fn_, CFG_ID)(const tessera::GemmArgs& a) { return s::tiled_sgemm_launch_shape<Cfg, kLive>(a).function; }
#else
tessera::Status TESSERA_CAT(simt_run_, CFG_ID)(const tessera::GemmArgs& a) { return s::sgemm_launch<Cfg>(a, nullptr); }
const void* TESSERA_CAT(simt_fn_, CFG_ID)(const tessera::GemmArgs& a) { return s::sgemm_launch_shape<Cfg>(a).function; }
#endif
EOF

cat > "$BUILD/bench_main.cu" <<'EOF'
// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// Times simt_sgemm configurations against cublasSgemm on the same data.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <tessera/gemm/api.hpp>

using tessera::GemmArgs;
using tessera::MatrixOrder;
constexpr MatrixOrder R = MatrixOrder::row_major, C = MatrixOrder::col_major;

// The configurations built (CFG_IDS): HAVE_CFG_<i> defined for each.
#define DECL(i) tessera::Status simt_run_##i(const GemmArgs&); const void* simt_fn_##i(const GemmArgs&);
DECL(0) DECL(1) DECL(2) DECL(3) DECL(4) DECL(5) DECL(6) DECL(7) DECL(8) DECL(9) DECL(10) DECL(11) DECL(12) DECL(13)
struct Config { const char* name; tessera::Status (*run)(const GemmArgs&); const void* (*fn)(const GemmArgs&); };
const Config kConfigs[] = {
#ifdef HAVE_CFG_0
    {"c0 128x128x16 s3 (v3 dflt)", simt_run_0, simt_fn_0},
#endif
#ifdef HAVE_CFG_1
    {"c1 128x128x16 s4", simt_run_1, simt_fn_1},
#endif
#ifdef HAVE_CFG_2
    {"c2 128x128x16 s2", simt_run_2, simt_fn_2},
#endif
#ifdef HAVE_CFG_3
    {"c3 128x128x16 s3 vec16_k", simt_run_3, simt_fn_3},
#endif
#ifdef HAVE_CFG_4
    {"c4 128x128x8 s4 (run-2 dflt)", simt_run_4, simt_fn_4},
#endif
#ifdef HAVE_CFG_5
    {"c5 128x128x16 4x8 lanes", simt_run_5, simt_fn_5},
#endif
#ifdef HAVE_CFG_6
    {"c6 128x256x16 s3 1CTA", simt_run_6, simt_fn_6},
#endif
#ifdef HAVE_CFG_7
    {"c7 128x128x16 no prefetch", simt_run_7, simt_fn_7},
#endif
#ifdef HAVE_CFG_8
    {"c8 128x128x16 s3 walk cols", simt_run_8, simt_fn_8},
#endif
#ifdef HAVE_CFG_9
    {"c9 128x128x16 s3 walk bands", simt_run_9, simt_fn_9},
#endif
#ifdef HAVE_CFG_10
    {"c10 128x128x16 s4 walk bands (dflt)", simt_run_10, simt_fn_10},
#endif
#ifdef HAVE_CFG_11
    {"c11 256x128x16 1CTA walk rows", simt_run_11, simt_fn_11},
#endif
#ifdef HAVE_CFG_12
    {"c12 simt_tiled = c10 (Tensors)", simt_run_12, simt_fn_12},
#endif
#ifdef HAVE_CFG_13
    {"c13 simt_tiled, src per k tile", simt_run_13, simt_fn_13},
#endif
};

#include "driver_util.cuh"  // CHECK

__global__ void fill(float* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed ^ unsigned(i >> 32) * 40503u;
    x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; x *= 3266489917u; x ^= x >> 16;
    p[i] = float(x & 0xFFFFFF) / 8388608.0f - 1.0f;
  }
}
__global__ void diff(const float* a, const float* b, long long n, double* out) {
  double e = 0, r = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double x = a[i], y = b[i];
    e += (x - y) * (x - y); r += y * y;
  }
  atomicAdd(out, e); atomicAdd(out + 1, r);
}

template <class F>
float median_ms(F&& f, void* flush, size_t flush_bytes, int reps) {
  for (int i = 0; i < 3; ++i) f();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));  // evict A/B/D from L2
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  cudaEventDestroy(a); cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  int const reps = argc > 1 ? std::atoi(argv[1]) : 25;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0; cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("device: %s (sm_%d%d, %d SMs, max SM clock %d MHz)\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, clock_khz / 1000);
  cublasHandle_t h; cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);  // true fp32, never tf32
  size_t const flush_bytes = size_t(512) << 20; void* flush; CHECK(cudaMalloc(&flush, flush_bytes));
  unsigned const seed = unsigned(std::chrono::steady_clock::now().time_since_epoch().count());
  std::printf("seed %u\n", seed);
  struct Size { int m, n, k; };
  const Size sizes[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4095, 4097, 4093}};
  // tt: A, B, D row-major (the SGEMM ladder's convention); nt: A column-major,
  // B row-major, D column-major (no transposing copy); tn: A row-major, B and
  // D column-major (cuBLAS's TN: both operands K-contiguous).
  struct Orders { const char* name; MatrixOrder a, b, d; };
  const Orders orders[] = {{"tt", R, R, R}, {"nt", C, R, C}, {"tn", R, C, C}};
  struct Row { std::string size, ord, name; double tf, ratio; };
  std::vector<Row> rows;
  std::printf("%-16s %-3s %-30s %4s %8s %8s %7s %9s\n", "size", "ord", "kernel", "regs", "ms", "TFLOP/s", "ratio", "diff");
  for (const Size& sz : sizes) {
    long long const na = (long long)sz.m * sz.k, nb = (long long)sz.k * sz.n, nd = (long long)sz.m * sz.n;
    float *A, *B, *D, *Dc; double* acc;
    CHECK(cudaMalloc(&A, na * 4)); CHECK(cudaMalloc(&B, nb * 4));
    CHECK(cudaMalloc(&D, nd * 4)); CHECK(cudaMalloc(&Dc, nd * 4)); CHECK(cudaMalloc(&acc, 16));
    fill<<<2048, 256>>>(A, na, seed); fill<<<2048, 256>>>(B, nb, seed * 7 + 1);
    CHECK(cudaGetLastError());
    double const flop = 2.0 * sz.m * double(sz.n) * sz.k;
    char size_name[64]; std::snprintf(size_name, sizeof size_name, "%dx%dx%d", sz.m, sz.n, sz.k);
    for (const Orders& o : orders) {
      GemmArgs args;
      args.m = sz.m; args.n = sz.n; args.k = sz.k;
      args.a = {A, o.a, o.a == R ? sz.k : sz.m, 0};
      args.b = {B, o.b, o.b == R ? sz.n : sz.k, 0};
      args.d = {D, o.d, o.d == R ? sz.n : sz.m, 0};
      float const one = 1.0f, zero = 0.0f;
      auto run_cublas = [&] {
        cublasStatus_t s;
        if (o.d == R)  // D^T = B^T A^T in column-major terms
          s = cublasSgemm(h, o.b == R ? CUBLAS_OP_N : CUBLAS_OP_T, o.a == R ? CUBLAS_OP_N : CUBLAS_OP_T, sz.n, sz.m,
                          sz.k, &one, B, int(args.b.ld), A, int(args.a.ld), &zero, Dc, sz.n);
        else
          s = cublasSgemm(h, o.a == C ? CUBLAS_OP_N : CUBLAS_OP_T, o.b == C ? CUBLAS_OP_N : CUBLAS_OP_T, sz.m, sz.n,
                          sz.k, &one, A, int(args.a.ld), B, int(args.b.ld), &zero, Dc, sz.m);
        if (s != CUBLAS_STATUS_SUCCESS) std::printf("cublas error %d\n", int(s));
      };
      float const t_cub = median_ms(run_cublas, flush, flush_bytes, reps);
      double const tf_cub = flop / (t_cub * 1e-3) / 1e12;
      std::printf("%-16s %-3s %-30s %4s %8.3f %8.1f %7.3f %9s\n", size_name, o.name, "cuBLAS sgemm", "-", t_cub, tf_cub, 1.0, "-");
      for (const Config& c : kConfigs) {
        CHECK(cudaMemset(D, 0xFF, nd * 4));  // NaN poison
        tessera::Status st = c.run(args);
        if (!st.ok()) { std::printf("%-16s %-3s %-30s failed: %s\n", size_name, o.name, c.name, st.message.c_str()); continue; }
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemset(acc, 0, 16));
        diff<<<1024, 256>>>(D, Dc, nd, acc);
        double hacc[2]; CHECK(cudaMemcpy(hacc, acc, 16, cudaMemcpyDeviceToHost));
        cudaFuncAttributes fa{}; cudaFuncGetAttributes(&fa, c.fn(args));
        float const t = median_ms([&] { c.run(args); }, flush, flush_bytes, reps);
        double const tf = flop / (t * 1e-3) / 1e12;
        char regs[16]; std::snprintf(regs, sizeof regs, "%d%s", fa.numRegs, fa.localSizeBytes ? "L" : "");
        rows.push_back({size_name, o.name, c.name, tf, tf / tf_cub});
        std::printf("%-16s %-3s %-30s %4s %8.3f %8.1f %7.3f %9.1e\n", size_name, o.name, c.name, regs, t, tf, tf / tf_cub,
                    std::sqrt(hacc[0] / hacc[1]));
      }
    }
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(Dc); cudaFree(acc);
  }
  // Sorted views: every (size, order) best first, then each configuration's
  // worst and geometric-mean ratio over the cube sizes (4096^3, 8192^3).
  std::printf("\n== sorted by TFLOP/s within each size and order\n");
  std::vector<Row> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Row& a, const Row& b) {
    if (a.size != b.size) return a.size < b.size;
    if (a.ord != b.ord) return a.ord < b.ord;
    return a.tf > b.tf;
  });
  for (const Row& r : sorted)
    std::printf("%-16s %-3s %-30s %8.1f %7.3f\n", r.size.c_str(), r.ord.c_str(), r.name.c_str(), r.tf, r.ratio);
  std::printf("\n== per configuration over 4096^3 and 8192^3, all orders (sorted by geomean ratio)\n");
  struct Agg { std::string name; double log_sum = 0, worst = 1e9; int n = 0; };
  std::vector<Agg> agg;
  for (const Config& c : kConfigs) agg.push_back({c.name});
  for (const Row& r : rows) {
    if (r.size != "4096x4096x4096" && r.size != "8192x8192x8192") continue;
    for (Agg& a : agg)
      if (a.name == r.name) { a.log_sum += std::log(r.ratio); a.worst = std::min(a.worst, r.ratio); ++a.n; }
  }
  std::sort(agg.begin(), agg.end(), [](const Agg& a, const Agg& b) { return a.log_sum / std::max(a.n, 1) > b.log_sum / std::max(b.n, 1); });
  std::printf("%-30s %8s %8s\n", "kernel", "geomean", "worst");
  for (const Agg& a : agg)
    if (a.n) std::printf("%-30s %8.3f %8.3f\n", a.name.c_str(), std::exp(a.log_sum / a.n), a.worst);
  std::printf("(median of %d after 3 warm-ups, L2 flushed before each run; ratio = ours / cuBLAS same run;\n"
              " diff = relative Frobenius difference to cuBLAS's D; regs with L = local memory/spills)\n", reps);
  cublasDestroy(h);
  return 0;
}
EOF

echo "== build (ptxas reports in $OUT/ptxas_*.txt)"
pids=()
( $NVCC $FLAGS -Xptxas -v -c src/gemm/kernels/simt_sgemm.cu -o "$BUILD/lib.o" > "$OUT/ptxas_lib.txt" 2>&1 \
    || echo "BUILD FAILED: lib" >> "$OUT/ptxas_lib.txt" ) &
pids+=($!)
( $NVCC $FLAGS -Xptxas -v -c tests/device/test_simt_sgemm.cu -o "$BUILD/test.o" > "$OUT/ptxas_test.txt" 2>&1 \
    || echo "BUILD FAILED: test" >> "$OUT/ptxas_test.txt" ) &
pids+=($!)
for id in $CFG_IDS; do
  ( $NVCC $FLAGS -I"$ROOT/scripts/gpu" -Xptxas -v -DCFG_ID=$id -c "$BUILD/bench_cfg.cu" -o "$BUILD/cfg$id.o" > "$OUT/ptxas_cfg$id.txt" 2>&1 \
      || echo "BUILD FAILED: cfg$id" >> "$OUT/ptxas_cfg$id.txt" ) &
  pids+=($!)
done
( $NVCC $FLAGS -I"$ROOT/scripts/gpu" $(for id in $CFG_IDS; do echo "-DHAVE_CFG_$id"; done) -c "$BUILD/bench_main.cu" -o "$BUILD/bench_main.o" > "$OUT/build_bench.txt" 2>&1 \
    || echo "BUILD FAILED: bench" >> "$OUT/build_bench.txt" ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
echo "build took $(( $(date +%s) - start ))s"
grep -h -E "error|BUILD FAILED" "$OUT"/ptxas_*.txt "$OUT/build_bench.txt" | head -20
echo "-- resource usage (sm_90a; every kernel with a spill is listed)"
for f in "$OUT"/ptxas_*.txt; do
  awk -v f="$(basename "$f" .txt)" '
    /Compiling entry function/ { name = $0; sub(/.*SgemmConfigI/, "", name); sub(/EEEvNS.*/, "", name) }
    /spill stores/ { if ($5 != 0 || $9 != 0) { print f ": SPILL " $5 "B store " $9 "B load  <- " name; s++ } }
    /Used [0-9]+ registers/ { r[$5]++; n++ }
    END { printf "%s: %d kernels, %d with spills, registers:", f, n, s; for (k in r) printf " %s x%d", k, r[k]; printf "\n" }' "$f"
done | tee "$OUT/resources.txt"

$NVCC $ARCH "$BUILD/test.o" -o "$BUILD/test_simt_sgemm" -lgtest_main -lgtest -lpthread > "$OUT/link_test.txt" 2>&1 \
  || { echo "LINK test FAILED"; head -20 "$OUT/link_test.txt"; }
$NVCC $ARCH "$BUILD/bench_main.o" $(for id in $CFG_IDS; do echo "$BUILD/cfg$id.o"; done) -o "$BUILD/bench_simt" -lcublas > "$OUT/link_bench.txt" 2>&1 \
  || { echo "LINK bench FAILED"; head -20 "$OUT/link_bench.txt"; }

echo "== SASS instruction mix (sm_90a) of each loop with FFMAs: static counts per loop body"
echo "   modes a/b: 0 vec16, 1 elem_mn, 2 elem_k, 3 vec16_k; nt = 0/0, tt = 2/0 (c3: 3/0), tn = 2/2 (c3: 3/3)"
cat > "$BUILD/sass_mix.py" <<'PYEOF'
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
# Reads `cuobjdump --dump-sass` output; for every kernel whose operand modes
# are in MODES, finds the loops (backward branches) that contain FFMAs and
# prints their static instruction mix: the k-tile loop and, when the k
# groups are not unrolled, the inner group loop.
import re, sys
MODES = {(0, 0): "nt", (2, 0): "tt", (2, 2): "tn", (3, 0): "tt", (3, 3): "tn"}
tag = sys.argv[1]


def ffma_banks(body):
    # FFMA operand statistics of one loop body (the v4 model): `reuse` = share
    # of FFMAs with a .reuse flag on a source; a source is served by the reuse
    # cache when the previous instruction is an FFMA that flagged the same
    # register in the same slot; `bank4` = share of FFMAs with two distinct
    # register-file source registers of one bank (register % 4).
    n = flagged = conflicts = served = 0
    prev = None
    for x in body:
        m = re.match(r"FFMA\S*\s+(\S+),\s*(\S+),\s*(\S+),\s*(\S+)$", x)
        if not m:
            prev = None
            continue
        n += 1
        srcs = [m.group(k) for k in (2, 3, 4)]
        regs = [re.sub(r"[-|]", "", r.replace(".reuse", "")) for r in srcs]
        flagged += any(".reuse" in r for r in srcs)
        rf = set()
        for slot, r in enumerate(regs):
            if not re.fullmatch(r"R\d+", r):
                continue
            if prev is not None and prev[slot] == r:
                served += 1
            else:
                rf.add(int(r[1:]))
        banks = [r % 4 for r in rf]
        conflicts += len(banks) != len(set(banks))
        prev = [r if ".reuse" in s else None for r, s in zip(regs, srcs)]
    if n == 0:
        return ""
    return f", reuse {100.0 * flagged / n:4.1f}% (cached srcs {100.0 * served / (3 * n):4.1f}%), bank4 {100.0 * conflicts / n:4.1f}%"
funcs, cur = [], None
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = {"name": m.group(1), "ins": [], "labels": {}, "pending": []}
        funcs.append(cur)
        continue
    if cur is None:
        continue
    m = re.match(r"\s*(\.L_x_\d+):", line)
    if m:
        cur["pending"].append(m.group(1))
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
    if m:
        addr = int(m.group(1), 16)
        for lab in cur["pending"]:
            cur["labels"][lab] = addr
        cur["pending"] = []
        text = re.sub(r"^@!?U?P\w+\s+", "", m.group(2).strip())
        cur["ins"].append((addr, text))
for f in funcs:
    mm = re.search(r"OperandModeE(\d)ELS\d+_(\d)E", f["name"])
    if not mm or (int(mm.group(1)), int(mm.group(2))) not in MODES:
        continue
    ins = f["ins"]
    whole = sum(1 for _, t in ins if t.split()[0] in ("STL", "LDL") or t.split()[0].startswith(("STL.", "LDL.")))
    spans = []
    for i, (addr, t) in enumerate(ins):
        if not t.startswith("BRA"):
            continue
        m = re.search(r"\((\.L_x_\d+)\)", t) or re.search(r"(0x[0-9a-f]+)", t)
        if not m:
            continue
        tgt = f["labels"].get(m.group(1)) if m.group(1).startswith(".L") else int(m.group(1), 16)
        if tgt is None or tgt > addr:
            continue
        body = [x for a, x in ins if tgt <= a <= addr]
        if any(x.startswith("FFMA") for x in body):
            spans.append((tgt, addr, body))
    for tgt, addr, body in spans:
        cnt = {}
        for x in body:
            op = x.split()[0]
            base = op.split(".")[0]
            key = op if base == "LDS" else base
            cnt[key] = cnt.get(key, 0) + 1
        n = len(body)
        ffma = cnt.get("FFMA", 0)
        lds = " ".join(f"{k}:{v}" for k, v in sorted(cnt.items()) if k.startswith("LDS"))
        ints = sum(v for k, v in cnt.items() if k in ("IMAD", "IADD3", "LEA", "ISETP", "SHF", "LOP3", "SEL", "IABS", "LEA.HI"))
        movs = sum(v for k, v in cnt.items() if k in ("MOV", "IMAD.MOV", "S2R", "CS2R", "S2UR", "R2UR", "ULDC", "LDC"))
        other = n - ffma - sum(v for k, v in cnt.items() if k.startswith("LDS")) - ints - movs
        print(f"{tag:4s} {MODES[(int(mm.group(1)), int(mm.group(2)))]} loop 0x{tgt:04x}-0x{addr:04x}: {n:5d} instr, "
              f"FFMA {ffma:5d} ({100.0 * ffma / n:4.1f}%), {lds}, LDGSTS {cnt.get('LDGSTS', 0)}, BAR {cnt.get('BAR', 0)}, "
              f"int {ints}, mov {movs}, other {other}, local {whole}{ffma_banks(body)}")
PYEOF
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$CUOBJDUMP" ]; then
  for id in $CFG_IDS; do
    "$CUOBJDUMP" --dump-sass "$BUILD/cfg$id.o" > "$OUT/sass_cfg$id.txt" 2>&1
    python3 "$BUILD/sass_mix.py" "c$id" < "$OUT/sass_cfg$id.txt"
  done | tee "$OUT/sass_mix.txt"
else
  echo "cuobjdump not found: no instruction mix"
fi

echo "== c12/c13 (simt_tiled_sgemm, Tensors/TiledCopy/TiledMMA) beside c10 (simt_sgemm), same configuration"
echo "   registers and spills per operand-mode instantiation (modes a/b as above), sm_90a:"
for id in 10 12 13; do
  [ -f "$OUT/ptxas_cfg$id.txt" ] || continue
  awk -v f="c$id" '
    /Compiling entry function/ { match($0, /OperandModeE[0-9]ELS[0-9]+_[0-9]E/); m = substr($0, RSTART + 12, 1) "/" substr($0, RSTART + RLENGTH - 2, 1) }
    /spill stores/ { sp = $5 "B/" $9 "B" }
    /Used [0-9]+ registers/ { line = line " " m ":" $5 "r"; if (sp != "0B/0B") line = line "(spill " sp ")" }
    END { print "   " f line }' "$OUT/ptxas_cfg$id.txt"
done
if [ -f "$OUT/sass_mix.txt" ]; then
  echo "   SASS k loops (LDS.128 and FFMA counts, reuse/bank4):"
  grep -E "^c1[023] " "$OUT/sass_mix.txt" | sort -s -k2,2 | sed 's/^/   /'
fi

echo "== test_simt_sgemm"
timeout 240 "$BUILD/test_simt_sgemm" > "$OUT/test.log" 2>&1
echo "rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|tests ran" "$OUT/test.log" | head -40
grep -E -A3 "Failure" "$OUT/test.log" | head -40

echo "== compute-sanitizer memcheck (small filter)"
FILTER='SimtSgemm/12.MisalignedPointers:SimtSgemm/12.OddShapes:SimtSgemm/12.BetaZeroNeverReadsC:SimtSgemm/12.InPlaceAndBatched:SimtSgemm/0.KContiguousAligned:SimtSgemm/3.KContiguousAligned:SimtSgemm/0.OddShapes:SimtSgemm/0.MisalignedPointers:SimtSgemm/0.BetaZeroNeverReadsC:SimtSgemm/0.InPlaceAndBatched:SimtSgemm/3.LeadingDimensionsAboveExtent:SimtSgemm/1.KZeroIsBetaC'
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 "$SAN" --tool memcheck --error-exitcode 9 "$BUILD/test_simt_sgemm" --gtest_filter="$FILTER" > "$OUT/memcheck.log" 2>&1
echo "rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -10

echo "== timing vs cuBLAS"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/clocks before: /'
timeout 240 "$BUILD/bench_simt" 25 2>&1 | tee "$OUT/bench.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/clocks after: /'
echo "total $(( $(date +%s) - start ))s"
