# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Where a kernel touches local memory, from `cuobjdump -sass` text: for every
# function, its STL and LDL instructions, its HGMMA count, and how many of the
# STL/LDL lie inside a K loop -- an innermost loop that issues HGMMA (the
# natural loop of a backward branch, over the function's basic blocks; see
# k_loops) -- and how many between the first and last HGMMA (the looser
# test of runs 353 and 358). Issue 5's SASS target is no local-memory
# traffic; the spills that tests/ptxas/library/sm90_ws_gemm.txt allows are
# claimed to lie outside the K loops. Prints one line per function with any
# STL/LDL (or every function with -a), then a summary line; exits 1 when some
# function has local traffic inside a K loop, 0 otherwise. Session 46;
# natural loops and --self-test (hand-made cases, run by ctest) session 47.
# Usage: cuobjdump -sass OBJ | python3 scripts/gpu/sass_local.py [-a] [NAME_REGEX]
#        python3 scripts/gpu/sass_local.py --self-test
import re
import sys

show_all = "-a" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a not in ("-a", "--self-test")]
name_re = re.compile(args[0]) if args else None

FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
# One SASS instruction: /*0a30*/ [@P0] OPCODE[.mods] operands ;
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(\.\S*)?(.*)")
# A branch's own predicate operand: BRA !P1, 0x... (conditional like @P0 BRA).
OPERAND_PRED = re.compile(r"^\s*!?U?P[0-9T]\w*\s*,")
BRA_TARGET = re.compile(r"0x([0-9a-f]+)")


def guarded(insn):
    """Whether an instruction may not execute (or, a branch, may not be taken):
    a guard other than @PT, or a predicate operand other than PT."""
    _, _, rest, guard = insn
    g = guard.strip()
    if g and g not in ("@PT", "@UPT"):
        return True
    m = OPERAND_PRED.match(rest)
    return bool(m) and m.group(0).strip(" ,") not in ("PT", "UPT")


def branch_target(insn, addr_index):
    """The index of a BRA's target instruction, or None (not a BRA, or a
    target outside the function's text)."""
    _, op, rest, _ = insn
    m = BRA_TARGET.search(rest) if op == "BRA" else None
    return addr_index.get(int(m.group(1), 16)) if m else None


def blocks(insns, addr_index):
    """Basic blocks of one function, by instruction index: (starts, ends,
    block_of, succ) -- block b is insns[starts[b]:ends[b]], block_of[i] the
    block of instruction i, succ[b] the blocks b may go to.

    A leader is the first instruction, a branch target, or an instruction after
    a BRA / BRX / EXIT / RET. An unpredicated BRA, BRX, EXIT or RET does not
    fall through. BRX (a jump table in a constant bank, e.g. a switch on the
    wgmma wait count) names no target in the text: every block that nothing
    else reaches is taken as a target of the nearest BRX before it."""
    leaders = {0}
    for i, insn in enumerate(insns):
        if insn[1] in ("BRA", "BRX", "EXIT", "RET"):
            if i + 1 < len(insns):
                leaders.add(i + 1)
            t = branch_target(insn, addr_index)
            if t is not None:
                leaders.add(t)
    starts = sorted(leaders)
    ends = starts[1:] + [len(insns)]
    block_of = {}
    for b, (st, end) in enumerate(zip(starts, ends)):
        for i in range(st, end):
            block_of[i] = b
    succ = [[] for _ in starts]
    brx_blocks = []
    for b, end in enumerate(ends):
        last = insns[end - 1]
        op = last[1]
        t = branch_target(last, addr_index)
        if t is not None:
            succ[b].append(block_of[t])
        if op == "BRX":
            brx_blocks.append(b)
        if (op not in ("BRA", "BRX", "EXIT", "RET") or guarded(last)) and b + 1 < len(starts):
            succ[b].append(b + 1)
    reached = {t for ss in succ for t in ss} | {0}
    for b in range(len(starts)):
        if b not in reached:
            before = [x for x in brx_blocks if x < b]
            if before:
                succ[before[-1]].append(b)
    return starts, ends, block_of, succ


