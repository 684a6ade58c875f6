# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Where a kernel touches local memory, from `cuobjdump -sass` text: for every
# function, its STL and LDL instructions, its HGMMA count, and how many of the
# STL/LDL lie inside a K loop -- an innermost loop that issues HGMMA (a
# backward branch from s to t <= s whose range holds an HGMMA and no smaller
# such range) -- and how many between the first and last HGMMA (the looser
# test of runs 353 and 358). Issue 5's SASS target is no local-memory
# traffic; the spills that tests/ptxas/library/sm90_ws_gemm.txt allows are
# claimed to lie outside the K loops. Prints one line per function with any
# STL/LDL (or every function with -a), then a summary line; exits 1 when some
# function has local traffic inside a K loop, 0 otherwise. Session 46.
# Usage: cuobjdump -sass OBJ | python3 scripts/gpu/sass_local.py [-a] [NAME_REGEX]
import re
import sys

show_all = "-a" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != "-a"]
name_re = re.compile(args[0]) if args else None

FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
# One SASS instruction: /*0a30*/ [@P0] OPCODE[.mods] operands ;
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(\.\S*)?(.*)")
BRA_TARGET = re.compile(r"0x([0-9a-f]+)")


def k_loops(insns):
    """The innermost backward-branch ranges [t, s] (addresses) holding an HGMMA."""
    hg = [a for a, op, _ in insns if op == "HGMMA"]
    ranges = []
    for a, op, rest in insns:
        if op != "BRA":
            continue
        m = BRA_TARGET.search(rest)
        if not m:
            continue
        t = int(m.group(1), 16)
        if t <= a and any(t <= h <= a for h in hg):
            ranges.append((t, a))
    return [r for r in ranges if not any(o != r and r[0] <= o[0] and o[1] <= r[1] for o in ranges)]


def report(name, insns):
    if name_re and not name_re.search(name):
        return None
    ops = [op for _, op, _ in insns]
    hg = [i for i, op in enumerate(ops) if op == "HGMMA"]
    local = [i for i, op in enumerate(ops) if op in ("STL", "LDL")]
    span = [i for i in local if hg and hg[0] < i < hg[-1]]
    loops = k_loops(insns)
    in_loop = [i for i in local if any(t <= insns[i][0] <= s for t, s in loops)]
    if local or show_all:
        where = ""
        if in_loop:
            where = "  IN A K LOOP: " + ", ".join(
                "%s@%x" % (ops[i], insns[i][0]) for i in in_loop[:8]) + (" ..." if len(in_loop) > 8 else "")
        print("%-100s %4d STL %4d LDL %5d HGMMA %2d K loops %4d local in HGMMA span %4d in K loops%s" %
              (name[:100], ops.count("STL"), ops.count("LDL"), len(hg), len(loops), len(span), len(in_loop), where))
    return (bool(local), bool(in_loop))


def functions(lines):
    """(name, [(address, opcode, operands)]) per function of the SASS text."""
    out = []
    for line in lines:
        m = FUNC.match(line)
        if m:
            out.append((m.group(1), []))
            continue
        m = INSN.match(line)
        if m and out:
            out[-1][1].append((int(m.group(1), 16), m.group(2), m.group(4)))
    return out


def main():
    results = [r for r in (report(name, insns) for name, insns in functions(sys.stdin)) if r is not None]
    with_local = sum(1 for lo, _ in results if lo)
    with_inside = sum(1 for _, ins in results if ins)
    print("functions %d, with local traffic %d, with local traffic inside a K loop %d" %
          (len(results), with_local, with_inside))
    return 1 if with_inside else 0


if __name__ == "__main__":
    sys.exit(main())
