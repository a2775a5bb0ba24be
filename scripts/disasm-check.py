#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check in the built code that a disabled marker costs no data load.

scripts/disasm-check.py ARCH [OBJDIR]

Reads two built objects with objdump, one linked into vmlinux (the
markers KUnit suite, kernel/marker_test.o) and one module
(tests/modules/marker_site), and follows the path a disabled marker takes
through pairs of functions that differ only in how the marker is placed:

  trace_mark():   marker_test_fire_int(), marker_site_dormant():
                  expected: no data load, no conditional branch, no stack
                  frame, no stack protector canary (x86: the arm64 test
                  kernel has no stack protector), and a NOP (x86: 5
                  bytes) that the object's table of immediate_if() sites
                  records;
  _trace_mark():  marker_test_fire_generic(), marker_site_dormant_load():
                  expected: a load of the state and a conditional branch
                  (the counter-proof that the check sees a load where one is).

Then, in the built vmlinux, every block layer marker (name ^blk_): each of
its sites a NOP recorded in the __immediate table, and no instruction of
the function holding it refers to the marker's state; and the profiler's
prof_on, read in __schedule() by a MOV site, not a load of the variable
(arm64 loads a 4-byte value from the site's own literal, next to the
code; powerpc's site is an li, whose out-of-line load of the variable
for values li cannot hold is outside the function).

x86_64 and i386 read x86 code (objdump); arm64 reads AArch64 code
(aarch64-linux-gnu-objdump), where an address is built by ADRP and an
offset; powerpc reads ppc64le code (powerpc64le-linux-gnu-objdump), where
an address is built from the TOC pointer (r2) by ADDIS and an offset, or
loaded from a TOC entry: a reference to a variable is found by following
them.

Prints one KTAP document (disasm_ARCH) and a last line "N passed, N
failed[, N skipped]".
"""
import bisect
import os
import re
import struct
import subprocess
import sys

STACK = re.compile(r"\((%[er]sp|%[er]bp)[,)]")
MEM = re.compile(r"\(%")
BRANCH_RELOCS = ("PLT32", "R_X86_64_PC32", "R_386_PC32", "R_386_PLT32")


# The kernel's BYTES_NOP5 (arch/x86/include/asm/nops.h): "nopl 0x0(%rax,
# %rax,1)" on x86_64, "lea %ds:0x0(%esi,%eiz,1),%esi" on i386.
NOP5 = {True: bytes([0x0f, 0x1f, 0x44, 0x00, 0x00]),
        False: bytes([0x3e, 0x8d, 0x74, 0x26, 0x00])}
EM_386, EM_X86_64 = 3, 62
ARM64_NOP = bytes([0x1f, 0x20, 0x03, 0xd5])
PPC_NOP = bytes([0x00, 0x00, 0x00, 0x60])
# Set by main(): the architecture's binutils prefix and its name.
TOOLS = {"arm64": "aarch64-linux-gnu-", "powerpc": "powerpc64le-linux-gnu-"}
ARCH = {"prefix": "", "name": ""}


def is_arm64():
    return ARCH["name"] == "arm64"


def is_ppc():
    return ARCH["name"] == "powerpc"


def site_nop(is64):
    """The bytes of an immediate_if() site's NOP."""
    if is_ppc():
        return PPC_NOP
    return ARM64_NOP if is_arm64() else NOP5[is64]