def k_loops(insns):
    """The innermost loops that issue HGMMA, each as a set of instruction indices.

    Every backward branch from s to t <= s is a loop: the blocks from which s's
    block is reached without passing t's block, and that t's block reaches (the
    natural loop of the edge). One whose blocks hold an HGMMA and hold no
    smaller such loop is a K loop. (Address ranges [t, s] were used until
    session 47: a wait's out-of-line retry block at the end of a function
    branches back into the K loop, and its range [t, s] swallowed the
    epilogue, 'finding' the epilogue's spills inside a K loop.)"""
    if not insns:
        return []
    addr_index = {a: i for i, (a, _, _, _) in enumerate(insns)}
    starts, ends, block_of, succ = blocks(insns, addr_index)
    pred = [[] for _ in starts]
    for b, ss in enumerate(succ):
        for t in ss:
            pred[t].append(b)

    def forward(h):
        seen, todo = {h}, [h]
        while todo:
            for t in succ[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return seen

    loops = set()
    for i, insn in enumerate(insns):
        target = branch_target(insn, addr_index)
        if target is None or target > i:
            continue
        t, s = block_of[target], block_of[i]
        body, todo = {t, s}, ([s] if s != t else [])
        while todo:
            for p in pred[todo.pop()]:
                if p not in body:
                    body.add(p)
                    todo.append(p)
        body &= forward(t)
        idx = frozenset(j for b in body for j in range(starts[b], ends[b]))
        if any(insns[j][1] == "HGMMA" for j in idx):
            loops.add(idx)
    return [lp for lp in loops if not any(o < lp for o in loops)]


def analyse(insns):
    """(HGMMA indices, STL/LDL indices, those between the first and last HGMMA,
    K loops, STL/LDL indices inside a K loop) of one function."""
    ops = [op for _, op, _, _ in insns]
    hg = [i for i, op in enumerate(ops) if op == "HGMMA"]
    local = [i for i, op in enumerate(ops) if op in ("STL", "LDL")]
    span = [i for i in local if hg and hg[0] < i < hg[-1]]
    loops = k_loops(insns)
    in_loop = [i for i in local if any(i in lp for lp in loops)]
    return hg, local, span, loops, in_loop


def report(name, insns):
    if name_re and not name_re.search(name):
        return None
    ops = [op for _, op, _, _ in insns]
    hg, local, span, loops, in_loop = analyse(insns)
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
            out[-1][1].append((int(m.group(1), 16), m.group(3), m.group(5), m.group(2) or ""))
    return out


# Hand-made functions for --self-test (run by ctest, label `scripts`).
# spill_in_loop: an STL inside the K loop (0x10-0x50), which must be found.
# retry_tail: the K loop at 0x10-0x50 waits at 0x30 and retries out of line
# at 0x90, which branches back to 0x30; the epilogue's STL/LDL at 0x60 lie
# inside the address range of that backward branch [0x30, 0x90], which holds
# the HGMMA at 0x40, but in no loop: they must not be found. switch_in_loop:
# a BRX whose jump-table target holds the STL. tile_loop: the STL lies in the
# persistent tile loop around the K loop, not in the K loop. guarded_skip: the
# STL sits behind a guarded forward branch, so it is still in the K loop.
SELF_TEST = """
Function : spill_in_loop
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0020*/                   STL [R1], R2 ;
        /*0030*/               @!P0 BRA 0x70 ;
        /*0040*/               @P1 BRA 0x10 ;
        /*0050*/                   EXIT ;
        /*0060*/                   NOP ;
        /*0070*/                   BRA 0x30 ;
Function : retry_tail
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   NOP ;
        /*0020*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0030*/               @!P0 BRA 0x90 ;
        /*0040*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0050*/               @P1 BRA 0x10 ;
        /*0060*/                   STL [R1], R2 ;
        /*0068*/                   LDL R2, [R1] ;
        /*0070*/                   EXIT ;
        /*0080*/                   NOP ;
        /*0090*/                   BRA 0x30 ;
Function : switch_in_loop
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0020*/                   BRX R2 -0x30 ;
        /*0030*/                   STL [R1], R2 ;
        /*0040*/               @P1 BRA 0x10 ;
        /*0050*/                   EXIT ;
Function : tile_loop
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   NOP ;
        /*0020*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0030*/               @P1 BRA 0x20 ;
        /*0040*/                   STL [R1], R2 ;
        /*0050*/               @P2 BRA 0x10 ;
        /*0060*/                   EXIT ;
Function : guarded_skip
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   HGMMA.64x8x16.F32.BF16 R24, gdesc[UR4], R24 ;
        /*0020*/               @P0 BRA 0x40 ;
        /*0030*/                   STL [R1], R2 ;
        /*0040*/               @P1 BRA 0x10 ;
        /*0050*/                   EXIT ;
"""


def self_test():
    """Checks the analysis on SELF_TEST; returns 0 when every answer is right."""
    want = {"spill_in_loop": (1, 1), "retry_tail": (1, 0), "switch_in_loop": (1, 1), "tile_loop": (1, 0),
            "guarded_skip": (1, 1)}
    bad = 0
    for name, insns in functions(SELF_TEST.splitlines()):
        _, local, _, loops, in_loop = analyse(insns)
        got, expected = (len(loops), len(in_loop)), want.pop(name)
        if got != expected:
            print("self-test %s: %d K loops, %d local accesses in them; expected %d and %d" %
                  (name, got[0], got[1], expected[0], expected[1]))
            bad += 1
    bad += len(want)
    print("self-test %s" % ("passed" if bad == 0 else "FAILED"))
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    results = [r for r in (report(name, insns) for name, insns in functions(sys.stdin)) if r is not None]
    with_local = sum(1 for lo, _ in results if lo)
    with_inside = sum(1 for _, ins in results if ins)
    print("functions %d, with local traffic %d, with local traffic inside a K loop %d" %
          (len(results), with_local, with_inside))
    return 1 if with_inside else 0


if __name__ == "__main__":
    sys.exit(main())
