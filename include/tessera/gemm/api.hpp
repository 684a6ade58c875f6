// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The public GEMM entry point:  D = alpha * op(A) * op(B) + beta * C.
//
// Host-compilable: no CUDA header is needed to include this file (the stream
// is spelled `CUstream_st*`, which is what cudaStream_t is). The argument
// checks are inline here so that they can be tested without a GPU or the
// runtime library; tessera::gemm itself lives in the tessera_runtime library.
//
// Shapes are logical: A is M x K, B is K x N, C and D are M x N. Each operand
// says how it is stored (row- or column-major, leading dimension, batch
// stride) and the kernel reads it accordingly, so the four BLAS cases are
//   "tn": A row-major (K contiguous),    B column-major (K contiguous)
//   "nn": A column-major (M contiguous), B column-major
//   "nt": A column-major,                B row-major (N contiguous)
//   "tt": A row-major,                   B row-major
// (the letters are cuBLAS's op(A), op(B) for column-major storage).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

struct CUstream_st;

namespace tessera {

using gemm_stream_t = CUstream_st*;

// Element types. tf32 is f32 storage with tf32 (10-bit mantissa) products.
enum class DataType : std::uint8_t { f32, tf32, f16, bf16, deduce };

enum class MatrixOrder : std::uint8_t { row_major, col_major };

enum class StatusCode : std::uint8_t {
  ok,
  invalid_size,          // negative M, N, K, batch count or stride
  null_pointer,          // a pointer that will be read or written is null
  bad_leading_dimension, // ld smaller than the stored row/column
  misaligned_pointer,    // pointer not a multiple of the element size
  unsupported_types,     // (input, output, accumulate) combination not offered
  aliasing,              // D overlaps A or B, or overlaps C in another shape
  no_device,             // no CUDA device (or the runtime failed to find one)
  unsupported_architecture, // the chosen kernel needs a newer SM
  unknown_kernel,        // GemmOptions::kernel names no registered kernel
  cannot_implement,      // the chosen kernel rejects this problem
  cuda_error,            // a CUDA call failed
};

// The result of every API call. Cheap when ok (empty message).
struct Status {
  StatusCode code = StatusCode::ok;
  std::string message;

