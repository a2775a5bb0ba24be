#!/usr/bin/env python3
"""Show that disabled markers load no data: a check of the built vmlinux.

    scripts/marker-disasm.py build/obj-x86_64/vmlinux '^blk_' [SUITE]

For every marker whose name matches the regular expression (the static
struct __mark_marker of each trace_mark(), named __mark_NAME.N by the
compiler), the immediate values table (__start___immediate ..
__stop___immediate) must have its immediate_if() sites: each a 5-byte NOP
in the image, and no instruction of the function holding the site may
refer to the marker's state (a load and test of it would). Prints a KTAP
document, one case per marker site, then "N passed, N failed".
"""
import bisect
import re
import struct
import subprocess
import sys

# The kernel's BYTES_NOP5 (arch/x86/include/asm/nops.h): "nopl 0x0(%rax,
# %rax,1)" on x86_64, "lea %ds:0x0(%esi,%eiz,1),%esi" on i386.
NOP5 = {True: bytes([0x0f, 0x1f, 0x44, 0x00, 0x00]),
        False: bytes([0x3e, 0x8d, 0x74, 0x26, 0x00])}
EM_386, EM_X86_64 = 3, 62


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


def symbols(path):
    """-> (markers {addr: (name, size)}, sorted functions [(addr, size, name)], {name: addr})"""
    out = subprocess.run(['nm', '-S', '--defined-only', path], check=True,
                         capture_output=True, text=True).stdout
    markers, funcs, named = {}, [], {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4:
            addr, size, kind, name = int(w[0], 16), int(w[1], 16), w[2], w[3]
            if name.startswith('__mark_') and kind in 'dDbB':
                markers[addr] = (name, size)
            elif kind in 'tT':
                funcs.append((addr, size, name))
        elif len(w) == 3:
            named[w[2]] = int(w[0], 16)
    funcs.sort()
    return markers, funcs, named


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    path, pattern = sys.argv[1], re.compile(sys.argv[2])
    suite = sys.argv[3] if len(sys.argv) == 4 else 'marker_disasm'
    elf = Elf(path)
    if elf.machine not in (EM_386, EM_X86_64):
        # Only x86 has the immediate values optimisation: elsewhere a
        # disabled marker is a load and a test by design.
        print('KTAP version 1')
        print(f'# Suite: {suite}')
        print('1..1')
        print(f'ok 1 nop_sites # SKIP no immediate values optimisation on ELF machine {elf.machine}')
        print('0 passed, 0 failed, 1 skipped')
        return 0
    markers, funcs, named = symbols(path)
    # struct __mark_marker: name, format, args, then the state.
    state_off = 3 * elf.ptr
    wanted = {}
    for addr, (sym, size) in markers.items():
        name = re.sub(r'\.\d+$', '', sym[len('__mark_'):])
        if pattern.search(name):
            wanted[addr + state_off] = (name, sym)
    start, stop = named['__start___immediate'], named['__stop___immediate']
    entry = 4 * elf.ptr
    sites = []
    for pos in range(start, stop, entry):
        var, code, target, info = elf.words(pos, 4)
        if var in wanted:
            sites.append((wanted[var], code, target))
    faddrs = [f[0] for f in funcs]
    cases = []
    disasm = {}
    seen = set()
    for (name, sym), code, target in sorted(sites, key=lambda s: s[1]):
        seen.add(sym)
        i = bisect.bisect_right(faddrs, code) - 1
        faddr, fsize, fname = funcs[i]
        diags = [f'{name} ({sym}) at {fname}+{code - faddr:#x}']
        ok = True
        if elf.read(code, 5) != NOP5[elf.is64]:
            ok = False
            diags.append(f'not a 5-byte NOP: {elf.read(code, 5).hex()}')
        if not target:
            ok = False
            diags.append('no jump target: not an immediate_if() site')
        if fname not in disasm:
            disasm[fname] = subprocess.run(
                ['objdump', '-d', '--no-show-raw-insn', f'--start-address={faddr:#x}',
                 f'--stop-address={faddr + fsize:#x}', path],
                check=True, capture_output=True, text=True).stdout
        state = f'{markers_addr(markers, sym) + state_off:x}'
        loads = [ln.strip() for ln in disasm[fname].splitlines() if state in ln]
        if loads:
            ok = False
            diags.append(f'{fname} refers to the state of {sym}:')
            diags += loads[:5]
        cases.append((ok, f'{name}_{fname}', diags))
    unused = sorted(s for _, s in wanted.values() if s not in seen)
    cases.append((bool(sites) and not unused, 'every_marker_has_nop_sites',
                  [f'{len(sites)} site(s) of {len(wanted)} marker(s) matching {pattern.pattern}'] +
                  [f'no immediate_if() site for {s}' for s in unused]))
    print('KTAP version 1')
    print(f'# Suite: {suite}')
    print(f'1..{len(cases)}')
    for n, (ok, name, diags) in enumerate(cases, 1):
        for d in diags:
            print(f'# {d}')
        print(f'{"ok" if ok else "not ok"} {n} {name}')
    passed = sum(1 for ok, _, _ in cases if ok)
    print(f'{passed} passed, {len(cases) - passed} failed')
    return 0 if passed == len(cases) else 1


def markers_addr(markers, sym):
    for addr, (s, _) in markers.items():
        if s == sym:
            return addr
    raise KeyError(sym)


if __name__ == '__main__':
    sys.exit(main())
