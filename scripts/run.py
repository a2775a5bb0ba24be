#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot one test kernel in QEMU and judge its console log.

    scripts/run.py --arch x86_64                  boot build/obj-x86_64 + initramfs
    scripts/run.py --arch i386 --append harness.only=boot --tee
    scripts/run.py --arch arm64                   qemu-system-aarch64 -M virt
    scripts/run.py --parse build/logs/x86_64.log  judge an existing log only
    scripts/run.py step LABEL OUTPUT RC           a step's KTAP for the total
    scripts/run.py total FILE                     "N passed, N failed[, N skipped]"

Every guest gets a virtio-blk disk, build/disks/NAME.img, rewritten
before each boot (see make_disk()).  The log is written to
build/logs/NAME.log (NAME defaults to ARCH).  Then:
  * KTAP: every "KTAP version 1" document in the log is parsed (KUnit's from
    the kernel and the guest scripts' from /init); leaf results are counted as
    passed / failed / skipped, every plan "1..N" is checked against the
    results that follow it, failures are named suite.case;
  * console: oopses, BUGs, WARNINGs, sanitizer and lockdep reports, panics,
    RCU stalls, soft lockups, hung tasks, kmemleak reports, backtraces;
  * the guest must print "harness: guest done" (else hang, crash or timeout);
  * every case listed in tests/expected/ARCH.txt must have passed (or
    skipped, where the file says why), and no other case may appear.
Prints the verdict as a KTAP document (passed and skipped cases, then one
"not ok" per problem), one "FAIL: ..." line per problem and finally exactly
one line "N passed, N failed[, N skipped]" in which every problem counts as
failed.
Exit status 0 only if nothing failed and at least one test passed.
See tests/README.md.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DONE_MARKER = 'harness: guest done'

# "[    1.234567] " and, with CONFIG_PRINTK_CALLER, "[    1.234567][    T1] "
TIMESTAMP = re.compile(r'\[\s*\d+\.\d+\](?:\[\s*[TC]\d+\])? ?')
# Terminal control sequences (the firmware clears the screen before Linux).
ESCAPE = re.compile(r'\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[@-Z\\-_c])')

CONSOLE_PROBLEMS = [(re.compile(p), label) for p, label in [
    (r'Kernel panic', 'kernel panic'),
    (r'general protection fault', 'general protection fault'),
    (r'\bOops\b', 'oops'),
    (r'\bKASAN\b', 'KASAN report'),
    (r'BUG: KCSAN: ', 'KCSAN report'),
    (r'\bUBSAN\b', 'UBSAN report'),
    (r'soft lockup', 'soft lockup'),
    (r'BUG:', 'BUG'),
    (r'WARNING:', 'WARNING'),
    (r'possible recursive locking|possible circular locking|'
     r'inconsistent lock state|suspicious RCU usage|INFO: lockdep|'
     r'possible irq lock inversion|lock held when returning|'
     r'bad unlock balance', 'lockdep report'),
    (r'RCU stall|self-detected stall|detected stalls? on|rcu: INFO', 'RCU stall'),
    (r'hung_task|blocked for more than', 'hung task'),
    (r'kmemleak: .*unreferenced object|unreferenced object 0x', 'kmemleak report'),
    (r'Call Trace:', 'backtrace'),
    (r'^harness: error:', 'harness error'),
]]

VERSION_RE = re.compile(r'^( *)K?TAP version \d+\s*$')
NAME_RE = re.compile(r'^( *)# (?:Subtest|Suite): *(\S.*?)\s*$')
PLAN_RE = re.compile(r'^( *)1\.\.(\d+)\s*(?:#.*)?$')
RESULT_RE = re.compile(r'^( *)(ok|not ok) +(\d+)(?: +-)?(?: +([^#]*?))?\s*(?:#\s*(.*?))?\s*$')


# ---------------------------------------------------------------- KTAP ---

class Frame:
    """One KTAP (sub)test list: version line, optional name, plan, results."""

    def __init__(self, indent, lineno, name=None):
        self.indent = indent
        self.lineno = lineno
        self.name = name
        self.plan = None
        self.results = []


class Result:
    def __init__(self, ok, number, name, directive, children, lineno):
        self.ok = ok
        self.number = number
        self.name = name
        self.directive = directive or ''
        self.children = children    # Frame of the subtests, or None
        self.lineno = lineno

    @property
    def skipped(self):
        return self.directive.upper().startswith(('SKIP', 'TODO'))


def parse_ktap(lines):
    """lines: [(lineno, text)] of one output channel -> list of top-level Frames."""
    docs, stack = [], []

    def close_to(indent):
        """Close the frames deeper than indent; return the last one closed."""
        child = None
        while stack and stack[-1].indent > indent:
            child = stack.pop()
        return child

    for lineno, line in lines:
        m = VERSION_RE.match(line)
        if m:
            indent = len(m.group(1))
            if indent == 0 or not stack:
                stack.clear()
                stack.append(Frame(indent, lineno))
                docs.append(stack[-1])
            else:
                close_to(indent - 1)
                if not stack:
                    continue
                stack.append(Frame(indent, lineno))
            continue
        if not stack:
            continue
        m = NAME_RE.match(line)
        if m:
            indent, name = len(m.group(1)), m.group(2)
            top = stack[-1]
            if indent == top.indent and top.name is None and not top.results:
                top.name = name
            elif indent > top.indent:     # "# Subtest:" without a version line
                stack.append(Frame(indent, lineno, name))
            continue
        m = PLAN_RE.match(line)
        if m:
            indent = len(m.group(1))
            if indent > stack[-1].indent:
                stack.append(Frame(indent, lineno))
            if indent == stack[-1].indent and stack[-1].plan is None:
                stack[-1].plan = int(m.group(2))
            continue
        m = RESULT_RE.match(line)
        if m:
            indent = len(m.group(1))
            if indent < stack[0].indent:
                continue
            child = close_to(indent)
            if stack and stack[-1].indent == indent:
                stack[-1].results.append(Result(m.group(2) == 'ok', int(m.group(3)),
                                                (m.group(4) or '').strip() or '?',
                                                m.group(5), child, lineno))
    return docs


# Suites that check the harness itself (tests/guest/05-harness.sh and its
# KUnit module): their failures count, their passes are not the product's.
HARNESS_SUITES = ('harness', 'harness_selftest')


class Verdict:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.harness_passed = 0   # passes of HARNESS_SUITES, not in passed
        self.problems = []        # (message) each counted as one failure
        self.suites = set()
        self.leaves = {}          # path -> (status, skip reason) of every leaf

    def problem(self, msg):
        self.failed += 1
        self.problems.append(msg)


def judge_frame(frame, path, verdict, top=False):
    """Count the leaves below frame; return True if anything below failed."""
    where = '.'.join(path) or '(top level)'
    bad = False
    if frame.plan is None:
        if top:
            verdict.problem(f'{where}: KTAP document without a plan (line {frame.lineno})')
            bad = True
    elif frame.plan != len(frame.results):
        verdict.problem(f'{where}: planned {frame.plan} test(s) but {len(frame.results)} '
                        f'reported (missing or extra results, line {frame.lineno})')
        bad = True
    for r in frame.results:
        rpath = path + [r.name]
        if len(rpath) == 1:
            verdict.suites.add(r.name)
        kids = r.children
        if kids is not None and (kids.results or kids.plan):
            sub_bad = judge_frame(kids, rpath, verdict)
            if not r.ok and not r.skipped and not sub_bad:
                verdict.problem(f'not ok {".".join(rpath)} (line {r.lineno})')
                sub_bad = True
            bad |= sub_bad
        elif '.'.join(rpath) in verdict.leaves:
            verdict.problem(f'{".".join(rpath)} reported twice (line {r.lineno}): '
                            'case names must be unique')
            bad = True
        elif r.skipped:
            verdict.skipped += 1
            reason = re.sub(r'^(?i:skip|todo)\s*', '', r.directive)
            verdict.leaves['.'.join(rpath)] = ('skip', reason)
        elif r.ok:
            if rpath[0] in HARNESS_SUITES:
                verdict.harness_passed += 1
            else:
                verdict.passed += 1
            verdict.leaves['.'.join(rpath)] = ('ok', '')
        else:
            verdict.leaves['.'.join(rpath)] = ('not ok', '')
            verdict.problem(f'not ok {".".join(rpath)} (line {r.lineno})')
            bad = True
    return bad


# ------------------------------------------------------------- the log ---

def split_channels(text):
    """Separate kernel messages (timestamped) from guest userspace output.

    KUnit writes through printk, the guest scripts write to /dev/console:
    parsing the two streams separately keeps a module's KUnit document from
    being mistaken for part of the script document that loaded the module.
    A kernel message that broke into the middle of a userspace line is cut
    out and the two halves of the userspace line are joined again.
    """
    kernel, user, pending = [], [], ''
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = ESCAPE.sub('', raw.replace('\r', ''))
        m = TIMESTAMP.search(line)
        if m:
            if m.start() > 0:
                pending += line[:m.start()]
            kernel.append((lineno, line[m.end():]))
        else:
            user.append((lineno, pending + line))
            pending = ''
    if pending:
        user.append((len(text.splitlines()), pending))
    return kernel, user


def judge_log(text, expected=None, timed_out=None, done=DONE_MARKER):
    verdict = Verdict()
    kernel, user = split_channels(text)
    for channel in (kernel, user):
        for doc in parse_ktap(channel):
            judge_frame(doc, [doc.name] if doc.name else [], verdict, top=True)
            if doc.name:
                verdict.suites.add(doc.name)
    # Console problems: kernel messages (all lines if there are no timestamps)
    # and the harness's own error lines.
    checked = kernel if kernel else user
    for lineno, line in checked + [u for u in user if u[1].startswith('harness: error:')]:
        for pattern, label in CONSOLE_PROBLEMS:
            if pattern.search(line):
                verdict.problem(f'console: {label} (line {lineno}): {line.strip()}')
                break
    finished = any(line.strip() == done for _, line in user)
    if not finished:
        why = f'timeout after {timed_out} s' if timed_out else 'no "' + done + '" line'
        verdict.problem(f'guest did not finish ({why}: hang, crash or panic)')
    check_expected(verdict, expected)
    if verdict.passed == 0 and verdict.failed == 0:
        verdict.problem('no test passed')
    return verdict


class Expected:
    """tests/expected/NAME.txt: every leaf result a boot must print.

    One line per case, "SUITE.CASE" (must pass) or "SUITE.CASE SKIP REASON"
    (may skip, for a reason that starts with REASON: e.g. a feature an arch
    does not have); '#' starts a comment line.  "include FILE" reads the
    cases of FILE (beside this one) there: a later line of a case replaces
    an earlier one, so that a variant lists only what differs.  A listed case that did not run, a must-pass
    case that skipped, and any case not listed fail the run, so that
    neither a skip nor a vanished test can hide.  Write a first version
    from a log with --write-expected, then check every SKIP line.
    """

    def __init__(self, path=None):
        self.path = path
        self.cases = {}           # path -> None (must pass) or skip reason
        if path:
            self._read(path, [])

    def _read(self, path, seen):
        real = os.path.realpath(path)
        if real in seen:
            raise SystemExit(f'{path}: included from itself')
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                case, _, rest = line.partition(' ')
                if case == 'include':
                    if not rest.strip():
                        raise SystemExit(f'{path}:{lineno}: "include FILE" expected')
                    self._read(os.path.join(os.path.dirname(path), rest.strip()),
                               seen + [real])
                    continue
                rest = rest.strip()
                if rest and not rest.startswith('SKIP'):
                    raise SystemExit(f'{path}:{lineno}: "CASE" or "CASE SKIP REASON" expected')
                reason = rest[4:].strip() if rest else None
                if rest and not reason:
                    raise SystemExit(f'{path}:{lineno}: an expected skip needs its reason')
                self.cases[case] = reason

    def __bool__(self):
        return bool(self.path)


def check_expected(verdict, expected):
    if not expected:
        return
    name = os.path.relpath(expected.path, TOP)
    for case, reason in expected.cases.items():
        status, why = verdict.leaves.get(case, (None, ''))
        if status is None:
            verdict.problem(f'expected case {case} did not run')
        elif status == 'skip' and reason is None:
            verdict.problem(f'{case} skipped ({why}) but must pass ({name})')
        elif status == 'skip' and not why.startswith(reason):
            verdict.problem(f'{case} skipped for another reason: "{why}", '
                            f'{name} expects "{reason}"')
    for case, (status, why) in verdict.leaves.items():
        if case in expected.cases:
            continue
        if status == 'skip':
            verdict.problem(f'unexpected skip: {case} ({why}); not listed in {name}')
        elif status == 'ok':
            verdict.problem(f'case {case} is not listed in {name}')


def write_expected(verdict, path):
    with open(path, 'w') as f:
        f.write('# Every result of this boot (scripts/run.py, class Expected).\n')
        for case, (status, why) in sorted(verdict.leaves.items()):
            if status == 'skip':
                f.write(f'{case} SKIP {why}\n')
            else:
                f.write(f'{case}\n')


# ---------------------------------------------------------------- QEMU ---

def read_arches():
    """configs/arches: one dict per arch, fields named by its header line."""
    arches, cols = {}, None
    with open(os.path.join(TOP, 'configs', 'arches')) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith('#'):
                continue
            if cols is None:
                cols = fields
                continue
            arches[fields[0]] = {k: ('' if v == '-' else v) for k, v in zip(cols, fields)}
    return arches


ARCHES = read_arches()


def accel_for(arch):
    """$ACCEL (default tcg); kvm only where the host can run the guest."""
    accel = os.environ.get('ACCEL', 'tcg')
    if accel == 'kvm' and ARCHES[arch]['kvmhost'] != os.uname().machine:
        return 'tcg'
    return accel


# The guest's virtio-blk disk (tests/guest/30-blktrace.sh): a fresh
# image for every boot, so that every kernel sees the same disk.
DISK_SECTORS = 131072               # 64 MiB
PART_START, PART_SECTORS = 2048, 61440


def make_disk(path):
    """Write a zeroed raw image with an MBR: partition 1 (Linux) at PART_START."""
    mbr = bytearray(512)
    mbr[440:444] = (0x626c6b74).to_bytes(4, 'little')        # disk signature
    entry = bytes([0x00, 0xfe, 0xff, 0xff, 0x83, 0xfe, 0xff, 0xff])
    entry += PART_START.to_bytes(4, 'little') + PART_SECTORS.to_bytes(4, 'little')
    mbr[446:462] = entry
    mbr[510:512] = b'\x55\xaa'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(mbr)
        f.truncate(DISK_SECTORS * 512)


def nvme_multipath_args(image, paths):
    """QEMU arguments of one NVMe subsystem with PATHS controllers that all
    reach namespace 1, backed by IMAGE (a fresh zeroed 64 MiB file): the
    guest's NVMe multipath head /dev/nvme0n1 (tests/guest/blkstack.sh)."""
    with open(image, 'wb') as f:
        f.truncate(64 << 20)
    args = ['-drive', f'file={image},format=raw,if=none,id=nvm',
            '-device', 'nvme-subsys,id=nvmes,nqn=markers-test']
    for i in range(paths):
        args += ['-device', f'nvme,id=nvme{i},serial=markers,subsys=nvmes']
    return args + ['-device', 'nvme-ns,drive=nvm,nsid=1,shared=on']


def qemu_command(arch, kernel, initrd, append, disk=None, icount=None, extra=(),
                 tools=None, mem=None):
    a = ARCHES[arch]
    binary, console = a['qemu'], ' '.join(filter(None, (a['console'], a['append'])))
    machine = ['-M', a['machine']] if a['machine'] else []
    accel = accel_for(arch)
    if accel == 'kvm':
        accel_args = ['-accel', 'kvm', '-cpu', 'host']
    else:
        cpu = a['cpu']
        # icount (deterministic: one instruction per 2^SHIFT ns of virtual
        # time, which the guest TSC follows) needs single-threaded TCG;
        # sleep=off lets virtual time jump over idle periods.
        if icount is not None:
            accel_args = ['-accel', 'tcg,thread=single', '-cpu', cpu,
                          '-icount', f'shift={icount},sleep=off']
        else:
            # Single-threaded TCG by default: QEMU 7.2's multi-threaded TCG
            # can keep running a stale translation of code another vCPU
            # has just rewritten, so a CPU executes a text_poke_bp() INT3
            # after the patching finished ("Oops: int3"). The pristine
            # kernel shows it too, toggling the function tracer under
            # load (tests/README.md, "QEMU"). TCG_THREAD=multi is faster.
            thread = os.environ.get('TCG_THREAD', 'single')
            accel_args = ['-accel', f'tcg,thread={thread}', '-cpu', cpu]
    # immediate_test_early: value the immediate KUnit suite sets from an
    # early_param() handler, to test immediate_set_early().
    # log_buf_len: room for a whole run, so that the scripts' kmsg_since()
    # checks never see the log wrap (they fail if it does).
    cmdline = f'console={console} panic=-1 log_buf_len=1M immediate_test_early=1234 ' + append
    drive = ['-drive', f'file={disk},format=raw,if=virtio,cache=writeback'] if disk else []
    # The tools image (tests/guest/tools.sh): the second disk, read-only.
    if tools:
        drive += ['-drive', f'file={tools},format=raw,if=virtio,readonly=on']
    return [binary, *machine, *accel_args, '-smp', os.environ.get('SMP', '4'),
            '-m', mem or os.environ.get('MEM', '512'), '-nographic', '-no-reboot', '-nic', 'none',
            *drive, '-kernel', kernel, '-initrd', initrd, '-append', cmdline.strip(), *extra]


def provenance():
    """'# ' lines naming the host CPU and the trees a log comes from."""
    cpu = '?'
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next((ln.split(':', 1)[1].strip() for ln in f if ln.startswith('model name')), '?')
    except OSError:
        pass

    def git(*args):
        p = subprocess.run(['git', *args], capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else '?'
    tree = git('-C', TOP, 'describe', '--always', '--dirty', '--abbrev=12')
    kernel = git('-C', os.path.join(TOP, 'build', 'linux'), 'rev-parse', '--short=12', 'HEAD')
    return (f'# host: {os.cpu_count()} x {cpu}, {os.uname().release}\n'
            f'# checkout: {tree}, build/linux: {kernel}\n')


def boot(cmd, log_path, timeout, tee):
    """Run QEMU with its console into log_path; return seconds on timeout, else None."""
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, 'wb') as log:
        log.write(provenance().encode())
        log.write(('# ' + ' '.join(cmd) + '\n').encode())
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)

        def pump():
            pending, show = b'', tee
            for chunk in iter(lambda: proc.stdout.read1(65536), b''):
                log.write(chunk)
                log.flush()
                if show:    # whole lines, without the firmware's screen clearing
                    pending += chunk
                    lines, _, pending = pending.rpartition(b'\n')
                    if lines:
                        text = ESCAPE.sub('', (lines + b'\n').decode('utf-8', 'replace'))
                        if show == 'user':      # the guest's own lines only
                            text = ''.join(ln for ln in text.splitlines(True)
                                           if not TIMESTAMP.match(ln.replace('\r', '')))
                        try:
                            sys.stdout.write(text)
                            sys.stdout.flush()
                        except BrokenPipeError:
                            show = False
            if show and pending:
                sys.stdout.write(ESCAPE.sub('', pending.decode('utf-8', 'replace')) + '\n')

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        try:
            proc.wait(timeout=timeout)
            timed_out = None
        except subprocess.TimeoutExpired:
            timed_out = timeout
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                    proc.wait(timeout=5)
                    break
                except (subprocess.TimeoutExpired, ProcessLookupError):
                    continue
        reader.join(timeout=5)
        if timed_out:
            log.write(f'\n# run.py: timeout after {timeout} s, QEMU killed\n'.encode())
    return timed_out