class Elf:
    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = f.read()
        ident = self.data[:16]
        if ident[:4] != b'\x7fELF':
            sys.exit(f'{path}: not an ELF file')
        self.is64 = ident[4] == 2
        self.machine = struct.unpack_from('<H', self.data, 18)[0]
        if self.is64:
            hdr = struct.unpack_from('<HHIQQQIHHHHHH', self.data, 16)
            phoff, phentsize, phnum = hdr[4], hdr[8], hdr[9]
            fmt, self.ptr = '<IIQQQQQQ', 8
        else:
            hdr = struct.unpack_from('<HHIIIIIHHHHHH', self.data, 16)
            phoff, phentsize, phnum = hdr[4], hdr[8], hdr[9]
            fmt, self.ptr = '<IIIIIIII', 4
        self.loads = []
        for i in range(phnum):
            ph = struct.unpack_from(fmt, self.data, phoff + i * phentsize)
            if self.is64:
                ptype, offset, vaddr, filesz = ph[0], ph[2], ph[3], ph[5]
            else:
                ptype, offset, vaddr, filesz = ph[0], ph[1], ph[2], ph[4]
            if ptype == 1:
                self.loads.append((vaddr, offset, filesz))

    def read(self, addr, size):
        for vaddr, offset, filesz in self.loads:
            if vaddr <= addr and addr + size <= vaddr + filesz:
                start = offset + addr - vaddr
                return self.data[start:start + size]
        raise KeyError(f'address {addr:#x} is not in the image')

    def words(self, addr, count):
        fmt = '<' + ('Q' if self.is64 else 'I') * count
        return struct.unpack(fmt, self.read(addr, count * self.ptr))

    def immediates(self, start, stop):
        """The struct __immediate entries in [start, stop) as (var, code,
        target, info), their relative addresses made absolute: s32 code and
        target (0: none), then a long var and info."""
        bits = 8 * self.ptr
        for pos in range(start, stop, 8 + 2 * self.ptr):
            code, target = struct.unpack('<ii', self.read(pos, 8))
            var, info = self.words(pos + 8, 2)
            var -= (var >> (bits - 1)) << bits
            yield ((pos + 8 + var) % (1 << bits), (pos + code) % (1 << bits),
                   (pos + 4 + target) % (1 << bits) if target else 0, info)


