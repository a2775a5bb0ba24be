#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the blktrace events of two boots: the patched and the stock kernel.

    scripts/blkcmp.py [--require ACTIONS] PATCHED.log STOCK.log

tests/guest/blkev.sh prints, for every traced run and device, the events
blkparse reported, as "blkev RUN DEV EVENT" lines (EVENT: action, RWBS
and the action's fields, e.g. "A W 4096 + 8 <- (253,0) 2048"), then
"blkev-count RUN DEV N". For each (run, device) the two sequences must
be identical (timestamps, PIDs, CPUs and command names are not in them),
but for where a completion lands among unrelated requests: completions
are asynchronous, so each one is compared by its place after the events
of its own sector (see anchored()).
Every action of ACTIONS (comma-separated; default those of
tests/guest/30-blktrace.sh) must be among the patched kernel's events,
every remap must name its origin and every unplug its depth.  Prints a
KTAP document (suite blktrace_stock) with one case per (run, device), a
diff for each difference, then one line "N passed, N failed".
"""
import argparse
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import split_channels  # noqa: E402

# Actions the workload of 30-blktrace.sh must produce on the patched kernel
# (blkparse's names): queue, get request, insert, issue, complete, back
# merge, split, remap, plug, unplug.
REQUIRED_ACTIONS = ['Q', 'G', 'I', 'D', 'C', 'M', 'X', 'A', 'P', 'U']


def read_events(path):
    """-> ({(run, dev): [event, ...]}, {(run, dev): count}) from a console log."""
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    _, user = split_channels(text)
    events, counts = {}, {}
    for _, line in user:
        words = line.split()
        if len(words) >= 3 and words[0] == 'blkev':
            events.setdefault((words[1], words[2]), []).append(' '.join(words[3:]))
        elif len(words) == 4 and words[0] == 'blkev-count':
            counts[(words[1], words[2])] = int(words[3])
    return events, counts


# A remap names the device and sector it came from; an unplug, its depth.
UNPLUG = re.compile(r'^UT? \S+ \d+$')
PAYLOADS = {'A': re.compile(r' <- \(\d+,\d+\) \d+$'), 'U': UNPLUG, 'UT': UNPLUG}


def anchored(seq):
    """-> (events but completions, sorted [(completion, anchor), ...]).

    A completion's anchor is the number of events other than completions
    that precede it and name the same sector: completing a request before
    it was issued, or twice, still differs; completing it before or after
    an unrelated request does not.
    """
    rest, done, seen = [], [], {}
    for e in seq:
        words = e.split()
        sector = words[2] if len(words) > 2 else ''
        if words and words[0] == 'C':
            done.append((e, seen.get(sector, 0)))
        else:
            rest.append(e)
            seen[sector] = seen.get(sector, 0) + 1
    return rest, sorted(done)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--require', default=','.join(REQUIRED_ACTIONS))
    ap.add_argument('patched')
    ap.add_argument('stock')
    args = ap.parse_args()
    patched, stock = args.patched, args.stock
    required = [a for a in args.require.split(',') if a]
    cases = []          # (ok, name, [diagnostics])
    runs = {}
    for label, path in (('patched', patched), ('stock', stock)):
        if not os.path.exists(path):
            cases.append((False, f'{label}_log', [f'{path} missing']))
            runs[label] = ({}, {})
        else:
            runs[label] = read_events(path)
    (pev, pcnt), (sev, scnt) = runs['patched'], runs['stock']

    keys = sorted(set(pcnt) | set(scnt) | set(pev) | set(sev))
    if not keys:
        cases.append((False, 'events_present', ['no blkev lines in either log']))
    total = 0
    actions = set()
    for run, dev in keys:
        diags = []
        p, s = pev.get((run, dev), []), sev.get((run, dev), [])
        for label, ev, cnt in (('patched', p, pcnt), ('stock', s, scnt)):
            want = cnt.get((run, dev))
            if want is None:
                diags.append(f'{label}: no blkev-count line (output cut short?)')
            elif want != len(ev):
                diags.append(f'{label}: {len(ev)} event line(s), blkev-count says {want}')
        if not p:
            diags.append('no events from the patched kernel')
        same = p == s or anchored(p) == anchored(s)
        if not same:
            diff = list(difflib.unified_diff(s, p, 'stock', 'patched', lineterm='', n=2))
            diags.append(f'sequences differ (stock {len(s)}, patched {len(p)} events):')
            diags += diff[:60] + (['...'] if len(diff) > 60 else [])
        else:
            diags.append(f'{len(p)} events identical'
                         + ('' if p == s else ' but for the order of completions')
                         + ': ' + ' '.join(sorted({e.split()[0] for e in p if e})))
        total += len(p)
        actions |= {e.split()[0] for e in p if e}
        cases.append((len(diags) == 1 and same, f'{run}_{dev}', diags))

    bad = [f'{run} {dev}: {e}' for (run, dev), evs in sorted(pev.items()) for e in evs
           if e.split()[0] in PAYLOADS and not PAYLOADS[e.split()[0]].search(e)]
    cases.append((not bad, 'payloads_present',
                  [f'{len(bad)} remap/unplug event(s) without their origin/depth'] + bad[:20]))
    missing = [a for a in required if a not in actions]
    cases.append((not missing, 'required_actions_seen',
                  [f'actions seen: {" ".join(sorted(actions))}'] +
                  ([f'missing: {" ".join(missing)}'] if missing else [])))

    print('KTAP version 1')
    print('# Suite: blktrace_stock')
    print(f'1..{len(cases)}')
    for n, (ok, name, diags) in enumerate(cases, 1):
        for d in diags:
            print(f'# {d}')
        print(f'{"ok" if ok else "not ok"} {n} {name}')
    passed = sum(1 for ok, _, _ in cases if ok)
    print(f'# blktrace_stock: {total} events compared over {len(keys)} sequence(s)')
    print(f'{passed} passed, {len(cases) - passed} failed')
    return 0 if passed == len(cases) else 1


if __name__ == '__main__':
    sys.exit(main())