# ------------------------------------------------- steps and the total ---

def ktap_name(text):
    """A KTAP case name: no spaces, no '#'."""
    return re.sub(r'[^A-Za-z0-9_.:/+-]+', '_', text).strip('_')[:120] or '?'


def print_verdict_ktap(name, v):
    """The verdict of one log as a KTAP document: leaves, then problems."""
    rows = []
    for path, (status, why) in v.leaves.items():
        if status == 'ok' and path.split('.')[0] not in HARNESS_SUITES:
            rows.append(('ok', path, ''))
        elif status == 'skip':
            rows.append(('ok', path, ' # SKIP ' + why.replace('#', '')))
    print('KTAP version 1')
    print(f'# Suite: {name}')
    print(f'1..{len(rows) + len(v.problems)}')
    for n, (res, path, tail) in enumerate(rows, 1):
        print(f'{res} {n} {path}{tail}')
    for n, msg in enumerate(v.problems, len(rows) + 1):
        print(f'# {msg}')
        print(f'not ok {n} {ktap_name(msg.split(":")[0] if ":" in msg[:40] else msg)}')


def last_document(text):
    """The last top-level KTAP document of a step's output, as a Verdict."""
    docs = parse_ktap(list(enumerate(text.splitlines(), 1)))
    v = Verdict()
    if docs:
        doc = docs[-1]
        judge_frame(doc, [doc.name] if doc.name else [], v, top=True)
    return v, bool(docs)