  [[nodiscard]] bool ok() const { return code == StatusCode::ok; }
  static Status success() { return {}; }
};

[[nodiscard]] constexpr std::string_view to_string(StatusCode c) {
  switch (c) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_size: return "invalid_size";
    case StatusCode::null_pointer: return "null_pointer";
    case StatusCode::bad_leading_dimension: return "bad_leading_dimension";
    case StatusCode::misaligned_pointer: return "misaligned_pointer";
    case StatusCode::unsupported_types: return "unsupported_types";
    case StatusCode::aliasing: return "aliasing";
    case StatusCode::no_device: return "no_device";
    case StatusCode::unsupported_architecture: return "unsupported_architecture";
    case StatusCode::unknown_kernel: return "unknown_kernel";
    case StatusCode::cannot_implement: return "cannot_implement";
    case StatusCode::cuda_error: return "cuda_error";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view to_string(DataType t) {
  switch (t) {
    case DataType::f32: return "f32";
    case DataType::tf32: return "tf32";
    case DataType::f16: return "f16";
    case DataType::bf16: return "bf16";
    case DataType::deduce: return "deduce";
  }
  return "?";
}

// Bytes per stored element (tf32 is stored as f32); 0 for `deduce`.
[[nodiscard]] constexpr std::int64_t size_of(DataType t) {
  switch (t) {
    case DataType::f32:
    case DataType::tf32: return 4;
    case DataType::f16:
    case DataType::bf16: return 2;
    case DataType::deduce: return 0;
  }
  return 0;
}

// One operand in global memory. `ld` is the distance between consecutive rows
// (row-major) or columns (column-major), in elements; `batch_stride` the
// distance between consecutive matrices of a batch, in elements (0 broadcasts
// one matrix to every batch for A, B and C).
struct MatrixDesc {
  const void* data = nullptr;
  MatrixOrder order = MatrixOrder::row_major;
  std::int64_t ld = 0;
  std::int64_t batch_stride = 0;
};

// The written operand D: as MatrixDesc, with a mutable pointer.
struct MutableMatrixDesc {
  void* data = nullptr;
  MatrixOrder order = MatrixOrder::row_major;
  std::int64_t ld = 0;
  std::int64_t batch_stride = 0;

  [[nodiscard]] constexpr MatrixDesc view() const { return {data, order, ld, batch_stride}; }
};

// A complete (strided-batched) GEMM problem.
struct GemmArgs {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch_count = 1;

  // `input` is the type of A and B. `output` (C and D) defaults to the input
  // type (f32 for f32 and tf32 inputs); f16 and bf16 inputs may write f32.
  // `accumulate` is f32, or f16 for f16 inputs with f16 output on request.
  DataType input = DataType::f32;
  DataType output = DataType::deduce;
  DataType accumulate = DataType::f32;

  float alpha = 1.0f;
  float beta = 0.0f;  // 0: C is never read and may be null

  MatrixDesc a, b, c;
  MutableMatrixDesc d;
};

// What gemm() may do with A and B whose pointers, leading dimensions or
// batch strides are not multiples of 16 bytes (the fast kernels' cp.async and
// TMA loads need that; docs/gemm.md, "Any leading dimension").
enum class RepackPolicy : std::uint8_t {
  automatic,  // copy the offending operands into an aligned, padded workspace
              // (stream-ordered, on the caller's stream) and run a fast kernel
              // on the copy; falls back to the element-wide path when no
              // workspace can be had
  never,      // run the chosen kernel on the operands as they are
};

// How to run it. Empty `kernel` lets the heuristic choose (docs/gemm.md).
//
// Workspace: a repack needs at most gemm_workspace_bytes(args) bytes. When
// `workspace` is non-null, 16-byte aligned and `workspace_bytes` is large
// enough, gemm() uses it (the caller keeps it alive until the stream has
// finished the call); otherwise it takes cudaMallocAsync/cudaFreeAsync on the
// caller's stream (no synchronisation). A workspace that overlaps A, B, C
// (when read) or D is refused with an aliasing error. If neither is possible
// the call runs without repacking; it never fails for want of a workspace.
struct GemmOptions {
  std::string_view kernel;
  RepackPolicy repack = RepackPolicy::automatic;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// The output type after applying the `deduce` default.
[[nodiscard]] constexpr DataType resolved_output(const GemmArgs& args) {
  if (args.output != DataType::deduce) return args.output;
  return args.input == DataType::tf32 ? DataType::f32 : args.input;
}

// Whether (input, output, accumulate) is a combination the API offers.
[[nodiscard]] constexpr bool supported_types(DataType input, DataType output,
                                             DataType accumulate) {
  switch (input) {
    case DataType::f32:
    case DataType::tf32:
      return output == DataType::f32 && accumulate == DataType::f32;
    case DataType::f16:
      if (accumulate == DataType::f16) return output == DataType::f16;
      return accumulate == DataType::f32 &&
             (output == DataType::f16 || output == DataType::f32);
    case DataType::bf16:
      return accumulate == DataType::f32 &&
             (output == DataType::bf16 || output == DataType::f32);
    case DataType::deduce: return false;
  }
  return false;
}

// Rows and columns of an operand as stored (before the order is applied).
struct MatrixExtent {
  std::int64_t rows = 0, cols = 0;
  // Stored lines (rows of a row-major matrix, columns of a column-major one)
  // and the elements along each, which ld must cover.
  [[nodiscard]] constexpr std::int64_t outer(MatrixOrder o) const { return o == MatrixOrder::row_major ? rows : cols; }
  [[nodiscard]] constexpr std::int64_t inner(MatrixOrder o) const { return o == MatrixOrder::row_major ? cols : rows; }
};

// Number of elements from the first to one past the last element the operand
// touches across the batch, 0 when it is empty, or -1 when that number does
// not fit in int64 (no allocation is that large; validate_arguments rejects
// it). Negative ld or batch stride: -1.
// @law span_elements(d, e, b) == (b - 1) * d.batch_stride + (outer - 1) * d.ld + inner
//      whenever that is representable (outer/inner: e's extents across/along d's order)
[[nodiscard]] constexpr std::int64_t span_elements(const MatrixDesc& desc, MatrixExtent e,
                                                   std::int64_t batch_count) {
  if (e.rows <= 0 || e.cols <= 0 || batch_count <= 0) return 0;
  if (desc.ld < 0 || desc.batch_stride < 0) return -1;
  std::int64_t const outer = e.outer(desc.order), inner = e.inner(desc.order);
  std::int64_t batches = 0, rows = 0, sum = 0;
  if (__builtin_mul_overflow(batch_count - 1, desc.batch_stride, &batches) ||
      __builtin_mul_overflow(outer - 1, desc.ld, &rows) || __builtin_add_overflow(batches, rows, &sum) ||
      __builtin_add_overflow(sum, inner, &sum))
    return -1;
  return sum;
}

namespace detail {

inline Status fail(StatusCode code, std::string message) {
  return Status{code, "tessera::gemm: " + std::move(message)};
}

// An operand the call reads or writes (CallOperand::used): its ld, the bytes
// it spans, its pointer and alignment. Unused operands (C when beta == 0)
// are not checked at all.
inline Status check_operand(char name, const MatrixDesc& desc, MatrixExtent e, std::int64_t batch_count,
                            std::int64_t elem_bytes) {
  std::string const n(1, name);
  if (desc.ld < 0 || desc.batch_stride < 0)
    return fail(StatusCode::invalid_size, n + ": negative leading dimension or batch stride");
  std::int64_t const inner = e.inner(desc.order);
  std::int64_t const need = inner < 1 ? 1 : inner;
  if (desc.ld < need)
    return fail(StatusCode::bad_leading_dimension,
                n + ": ld " + std::to_string(desc.ld) + " is smaller than the " +
                    (desc.order == MatrixOrder::row_major ? "row length " : "column length ") +
                    std::to_string(need) + " of the " + std::to_string(e.rows) + "x" +
                    std::to_string(e.cols) +
                    (desc.order == MatrixOrder::row_major ? " row-major" : " column-major") +
                    " matrix");
  // The bytes the operand spans must be addressable: a wrapped length would
  // hide an overlap from the aliasing rules and wrap the kernels' offsets.
  std::int64_t const span = span_elements(desc, e, batch_count);
  std::int64_t span_bytes = 0;
  if (span < 0 || __builtin_mul_overflow(span, elem_bytes, &span_bytes) ||
      static_cast<std::uint64_t>(span_bytes) >
          static_cast<std::uint64_t>(UINTPTR_MAX - reinterpret_cast<std::uintptr_t>(desc.data)))
    return fail(StatusCode::invalid_size,
                n + ": ld " + std::to_string(desc.ld) + " and batch stride " + std::to_string(desc.batch_stride) +
                    " over " + std::to_string(batch_count) + " batch(es) of a " + std::to_string(e.rows) + "x" +
                    std::to_string(e.cols) + " matrix span more bytes than an address can reach");
  if (desc.data == nullptr) return fail(StatusCode::null_pointer, n + " is null");
  if (reinterpret_cast<std::uintptr_t>(desc.data) % static_cast<std::uintptr_t>(elem_bytes) != 0)
    return fail(StatusCode::misaligned_pointer,
                n + " is not aligned to its element size (" + std::to_string(elem_bytes) +
                    " bytes)");
  return {};
}

// sum_{i=0}^{n-1} floor((a * i + b) / m) for n, a, b >= 0, m > 0, by the
// usual reduction (take out the whole parts of a/m and b/m, then count the
// lattice points under the line by swapping the axes); O(log m) steps.
constexpr __int128 floor_sum(__int128 n, __int128 m, __int128 a, __int128 b) {
  __int128 sum = 0;
  while (n > 0) {
    if (a >= m) {
      sum += n * (n - 1) / 2 * (a / m);
      a %= m;
    }
    if (b >= m) {
      sum += n * (b / m);
      b %= m;
    }
    __int128 const top = a * n + b;
    if (top < m) break;
    n = top / m;
    b = top % m;
    __int128 const t = m;
    m = a;
    a = t;
  }
  return sum;
}

// #{t in [1, count] : (t * step) mod modulus < below}, 0 < below <= modulus:
// [x mod M < c] == floor(x / M) - floor((x + M - c) / M) + 1.
constexpr __int128 count_residues_below(__int128 count, __int128 step, __int128 modulus, __int128 below) {
  if (count <= 0) return 0;
  return count + floor_sum(count, modulus, step, step) - floor_sum(count, modulus, step, step + modulus - below);
}

// Whether two of the batch_count matrices described by `desc` share an
// element. Assumes check_operand passed (ld >= inner >= 1, spans fit).
// Elements (q0, r0) of batch i and (q1, r1) of batch j > i meet when
// x = (j - i) * stride == (q0 - q1) * ld + (r0 - r1), |q0 - q1| < outer,
// |r0 - r1| < inner <= ld; that leaves the row difference x / ld with column
// difference x % ld (needs x % ld < inner), or x / ld + 1 with x % ld - ld
// (needs ld - x % ld < inner and x / ld + 1 < outer). Only x below one
// matrix's span can meet, which bounds the row difference by outer - 1.
// Counted in closed form (floor sums), so any batch count costs O(log ld).
// @law batches_overlap(d, e, b) <=> the b matrices' element sets are not pairwise disjoint
[[nodiscard]] constexpr bool batches_overlap(const MatrixDesc& desc, MatrixExtent e, std::int64_t batch_count) {
  if (e.rows <= 0 || e.cols <= 0 || batch_count < 2) return false;
  std::int64_t const s = desc.batch_stride;
  if (s == 0) return true;
  std::int64_t const outer = e.outer(desc.order), inner = e.inner(desc.order);
  std::int64_t const ld = desc.ld;
  std::int64_t const one = (outer - 1) * ld + inner;  // one matrix's span (fits: check_operand)
  std::int64_t const t_near = std::min(batch_count - 1, (one - 1) / s);  // t * s < one
  if (count_residues_below(t_near, s, ld, inner) > 0) return true;
  if (inner < 2 || outer < 2) return false;
  std::int64_t const t_wrap = std::min(t_near, ((outer - 1) * ld - 1) / s);  // t * s / ld + 1 < outer
  std::int64_t const below = ld - inner + 1;  // x % ld >= below <=> ld - x % ld < inner
  return t_wrap - count_residues_below(t_wrap, s, ld, below) > 0;
}

struct ByteRange {
  std::uintptr_t begin = 0, end = 0;  // [begin, end)
};

// Only for operands check_operand passed (their span fits).
inline ByteRange byte_range(const MatrixDesc& desc, MatrixExtent e, std::int64_t batch,
                            std::int64_t elem_bytes) {
  auto const begin = reinterpret_cast<std::uintptr_t>(desc.data);
  auto const len = static_cast<std::uintptr_t>(span_elements(desc, e, batch) * elem_bytes);
  return {begin, begin + len};
}

inline bool overlaps(ByteRange x, ByteRange y) {
  return x.begin < x.end && y.begin < y.end && x.begin < y.end && y.begin < x.end;
}

// One operand of a call as the rules see it: its stored extent, element size
// and whether the call touches it (A and B when k > 0, C when beta != 0, D
// always).
struct CallOperand {
  char name;
  MatrixDesc desc;
  MatrixExtent extent;
  std::int64_t elem_bytes;
  bool used;
  // The bytes it spans over the batch; only once check_operand passed.
  [[nodiscard]] ByteRange bytes(std::int64_t batch_count) const {
    return byte_range(desc, extent, batch_count, elem_bytes);
  }
};

// A, B, C and D of `args`, in that order.
inline std::array<CallOperand, 4> call_operands(const GemmArgs& args) {
  std::int64_t const in_bytes = size_of(args.input), out_bytes = size_of(resolved_output(args));
  MatrixExtent const ecd{args.m, args.n};
  return {{{'A', args.a, {args.m, args.k}, in_bytes, args.k > 0},
           {'B', args.b, {args.k, args.n}, in_bytes, args.k > 0},
           {'C', args.c, ecd, out_bytes, args.beta != 0.0f},
           {'D', args.d.view(), ecd, out_bytes, true}}};
}

}  // namespace detail

// Every rule that needs no device: sizes, types, pointers, leading
// dimensions, alignment to the element size, aliasing. Pure; never touches
// memory behind the pointers. Rules (docs/gemm.md has the list):
//  * m, n, k, batch_count, every ld and batch stride >= 0;
//  * (input, output, accumulate) is in supported_types();
//  * m == 0, n == 0 or batch_count == 0 is a no-op (nothing else checked but
//    the types); k == 0 computes D = beta * C and A, B are not read;
//  * ld >= the stored row (row-major) or column (column-major) length, >= 1;
//  * A, B (if k > 0), C (if beta != 0) and D are non-null and element-aligned;
//  * every operand's span (batches, ld, extents) is addressable;
//  * D's batches share no element (a batch stride of 0, or one that makes
//    rows of different batches interleave onto each other, is refused;
//    disjoint interleavings such as ld = 2n, stride n with 2 batches pass);
//  * D's bytes do not overlap A's or B's; D overlaps C only when C is exactly
//    D (same pointer, order, ld and batch stride: in-place update; ld is
//    ignored for a single stored row or column, the batch stride for one
//    batch).
inline Status validate_arguments(const GemmArgs& args) {
  using detail::fail;
  if (args.m < 0 || args.n < 0 || args.k < 0 || args.batch_count < 0)
    return fail(StatusCode::invalid_size,
                "negative size (m=" + std::to_string(args.m) + ", n=" + std::to_string(args.n) +
                    ", k=" + std::to_string(args.k) +
                    ", batch_count=" + std::to_string(args.batch_count) + ")");
  DataType const out = resolved_output(args);
  if (!supported_types(args.input, out, args.accumulate))
    return fail(StatusCode::unsupported_types,
                "unsupported types: input " + std::string(to_string(args.input)) + ", output " +
                    std::string(to_string(out)) + ", accumulate " +
                    std::string(to_string(args.accumulate)) +
                    " (offered: f32|tf32 -> f32; f16 -> f16|f32 with f32 accumulation; f16 -> "
                    "f16 with f16 accumulation; bf16 -> bf16|f32)");
  if (args.m == 0 || args.n == 0 || args.batch_count == 0) return {};

  std::int64_t const bc = args.batch_count;
  auto const ops = detail::call_operands(args);
  detail::CallOperand const& c = ops[2];
  detail::CallOperand const& d = ops[3];
  for (detail::CallOperand const& o : ops)
    if (o.used)
      if (Status s = detail::check_operand(o.name, o.desc, o.extent, bc, o.elem_bytes); !s.ok()) return s;
  if (args.batch_count > 1 && args.d.batch_stride == 0)
    return fail(StatusCode::invalid_size,
                "D: batch stride 0 with batch_count " + std::to_string(args.batch_count) +
                    " would write every batch to one matrix");
  if (detail::batches_overlap(d.desc, d.extent, bc))
    return fail(StatusCode::aliasing,
                "D: batch stride " + std::to_string(args.d.batch_stride) + " with ld " + std::to_string(args.d.ld) +
                    " makes " + std::to_string(bc) + " batches of the " + std::to_string(args.m) + "x" +
                    std::to_string(args.n) + " result share elements [each batch needs its own elements of D]");

  auto const rd = d.bytes(bc);
  for (int i : {0, 1})  // A, B
    if (ops[i].used && detail::overlaps(rd, ops[i].bytes(bc)))
      return fail(StatusCode::aliasing, std::string("D overlaps ") + ops[i].name + " in memory");
  if (c.used) {
    // The same matrix: same pointer and order; ld matters only across more
    // than one stored row (column), the batch stride only across batches.
    bool const same = args.c.data == args.d.data && args.c.order == args.d.order &&
                      (d.extent.outer(args.d.order) == 1 || args.c.ld == args.d.ld) &&
                      (args.batch_count == 1 || args.c.batch_stride == args.d.batch_stride);
    if (!same && detail::overlaps(rd, c.bytes(bc)))
      return fail(StatusCode::aliasing,
                  "D overlaps C without being the same matrix (in-place needs equal pointer, "
                  "order, ld and batch stride)");
  }
  return {};
}

// `sm` is major*10+minor of the current device, or 0 when there is none.
inline Status validate_device(int sm, std::string_view why = {}) {
  if (sm > 0) return {};
  return detail::fail(StatusCode::no_device,
                      "no CUDA device" + (why.empty() ? std::string() : ": " + std::string(why)));
}

// What a registered kernel supports; also what `tessera bench` prints.
struct GemmKernelInfo {
  std::string_view name;
  int min_sm = 0;          // e.g. 80; the kernel is compiled for sm >= min_sm
  int max_sm = 0;          // 0: no upper bound (sm90a-only kernels set 90)
  std::string_view notes;  // one line: tile, stages, requirements
};

// A registered kernel. The function pointers are set in
// src/gemm/kernel_list.cpp; every kernel lives in its own .cu file.
struct GemmKernel {
  GemmKernelInfo info;
  // Whether this kernel computes `args` correctly (types, orders, alignment,
  // leading dimensions). Called only on arguments that passed validation.
  bool (*can_implement)(const GemmArgs& args) = nullptr;
  // Enqueue the work on `stream`; must not synchronize.
  Status (*launch)(const GemmArgs& args, gemm_stream_t stream) = nullptr;
  // The __global__ function, threads per block and dynamic shared memory that
  // `launch` would use for `args` (for cudaFuncGetAttributes and occupancy),
  // its shared-memory attributes set on the current device as `launch` sets
  // them, so that an occupancy query before the first launch is right.
  struct LaunchShape {
    const void* function = nullptr;
    int threads = 0;
    int dynamic_smem_bytes = 0;
  };
  LaunchShape (*launch_shape)(const GemmArgs& args) = nullptr;
  // Why the build holds no device code this kernel can run on the current
  // device (null or "" when it does; the pointer itself may be null: then the
  // architecture range decides alone). sm90_ws_gemm needs the sm_90a image,
  // which a build without 90a in its CUDA architectures lacks even on sm_90.
  const char* (*missing_device_code)() = nullptr;
};

// The architecture rule for an explicitly chosen kernel.
inline Status validate_kernel_architecture(const GemmKernelInfo& info, int sm) {
  if (sm >= info.min_sm && (info.max_sm == 0 || sm <= info.max_sm)) return {};
  return detail::fail(
      StatusCode::unsupported_architecture,
      "kernel " + std::string(info.name) + " needs sm_" + std::to_string(info.min_sm) +
          (info.max_sm == 0 ? std::string("+") : "..sm_" + std::to_string(info.max_sm)) +
          ", the device is sm_" + std::to_string(sm));
}

// The architecture rule, then the build's device code: whether `kernel` can
// run on the current device, which is sm_`sm` (unsupported_architecture
// naming the reason when not). Calls missing_device_code, which may ask the
// CUDA runtime.
inline Status validate_kernel_device(const GemmKernel& kernel, int sm) {
  if (Status s = validate_kernel_architecture(kernel.info, sm); !s.ok()) return s;
  if (kernel.missing_device_code == nullptr) return {};
  const char* why = kernel.missing_device_code();
  if (why == nullptr || *why == '\0') return {};
  return detail::fail(StatusCode::unsupported_architecture,
                      "kernel " + std::string(kernel.info.name) + " cannot run on this sm_" + std::to_string(sm) +
                          " device: " + why);
}

// ---- runtime (tessera_runtime library) -------------------------------------

// Compute D = alpha * op(A) * op(B) + beta * C on `stream` (asynchronous).
// K == 0 gives D = beta * C for any alpha (Inf and NaN included).
// On a non-ok Status D is untouched and nothing was enqueued, with one
// exception: when a kernel refuses the repacked operands after their copies
// were enqueued (it checks more than can_implement, e.g. shared memory) and
// no kernel takes the operands as given, the copies into the workspace have
// run. A caller's workspace that overlaps A, B, C (when read) or D is
// refused (aliasing).
Status gemm(const GemmArgs& args, gemm_stream_t stream = nullptr,
            const GemmOptions& options = {});

// An upper bound on the workspace gemm() may use to repack A and B for
// `args` (validated arguments): both operands, packed in either order, rows
// padded to 16 bytes, each operand's block 256-byte aligned. 0 when k == 0 or
// the problem is empty.
std::size_t gemm_workspace_bytes(const GemmArgs& args);

// The registered kernels, in registration order.
struct GemmKernelList {
  const GemmKernel* first = nullptr;
  std::size_t count = 0;
  [[nodiscard]] const GemmKernel* begin() const { return first; }
  [[nodiscard]] const GemmKernel* end() const { return first + count; }
  [[nodiscard]] std::size_t size() const { return count; }
};
GemmKernelList gemm_kernels();

// The kernel registered under `name`, or nullptr.
const GemmKernel* find_gemm_kernel(std::string_view name);

// The kernel gemm() would run for `args` on an `sm` device with `options`
// (validated arguments assumed), or an error Status with *out == nullptr.
Status select_gemm_kernel(const GemmArgs& args, int sm, const GemmOptions& options,
                          const GemmKernel** out);

// What gemm() would do for `args` on an `sm` device with `options`
// (validated arguments assumed): the kernel, and whether A and/or B are first
// copied into a padded, K-major or same-order workspace of `workspace_bytes`
// (docs/gemm_kernels.md, "Any leading dimension"). When the copy is planned
// but no workspace can be had at run time, gemm() runs select_gemm_kernel's
// choice on the operands as they are.
struct GemmCallPlan {
  const GemmKernel* kernel = nullptr;
  bool copies_a = false, copies_b = false;
  std::size_t workspace_bytes = 0;
};
Status select_gemm_call(const GemmArgs& args, int sm, const GemmOptions& options, GemmCallPlan* out);

// major*10+minor of the current CUDA device, or 0 with `why` filled in.
int current_sm(std::string* why = nullptr);

}  // namespace tessera