def vmlinux_symbols(path):
    """-> (markers {addr: (name, size)}, sorted functions [(addr, size, name)],
    {name: addr} of every symbol)"""
    out = subprocess.run([ARCH["prefix"] + 'nm', '-S', '--defined-only', path], check=True,
                         capture_output=True, text=True).stdout
    markers, funcs, named = {}, [], {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4:
            addr, size, kind, name = int(w[0], 16), int(w[1], 16), w[2], w[3]
            named.setdefault(name, addr)
            if name.startswith('__mark_data_') and kind in 'dDbB':
                markers[addr] = (name, size)
            elif kind in 'tT':
                funcs.append((addr, size, name))
        elif len(w) == 3:
            named[w[2]] = int(w[0], 16)
    funcs.sort()
    return markers, funcs, named


def marker_sites(path, pattern):
    """-> (Elf, markers, {name: address} of every symbol, {state address:
    (name, sym)}, [((name, sym), code, target, (function address, size,
    name)), ...] sorted by code): the
    immediate_if() sites of the markers whose name matches pattern."""
    elf = Elf(path)
    markers, funcs, named = vmlinux_symbols(path)
    # struct __mark_marker: name, format, args, then the state.
    state_off = 3 * elf.ptr
    wanted = {}
    for addr, (sym, size) in markers.items():
        name = sym[len('__mark_data_'):]
        if pattern.search(name):
            wanted[addr + state_off] = (name, sym)
    start, stop = named['__start___immediate'], named['__stop___immediate']
    faddrs = [f[0] for f in funcs]
    sites = []
    for var, code, target, info in elf.immediates(start, stop):
        if var in wanted:
            sites.append((wanted[var], code, target,
                          funcs[bisect.bisect_right(faddrs, code) - 1]))
    return elf, markers, named, wanted, sorted(sites, key=lambda s: s[1])


def check_vmlinux(path, pattern, ok):
    """Every marker whose name matches pattern (the struct __mark_marker
    that the trace_mark() sites of a name in one source file share,
    __mark_data_NAME) has immediate_if() sites in the __immediate table, each a
    5-byte NOP in the image, and no instruction of the function holding the
    site refers to the marker's state (a load and test of it would)."""
    elf, markers, named, wanted, sites = marker_sites(path, pattern)
    state_off = 3 * elf.ptr
    disasm, cases = {}, {}
    seen = set()
    for (name, sym), code, target, (faddr, fsize, fname) in sites:
        seen.add(sym)
        diags = [f'{name} ({sym}) at {fname}+{code - faddr:#x}']
        good = True
        nop = site_nop(elf.is64)
        if elf.read(code, len(nop)) != nop:
            good = False
            diags.append(f'not a {len(nop)}-byte NOP: {elf.read(code, len(nop)).hex()}')
        if not target:
            good = False
            diags.append('no jump target: not an immediate_if() site')
        if fname not in disasm:
            disasm[fname] = objdump('-d', '--no-show-raw-insn', f'--start-address={faddr:#x}',
                                    f'--stop-address={faddr + fsize:#x}', path)
        loads = refs_to(disasm[fname], markers_addr(markers, sym) + state_off, elf, named)
        if loads:
            good = False
            diags.append(f'{fname} refers to the state of {sym}:')
            diags += loads[:5]
        # A second site of the same marker in the same function: _2, ...
        case = f'{name}_{fname}'
        cases[case] = cases.get(case, 0) + 1
        if cases[case] > 1:
            case += f'_{cases[case]}'
        ok(case, good, '; '.join(diags[1:]), diags[0])
    unused = sorted(s for _, s in wanted.values() if s not in seen)
    ok('every_marker_has_nop_sites', bool(sites) and not unused,
       '; '.join(f'no immediate_if() site for {s}' for s in unused) or 'no site at all',
       f'{len(sites)} site(s) of {len(wanted)} marker(s) matching {pattern.pattern}')


def check_immediate_reader(path, var, func, ok):
    """The immediate variable var is read in func with the MOV form: a site
    of the __immediate table in func, of type IMMEDIATE_MOV (1), and no
    instruction of func refers to the variable's address (a load would)."""
    elf = Elf(path)
    _, funcs, named = vmlinux_symbols(path)
    addr = named.get(var)
    where = next(((a, n) for a, n, f in funcs if f == func), None)
    # arm64 reads a 4-byte value from the site's literal: a load, but not
    # of the variable.
    case = f'{var}_read_in_{func}_without_load' + (f'_of_{var}' if is_arm64() else '')
    if addr is None or where is None:
        ok(case, False, f'no {var} or no {func} in {path}')
        return
    start, stop = named['__start___immediate'], named['__stop___immediate']
    sites = []
    for v, code, target, info in elf.immediates(start, stop):
        if v == addr:
            sites.append((code, (info >> 16) & 0xff, target))
    mine = [(c, t) for c, t, _ in sites if where[0] <= c < where[0] + where[1]]
    literals = {c: lit for c, _, lit in sites}
    text = objdump('-d', '--no-show-raw-insn', f'--start-address={where[0]:#x}',
                   f'--stop-address={where[0] + where[1]:#x}', path)
    refs = refs_to(text, addr, elf, named)
    diags = []
    if not mine:
        diags.append(f'no site of {var} in {func} ({len(sites)} in all)')
    if any(t != 1 for _, t in mine):
        diags.append(f'a site of {var} in {func} is not a MOV site: {mine}')
    # arm64: a MOVZ, or an LDR of the site's own literal (4 and 8 bytes).
    def arm64_site_ok(c):
        insn = int.from_bytes(elf.read(c, 4), 'little')
        if insn & 0x7f800000 == 0x52800000:
            return True
        off = ((insn >> 5) & 0x7ffff) << 2
        off -= (1 << 21) if off & (1 << 20) else 0
        return insn & 0xbf000000 == 0x18000000 and c + off == literals[c] != addr
    if is_arm64() and not all(arm64_site_ok(c) for c, _ in mine):
        diags.append(f'a site of {var} in {func} is neither a MOVZ nor an LDR of its literal')
    # powerpc: an li (addi rD, 0, SI).
    def ppc_site_ok(c):
        insn = int.from_bytes(elf.read(c, 4), 'little')
        return insn >> 26 == 14 and (insn >> 16) & 0x1f == 0
    if is_ppc() and not all(ppc_site_ok(c) for c, _ in mine):
        diags.append(f'a site of {var} in {func} is not an li')
    if refs:
        diags.append(f'{func} refers to {var}: ' + '; '.join(refs[:3]))
    ok(case, not diags, '; '.join(diags),
       f'{var}: {len(sites)} site(s), {len(mine)} in {func}')


def objdump(*args):
    return subprocess.run([ARCH["prefix"] + "objdump", *args], check=True,
                          capture_output=True, text=True).stdout


INSN = re.compile(r"^\s*[0-9a-f]+:\s+(\S+)\s*(.*)$")
MEMOP = re.compile(r"\[(x\d+)(?:, #(-?\d+))?\]")
NO_DEST = ("st", "b", "cb", "tb", "ret", "nop", "cmp", "cmn", "tst", "prfm",
           "hint", "paci", "auti", "bti")


def arm64_dests(mn, ops):
    """The x registers an instruction writes (as x, for w too)."""
    if mn in ("bl", "blr"):
        return {f"x{i}" for i in range(19)} | {"x30"}
    if mn.startswith(NO_DEST):
        return set()
    regs = [r.strip() for r in ops.split(",")[:2 if mn.startswith("ldp") else 1]]
    return {"x" + r[1:] for r in regs if re.match(r"^[wx]\d+$", r)}


PPC_MEMOP = re.compile(r"^(r\d+),(-?\d+)\((r\d+)\)$")


def ppc_refs_to(text, addr, elf, named):
    """powerpc: registers are followed from r2, the TOC pointer (.TOC.),
    through ADDIS and ADDI; a load at addr refers to it, and so does a
    load of a TOC entry that holds addr."""
    regs, refs = {"r2": named[".TOC."]}, []
    for ln in text.splitlines():
        m = INSN.match(ln)
        if not m:
            continue
        mn, ops = m.group(1), m.group(2).split("#")[0].strip()
        w = [o.strip() for o in ops.split(",")]
        # r2 is the TOC pointer throughout (the global entry sets it).
        if w[0] == "r2":
            continue
        if mn in ("addis", "addi") and len(w) == 3 and w[1] in regs:
            try:
                imm = int(w[2], 0)
            except ValueError:
                regs.pop(w[0], None)
                continue
            regs[w[0]] = regs[w[1]] + (imm << 16 if mn == "addis" else imm)
            if regs[w[0]] == addr:
                refs.append(ln.strip())
            continue
        mem = PPC_MEMOP.match(ops)
        if mem and mem.group(3) in regs and mn.startswith("l"):
            ea = regs[mem.group(3)] + int(mem.group(2))
            entry = None
            if mn == "ld":
                try:
                    entry = elf.words(ea, 1)[0]
                except KeyError:
                    pass
            if ea == addr or entry == addr:
                refs.append(ln.strip())
        if re.match(r"^r\d+$", w[0]):
            regs.pop(w[0], None)
        if mn.startswith("bl") and mn not in ("blr", "blt", "ble"):
            regs = {"r2": regs.get("r2", named[".TOC."])}
    return refs


def refs_to(text, addr, elf=None, named=None):
    """The lines of a disassembly that refer to addr: x86 shows the
    address; arm64 builds it with ADRP, then ADD or a load's offset, so
    registers are followed from each ADRP until something else writes
    them (straight-line, which is what a load of a marker's state is);
    powerpc, see ppc_refs_to()."""
    if is_ppc():
        return ppc_refs_to(text, addr, elf, named)
    if not is_arm64():
        return [ln.strip() for ln in text.splitlines() if f'{addr:x}' in ln]
    regs, refs = {}, []
    for ln in text.splitlines():
        m = INSN.match(ln)
        if not m:
            continue
        mn, ops = m.group(1), m.group(2)
        w = [o.strip() for o in ops.split(",")]
        if mn == "adrp":
            regs[w[0]] = int(w[1].split()[0], 16)
            continue
        if mn == "add" and len(w) == 3 and w[1] in regs and w[2].startswith("#0x"):
            regs[w[0]] = regs[w[1]] + int(w[2][1:], 16)
            if regs[w[0]] == addr:
                refs.append(ln.strip())
            continue
        mem = MEMOP.search(ops)
        if mn.startswith(("ld", "st")) and mem and mem.group(1) in regs and \
                regs[mem.group(1)] + int(mem.group(2) or 0) == addr:
            refs.append(ln.strip())
        for r in arm64_dests(mn, ops):
            regs.pop(r, None)
    return refs


def functions(path):
    """{name: [(offset, mnemonic, operands, [relocs])]} of .text."""
    funcs, cur, insns = {}, None, None
    for line in objdump("-dr", "--no-show-raw-insn", "-j", ".text", path).splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            cur = m.group(2)
            insns = funcs.setdefault(cur, [])
            continue
        if insns is None:
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(R_\S+)\s+(\S+)", line)
        if m:
            if insns:
                insns[-1][3].append((m.group(2), m.group(3)))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3).strip(), []))
    return funcs


