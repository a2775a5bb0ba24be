#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make profile's report (scripts/profile.sh): one null_blk read, per
kernel, function by function, and its modelled L1 cache misses.

For each KERNEL named, two boots per plugin did LO and HI reads
(build/logs/profile-KERNEL-PLUGIN-N.*).  Per function (System.map of
that kernel): (count at HI - count at LO) / (HI - LO) instructions per
read; the same difference of the cache model's totals.  The first kernel
is compared with each other one, function by function; a function
present in one kernel only is compared with 0.  Writes
bench/results/profile.txt and prints it; with --annotate FUNC, prints
FUNC of each kernel instruction by instruction instead.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(TOP, 'build', 'logs')
OUT = os.path.join(TOP, 'bench', 'results', 'profile.txt')


def symbols(kernel):
    """Text symbols of a System.map: sorted addresses and their names."""
    syms = []
    with open(os.path.join(LOGS, f'profile-{kernel}.map')) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in 'tTwW':
                syms.append((int(addr, 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def per_insn(kernel, n):
    """{address: times executed} of one pccount boot."""
    with open(os.path.join(LOGS, f'profile-{kernel}-pccount-{n}.counts')) as f:
        return {int(a, 16): int(c) for a, c in (line.split() for line in f)}


def per_function(kernel, n, addrs, names):
    """{function: instructions executed} of one pccount boot."""
    funcs = {}
    for addr, count in per_insn(kernel, n).items():
        i = bisect.bisect_right(addrs, addr) - 1
        name = names[i] if i >= 0 else '?'
        funcs[name] = funcs.get(name, 0) + count
    return funcs


def annotate(kernel, func, lo, hi):
    """FUNC's disassembly in KERNEL's vmlinux, each instruction with the
    times it ran per read (blank: not in the difference)."""
    obj = os.path.join(TOP, 'build', 'obj-x86_64' + ('' if kernel == 'series' else f'-{kernel}'))
    addrs, names = symbols(kernel)
    if func not in names:
        return [f'{kernel}: no {func}']
    i = names.index(func)
    start, stop = addrs[i], addrs[i + 1]
    a, b = per_insn(kernel, lo), per_insn(kernel, hi)
    text = subprocess.run(['objdump', '-d', '--no-show-raw-insn', f'--start-address={start:#x}',
                           f'--stop-address={stop:#x}', os.path.join(obj, 'vmlinux')],
                          check=True, capture_output=True, text=True).stdout
    out = [f'{kernel}: {func}, times each instruction ran per read']
    for line in text.splitlines():
        m = re.match(r'^\s*([0-9a-f]+):\s+(.*)$', line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        per = (b.get(addr, 0) - a.get(addr, 0)) / (hi - lo)
        out.append(f'{per:8.2f}  {m.group(2)}' if per else f'{"":8}  {m.group(2)}')
    return out


def marker_functions(kernel, lo, hi):
    """The block marker sites (blk_*) a read executes in KERNEL's vmlinux:
    -> ({function: sites executed per read}) of the functions holding
    them, a site counted by the times its NOP ran per read."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        'disasm_check', os.path.join(TOP, 'scripts', 'disasm-check.py'))
    dc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dc)
    obj = os.path.join(TOP, 'build', 'obj-x86_64' + ('' if kernel == 'series' else f'-{kernel}'))
    *_, sites = dc.marker_sites(os.path.join(obj, 'vmlinux'), re.compile(r'^blk_'))
    a, b = per_insn(kernel, lo), per_insn(kernel, hi)
    funcs = {}
    for _, code, _, (_, _, fname) in sites:
        per = (b.get(code, 0) - a.get(code, 0)) / (hi - lo)
        if per >= 0.5:
            funcs[fname] = funcs.get(fname, 0) + per
    return funcs


def cache_totals(kernel, n):
    """(L1 data accesses, misses, L1 insn accesses, misses) of one boot."""
    path = os.path.join(LOGS, f'profile-{kernel}-cache-{n}.plugin')
    with open(path) as f:
        for line in f:
            m = re.match(r'^0\s+(\d+)\s+(\d+)\s+\S+%\s+(\d+)\s+(\d+)', line)
            if m:
                return [int(x) for x in m.groups()]
    sys.exit(f'profile.py: no cache totals in {path}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--lo', type=int, required=True)
    ap.add_argument('--hi', type=int, required=True)
    ap.add_argument('--annotate', metavar='FUNC', action='append', default=[],
                    help='also print FUNC instruction by instruction, per kernel')
    ap.add_argument('kernels', nargs='+')
    args = ap.parse_args()
    span = args.hi - args.lo
    if args.annotate:
        for func in args.annotate:
            for k in args.kernels:
                print('\n'.join(annotate(k, func, args.lo, args.hi)) + '\n')
        return

    per_read, cache = {}, {}
    for k in args.kernels:
        addrs, names = symbols(k)
        lo = per_function(k, args.lo, addrs, names)
        hi = per_function(k, args.hi, addrs, names)
        per_read[k] = {f: (hi.get(f, 0) - lo.get(f, 0)) / span for f in set(lo) | set(hi)}
        c_lo, c_hi = cache_totals(k, args.lo), cache_totals(k, args.hi)
        cache[k] = [(b - a) / span for a, b in zip(c_lo, c_hi)]

    out = [f'make profile: one 4 KiB O_DIRECT read of null_blk (irqmode=0), QEMU TCG '
           f'-icount shift=0, 1 vCPU; per read = (boot with {args.hi} reads - boot with '
           f'{args.lo}) / {span}; kernel code only (addresses from 0xffffffff80000000).', '']
    out.append('kernel instructions per read (bench/plugins/pccount.c), and L1 misses '
               'per read (QEMU contrib/plugins/cache.c as Debian ships it: 16 KiB 8-way '
               'L1 D and I, 64-byte lines, LRU; user and kernel):')
    out.append('')
    out.append(f'{"kernel":<12} {"instructions":>12} {"L1 D accesses":>14} '
               f'{"L1 D misses":>12} {"L1 I accesses":>14} {"L1 I misses":>12}')
    for k in args.kernels:
        da, dm, ia, im = cache[k]
        out.append(f'{k:<12} {sum(per_read[k].values()):>12.2f} {da:>14.2f} {dm:>12.2f} '
                   f'{ia:>14.2f} {im:>12.2f}')
    base = args.kernels[0]
    for other in args.kernels[1:]:
        a, b = per_read[base], per_read[other]
        diff = {f: a.get(f, 0) - b.get(f, 0) for f in set(a) | set(b)}
        shown = sorted((f for f in diff if abs(diff[f]) >= 0.5),
                       key=lambda f: (-abs(diff[f]), f))
        out += ['', f'{base} - {other}: {sum(diff.values()):+.2f} instructions per read; '
                f'functions that differ by 0.5 or more:', '',
                f'{"function":<40} {other:>10} {base:>10} {"difference":>10}']
        for f in shown:
            out.append(f'{f:<40} {b.get(f, 0):>10.2f} {a.get(f, 0):>10.2f} {diff[f]:>+10.2f}')
        rest = sum(d for f, d in diff.items() if f not in shown)
        out.append(f'{"(every other function)":<40} {"":>10} {"":>10} {rest:>+10.2f}')
    if base == 'series':
        held = marker_functions(base, args.lo, args.hi)
        nsites = sum(held.values())
        out += ['', f'The functions holding the {nsites:.2f} block marker sites a read executes '
                f'(each site counted by the times its NOP ran per read), together:', '',
                f'{"function":<40} {"sites":>6} ' + ' '.join(f'{k:>10}' for k in args.kernels)]
        for f in sorted(held):
            out.append(f'{f:<40} {held[f]:>6.2f} ' +
                       ' '.join(f'{per_read[k].get(f, 0):>10.2f}' for k in args.kernels))
        totals = {k: sum(per_read[k].get(f, 0) for f in held) for k in args.kernels}
        out.append(f'{"(together)":<40} {nsites:>6.2f} ' +
                   ' '.join(f'{totals[k]:>10.2f}' for k in args.kernels))
        out += ['', 'csv,profile_sites,' + f'{nsites:.2f},' +
                ','.join(f'{k}={totals[k]:.2f}' for k in args.kernels)]
    text = '\n'.join(out) + '\n'
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
