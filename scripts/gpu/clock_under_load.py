# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Does the GPU hold its clock through a long bf16 GEMM? Runs torch.matmul
# (cuBLAS) at 8192^3 bf16 for SECONDS (default 8) while nvidia-smi samples the
# SM clock, power and throttle reasons every 100 ms; prints the GEMM's median
# TFLOP/s and the samples' quartiles. Session 44 (run 371): whether the 780
# TFLOP/s target at 8192^3 is a clock (power) limit or a kernel limit.
# Usage: python3 scripts/gpu/clock_under_load.py [SECONDS] [N]
import statistics
import subprocess
import sys
import time

import torch

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 8.0
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
for _ in range(20):
    a @ b
torch.cuda.synchronize()
smi = subprocess.Popen(
    ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,clocks_event_reasons.active", "--format=csv,noheader,nounits",
     "-lms", "100"], stdout=subprocess.PIPE, text=True)
times = []
end = time.time() + seconds
while time.time() < end:
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(10):
        a @ b
    e1.record()
    e1.synchronize()
    times.append(e0.elapsed_time(e1) / 10)
smi.terminate()
out = smi.communicate()[0]
rows = [r.split(", ") for r in out.strip().splitlines() if r.count(",") == 2]
clk = sorted(float(r[0]) for r in rows)
pw = sorted(float(r[1]) for r in rows)
reasons = {}
for r in rows:
    reasons[r[2]] = reasons.get(r[2], 0) + 1
q = lambda v, f: v[int(f * (len(v) - 1))] if v else float("nan")
ms = statistics.median(times)
print(f"{torch.cuda.get_device_name()}: {n}^3 bf16 torch.matmul median {ms:.3f} ms = {2 * n**3 / ms / 1e9:.1f} TFLOP/s "
      f"({len(times)} x 10 calls; min {min(times):.3f} ms = {2 * n**3 / min(times) / 1e9:.1f})")
print(f"  SM clock MHz quartiles {q(clk, 0.25):.0f} / {q(clk, 0.5):.0f} / {q(clk, 0.75):.0f}; "
      f"power W {q(pw, 0.25):.0f} / {q(pw, 0.5):.0f} / {q(pw, 0.75):.0f}; {len(rows)} samples")
print("  throttle reasons (bitmask: count):", reasons)