def symbols(path):
    syms = {}
    for line in objdump("-t", path).splitlines():
        f = line.split()
        if len(f) >= 6 and f[3] == ".text":
            syms[f[-1]] = int(f[0], 16)
    return syms


def jump_sites(path):
    """Offsets in .text that immediate_if() entries name as their code:
    x86 keeps them in __immediate_jump (for objtool), arm64 in __immediate
    with the other sites (struct __immediate: s32 code and target, relative,
    then var and info, two longs)."""
    if is_arm64() or is_ppc():
        return arm64_jump_sites(path)
    out = objdump("-r", "-j", "__immediate_jump", path)
    esize = 24 if ARCH["name"] == "x86_64" else 16
    words = []
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+)\s+(R_\S+)\s+(\S+)$", line)
        if m and int(m.group(1), 16) % esize == 0:
            words.append((int(m.group(1), 16), m.group(3)))
    # i386 objects use REL relocations: the addend is in the section data.
    data = {}
    for line in objdump("-s", "-j", "__immediate_jump", path).splitlines():
        m = re.match(r"^ ([0-9a-f]{4,}) ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            raw = bytes.fromhex("".join(m.group(2).split()))
            for k, b in enumerate(raw):
                data[int(m.group(1), 16) + k] = b
    sites = set()
    for off, target in words:
        m = re.match(r"^\.text(?:\+0x([0-9a-f]+))?$", target)
        if m:
            addend = int(m.group(1) or "0", 16)
            if not m.group(1) and all(off + k in data for k in range(4)):
                addend = int.from_bytes(bytes(data[off + k] for k in range(4)), "little")
            sites.add(addend)
    return sites


def arm64_jump_sites(path):
    """arm64 and powerpc: the jump entries of __immediate."""
    data = bytearray()
    for line in objdump("-s", "-j", "__immediate", path).splitlines():
        m = re.match(r"^ ([0-9a-f]{4,}) ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            off = int(m.group(1), 16)
            raw = bytes.fromhex("".join(m.group(2).split()))
            data[off:off + len(raw)] = raw
    sites = set()
    for line in objdump("-r", "-j", "__immediate", path).splitlines():
        m = re.match(r"^([0-9a-f]+)\s+R_(?:AARCH64_PREL32|PPC64_REL32)\s+\.text(?:\+0x([0-9a-f]+))?$", line)
        if not m or int(m.group(1), 16) % 24 != 0:
            continue
        entry = int(m.group(1), 16)
        info = int.from_bytes(data[entry + 16:entry + 24], "little")
        if (info >> 16) & 0xff == 2:
            sites.add(int(m.group(2) or "0", 16))
    return sites


def walk(insns):
    """The instructions from the entry to the first return or conditional
    branch (which is where a marker tested in memory decides), following
    unconditional local jumps."""
    by_off = {i[0]: n for n, i in enumerate(insns)}
    path, n, seen = [], 0, set()
    while 0 <= n < len(insns) and n not in seen:
        seen.add(n)
        off, mn, ops, rel = insns[n]
        path.append(insns[n])
        if mn.startswith("ret") or mn == "blr" or is_cond_branch(insns[n]):
            break
        if mn == "jmp" and any("return_thunk" in r[1] for r in rel):
            break
        if mn in ("jmp", "b") and not rel:
            m = re.match(r"^([0-9a-f]+)", ops)
            if m and int(m.group(1), 16) in by_off:
                n = by_off[int(m.group(1), 16)]
                continue
        n += 1
    return path


PPC_LOAD = re.compile(r"^l(bz|hz|ha|wz|wa|d|hbr|wbr|dbr)(u|x|ux)?$")


def is_load(insn):
    off, mn, ops, rel = insn
    if is_ppc():
        # Not the stack, nor the TOC offset a module function's global
        # entry loads ("ld r2,-8(r12)"), which a local call skips.
        return PPC_LOAD.match(mn) is not None and "(r1)" not in ops and \
            not (ops.startswith("r2,") and ops.endswith("(r12)"))
    if is_arm64():
        return mn.startswith("ld") and "[sp" not in ops
    if mn.startswith(("nop", "lea", "call", "jmp", "push", "endbr")) or mn.startswith("j"):
        return False
    if MEM.search(ops) and not STACK.search(ops):
        return True
    # i386: an absolute address operand is a relocation without a '$'.
    if rel and "$" not in ops and not any(t.endswith(BRANCH_RELOCS) for t, _ in rel):
        return True
    return False


PPC_UNCOND = ("b", "bl", "blr", "blrl", "bctr", "bctrl", "ba", "bla")


def is_cond_branch(insn):
    if is_ppc():
        return insn[1].startswith("b") and insn[1] not in PPC_UNCOND
    if is_arm64():
        return insn[1].startswith(("b.", "cbz", "cbnz", "tbz", "tbnz"))
    return insn[1].startswith("j") and insn[1] != "jmp"


def is_canary_check(insn, insns):
    """A conditional branch to a call of __stack_chk_fail: the stack
    protector's check (CONFIG_STACKPROTECTOR_STRONG), not a marker test."""
    if not is_cond_branch(insn):
        return False
    m = re.match(r"^([0-9a-f]+)", insn[2])
    if not m:
        return False
    target = [i for i in insns if i[0] == int(m.group(1), 16)]
    return bool(target) and target[0][1].startswith("call") and \
        any("__stack_chk_fail" in r[1] for r in target[0][3])


def is_frame_setup(insn):
    """A push, or a change of the stack pointer."""
    off, mn, ops, rel = insn
    if is_ppc():
        return mn.startswith("stdu") and ops.endswith("(r1)")
    if is_arm64():
        return (mn.startswith("st") and "[sp" in ops and ops.endswith("!")) or \
            (mn == "sub" and ops.startswith("sp,"))
    return mn.startswith("push") or (re.search(r",%[er]sp$", ops) is not None
                                     and not mn.startswith("mov"))


def is_canary_load(insn):
    """A read of the stack protector's canary: %gs:0x28 on x86_64,
    __stack_chk_guard on i386."""
    off, mn, ops, rel = insn
    return "%gs:0x28" in ops or any("__stack_chk_guard" in r[1] for r in rel)


def check_object(path, pairs, ok):
    funcs, syms, sites = functions(path), symbols(path), jump_sites(path)
    for name, want_load in pairs:
        if name not in funcs:
            ok(name + "_found", False, "no %s in %s" % (name, path))
            continue
        insns = funcs[name]
        path_insns = walk(insns)
        loads = [i for i in path_insns if is_load(i)]
        canary = [i for i in path_insns if is_canary_check(i, insns)]
        conds = [i for i in path_insns if is_cond_branch(i) and i not in canary]
        print("# %s: disabled path: %s" % (name, "; ".join(
            (i[1] + " " + i[2]).strip() for i in path_insns)))
        start = syms.get(name, insns[0][0])
        end = insns[-1][0] + 1
        mine = sorted(s for s in sites if start <= s < end)
        if want_load:
            ok(name + "_loads_state", len(loads) >= 1,
               "expected a load of the marker state on the path")
            ok(name + "_tests_state", len(conds) >= 1, "expected a conditional branch")
            continue
        ok(name + "_no_data_load", not loads,
           "loads: " + "; ".join(i[1] + " " + i[2] for i in loads))
        ok(name + "_no_cond_branch", not conds,
           "branches: " + "; ".join(i[1] + " " + i[2] for i in conds))
        # The function holds nothing but the marker: a frame or a canary
        # on its disabled path would be the marker's cost.
        frame = [i for i in path_insns if is_frame_setup(i)]
        ok(name + "_no_frame", not frame,
           "stack frame: " + "; ".join(i[1] + " " + i[2] for i in frame))
        if not is_arm64() and not is_ppc():
            guard = [i for i in path_insns if i in canary or is_canary_load(i)]
            ok(name + "_no_stack_protector", not guard,
               "canary: " + "; ".join(i[1] + " " + i[2] for i in guard))
        size = 4 if is_arm64() or is_ppc() else 5
        nop = False
        for s in mine:
            n = [k for k, i in enumerate(insns) if i[0] == s]
            # a NOP, or i386's 5-byte NOP "lea %ds:0x0(%esi,%eiz,1),%esi"
            if n and n[0] + 1 < len(insns) and (insns[n[0]][1].startswith("nop") or
                                                insns[n[0]][1] == "lea") \
                    and insns[n[0] + 1][0] - s == size and insns[n[0]] in path_insns:
                nop = True
        ok(name + ("_nop5_site_recorded" if size == 5 else "_nop_site_recorded"), nop,
           "no %d-byte NOP on the path recorded as an immediate_if() site (sites at %s)"
           % (size, [hex(s) for s in mine]))


def main():
    arch = sys.argv[1]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    obj = sys.argv[2] if len(sys.argv) > 2 else os.path.join(top, "build", "obj-" + arch)
    path = os.path.join(obj, "ext", "marker_site", "marker_site.o")
    results = []

    def ok(name, cond, why="", note=""):
        if note:
            print("# " + note)
        results.append(("ok" if cond else "not ok", name, why))

    print("KTAP version 1")
    print("# Suite: disasm_%s" % arch)
    if arch not in ("x86_64", "i386", "arm64", "powerpc"):
        print("1..1")
        print("ok 1 disasm # SKIP %s has no immediate values optimisation: "
              "the generic path reads memory by design" % arch)
        print("0 passed, 0 failed, 1 skipped")
        return 0
    ARCH["prefix"] = TOOLS.get(arch, "")
    ARCH["name"] = arch
    for path, pairs in (
            (os.path.join(obj, "kernel", "marker_test.o"),
             (("marker_test_fire_int", False), ("marker_test_fire_generic", True))),
            (path, (("marker_site_dormant", False), ("marker_site_dormant_load", True)))):
        check_object(path, pairs, ok)
    check_vmlinux(os.path.join(obj, "vmlinux"), re.compile(r"^blk_"), ok)
    # The in-kernel user of immediate values: the profiler's test in
    # schedule(), inlined from profile_hit().
    check_immediate_reader(os.path.join(obj, "vmlinux"), "prof_on", "__schedule", ok)
    print("1..%d" % len(results))
    for n, (res, name, why) in enumerate(results, 1):
        if res != "ok" and why:
            print("# " + why)
        print("%s %d %s" % (res, n, name))
    p = sum(1 for r in results if r[0] == "ok")
    print("%d passed, %d failed" % (p, len(results) - p))
    return 0 if p == len(results) else 1


def markers_addr(markers, sym):
    for addr, (s, _) in markers.items():
        if s == sym:
            return addr
    raise KeyError(sym)



if __name__ == "__main__":
    sys.exit(main())