def step_main(label, out_path, rc):
    """One step of make test / make stress: its output's last KTAP document,
    re-emitted under the step's label for the total; the exit status counts."""
    with open(out_path, errors='replace') as f:
        v, found = last_document(f.read())
    if not found:
        v.problem(f'{label}: printed no KTAP document (crashed?)')
    elif rc != 0 and v.failed == 0:
        v.problem(f'{label}: exit status {rc} with no failed case')
    print_verdict_ktap(label, v)


def total_main(path):
    """Sum of every top-level KTAP document in path (the steps' documents)."""
    v = Verdict()
    with open(path, errors='replace') as f:
        docs = parse_ktap(list(enumerate(f.read().splitlines(), 1)))
    for doc in docs:
        judge_frame(doc, [doc.name] if doc.name else [], v, top=True)
    if not docs:
        v.problem('no step reported anything')
    summary = f'{v.passed} passed, {v.failed} failed'
    if v.skipped:
        summary += f', {v.skipped} skipped'
    print(summary)
    return 0 if v.failed == 0 and v.passed > 0 else 1


def main():
    # run.py step LABEL OUTPUT RC / run.py total FILE (scripts/steps.sh)
    if len(sys.argv) == 5 and sys.argv[1] == 'step':
        step_main(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == 'total':
        return total_main(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--arch', default='x86_64', choices=sorted(ARCHES))
    ap.add_argument('--kernel', help='default build/obj-ARCH/arch/x86/boot/bzImage '
                    '(arm64: arch/arm64/boot/Image)')
    ap.add_argument('--initrd', help='default build/initramfs-ARCH.cpio.gz')
    ap.add_argument('--append', default='', help='extra kernel command line')
    ap.add_argument('--timeout', type=int, default=int(os.environ.get('TIMEOUT', 300)),
                    help='seconds before QEMU is killed (default $TIMEOUT or 300)')
    ap.add_argument('--name', help='log name: build/logs/NAME.log (default ARCH)')
    ap.add_argument('--expect', help='file of the cases that must run (default '
                    'tests/expected/ARCH.txt if present; "none" for no check)')
    ap.add_argument('--tee', action='store_true', default=bool(os.environ.get('TEE')),
                    help='also copy the console to stdout (default $TEE)')
    ap.add_argument('--tee-user', action='store_true',
                    help='copy only the guest\'s own lines (no kernel messages) to stdout')
    ap.add_argument('--parse', metavar='LOG', help='do not boot; judge an existing log')
    ap.add_argument('--done', default=DONE_MARKER, metavar='LINE',
                    help='the line that says the log is complete (default "%(default)s"; '
                    'a kunit.py UML run ends with "reboot: System halted")')
    ap.add_argument('--icount', type=int, metavar='SHIFT',
                    help='TCG only: -icount shift=SHIFT (single-threaded, deterministic)')
    ap.add_argument('--tools', metavar='IMG',
                    help='the tools image (tests/mkinitramfs.sh) as the second disk, /dev/vdb')
    ap.add_argument('--mem', help='guest memory, as for QEMU -m (default $MEM or 512)')
    ap.add_argument('--nvme-paths', type=int, default=0, metavar='N',
                    help='an NVMe subsystem with N controllers sharing one namespace')
    ap.add_argument('--qemu-arg', action='append', default=[], metavar='ARG',
                    help='extra QEMU argument (repeat for several)')
    ap.add_argument('--write-expected', metavar='FILE',
                    help='write the results of this log as an expected file (see Expected)')
    ap.add_argument('-v', '--verbose', action='store_true', help='list every test result')
    args = ap.parse_args()

    expect = args.expect
    if expect is None:
        default = os.path.join(TOP, 'tests', 'expected', args.arch + '.txt')
        expect = default if os.path.exists(default) and not args.parse else None
    expected = Expected(None if expect == 'none' else expect)

    timed_out = None
    if args.parse:
        log_path = args.parse
    else:
        obj = os.path.join(TOP, 'build', 'obj-' + args.arch)
        kernel = args.kernel or os.path.join(obj, ARCHES[args.arch]['image'])
        initrd = args.initrd or os.path.join(TOP, 'build', f'initramfs-{args.arch}.cpio.gz')
        for f in (kernel, initrd):
            if not os.path.exists(f):
                sys.exit(f'run.py: {f} missing (build it first: make kernel / scripts/test.sh)')
        log_path = os.path.join(TOP, 'build', 'logs', (args.name or args.arch) + '.log')
        disk = os.path.join(TOP, 'build', 'disks', (args.name or args.arch) + '.img')
        make_disk(disk)
        if args.icount is not None and accel_for(args.arch) == 'kvm':
            sys.exit('run.py: --icount needs TCG, not ACCEL=kvm')
        extra = list(args.qemu_arg)
        if args.nvme_paths:
            extra += nvme_multipath_args(os.path.splitext(disk)[0] + '-nvme.img', args.nvme_paths)
        cmd = qemu_command(args.arch, kernel, initrd, args.append, disk,
                           args.icount, extra, args.tools, args.mem)
        print(f'run.py: booting {os.path.relpath(kernel, TOP)} ({args.arch}, {accel_for(args.arch)}'
              f'{", " + args.append if args.append else ""}), log: '
              f'{os.path.relpath(log_path)}', flush=True)
        start = time.monotonic()
        timed_out = boot(cmd, log_path, args.timeout, 'user' if args.tee_user else args.tee)
        print(f'run.py: guest ran {time.monotonic() - start:.1f} s'
              f'{" (killed at timeout)" if timed_out else ""}', flush=True)

    with open(log_path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    v = judge_log(text, expected, timed_out, args.done)
    if args.write_expected:
        write_expected(v, args.write_expected)
    if args.verbose:
        for path, (status, why) in v.leaves.items():
            print(f'{status} {path}{" # " + why if why else ""}')
    if v.harness_passed:
        print(f'run.py: {v.harness_passed} harness check(s) passed (not counted below)')
    print_verdict_ktap(os.path.splitext(os.path.basename(log_path))[0], v)
    for msg in v.problems:
        print('FAIL: ' + msg)
    summary = f'{v.passed} passed, {v.failed} failed'
    if v.skipped:
        summary += f', {v.skipped} skipped'
    print(summary)
    return 0 if v.failed == 0 and v.passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
