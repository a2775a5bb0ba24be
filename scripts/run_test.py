#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the verdicts of scripts/run.py and scripts/blkcmp.py.

Every way a boot can fail must fail: over the sample logs of tests/selftest/
and small logs written here; and the steps' KTAP and its sum (steps.sh).  Run directly, it prints KTAP and a last line
"N passed, N failed" (scripts/test.sh); python3 -m unittest works too.
"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

TOP = run.TOP
SAMPLES = os.path.join(TOP, 'tests', 'selftest')
DONE = 'harness: guest done\n'


def sample(name):
    with open(os.path.join(SAMPLES, name)) as f:
        return f.read()


def script_doc(suite, *results):
    """A guest script's KTAP document; results are 'ok', 'not ok' or a skip reason."""
    lines = ['KTAP version 1', f'# Suite: {suite}', f'1..{len(results)}']
    for i, (name, res) in enumerate(results, 1):
        if res in ('ok', 'not ok'):
            lines.append(f'{res} {i} {name}')
        else:
            lines.append(f'ok {i} {name} # SKIP {res}')
    return '\n'.join(lines) + '\n'


def expected_file(text):
    f = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
    f.write(text)
    f.close()
    return run.Expected(f.name)


class ParserTest(unittest.TestCase):

    def problems(self, verdict, fragment):
        return [p for p in verdict.problems if fragment in p]

    def test_good_log(self):
        v = run.judge_log(sample('good.log'))
        self.assertEqual(v.problems, [])
        # The harness suites pass but are not counted as the product's.
        self.assertEqual((v.passed, v.failed, v.skipped, v.harness_passed), (3, 0, 1, 4))

    def test_plan_mismatch(self):
        v = run.judge_log(sample('missing-test.log'))
        self.assertTrue(self.problems(v, 'boot: planned 3 test(s) but 2 reported'))
        self.assertTrue(self.problems(v, 'not ok kunit_suite.bad_case'))
        self.assertEqual((v.passed, v.failed), (3, 2))

    def test_warning_and_no_end(self):
        v = run.judge_log(sample('warn.log'))
        self.assertTrue(self.problems(v, 'console: WARNING'))
        self.assertTrue(self.problems(v, 'console: backtrace'))
        self.assertTrue(self.problems(v, 'guest did not finish'))

    def test_sanitizer_reports(self):
        v = run.judge_log(sample('sanitizers.log'))
        for label in ('KASAN report', 'KCSAN report', 'lockdep report', 'RCU stall',
                      'kmemleak report', 'BUG (line'):
            self.assertTrue(self.problems(v, 'console: ' + label), label)
        self.assertEqual((v.passed, v.failed), (1, 6))

    def test_harness_error_line(self):
        log = script_doc('s', ('a', 'ok')) + 'harness: error: 20-markers.sh exited with status 2\n' + DONE
        v = run.judge_log(log)
        self.assertTrue(self.problems(v, 'console: harness error'))

    def test_timeout(self):
        v = run.judge_log(script_doc('s', ('a', 'ok')), timed_out=40)
        self.assertTrue(self.problems(v, 'guest did not finish (timeout after 40 s'))

    def test_duplicate_case(self):
        # Two results of one name would hide one of them from the lists.
        v = run.judge_log(script_doc('s', ('a', 'ok'), ('a', 'ok')) + DONE)
        self.assertTrue(self.problems(v, 's.a reported twice'))

    def test_nothing_passed(self):
        v = run.judge_log(DONE)
        self.assertTrue(self.problems(v, 'no test passed'))

    def test_other_done_line(self):
        # A kunit.py UML run (scripts/um-test.sh) ends with its own line;
        # the guest's line does not end it, and a log without it fails.
        halted = 'reboot: System halted'
        doc = script_doc('s', ('a', 'ok'))
        self.assertEqual(run.judge_log(doc + halted + '\n', done=halted).problems, [])
        v = run.judge_log(doc + DONE, done=halted)
        self.assertTrue(self.problems(v, 'no "reboot: System halted" line'))


class ExpectedTest(unittest.TestCase):
    """The cases of tests/expected/: neither a skip nor a missing case can hide."""

    EXPECTED = 'markers.list_wellformed\nmarkers.fired_nmi SKIP no NMI on\n'

    def judge(self, *results):
        return run.judge_log(script_doc('markers', *results) + DONE,
                             expected_file(self.EXPECTED))

    def test_all_as_expected(self):
        v = self.judge(('list_wellformed', 'ok'), ('fired_nmi', 'no NMI on aarch64 (nmi_sent=0)'))
        self.assertEqual(v.problems, [])
        self.assertEqual((v.passed, v.skipped), (1, 1))

    def test_expected_skip_may_pass(self):
        v = self.judge(('list_wellformed', 'ok'), ('fired_nmi', 'ok'))
        self.assertEqual(v.problems, [])

    def test_missing_case(self):
        # E.g. the debugfs list removed: the case that reads it never runs.
        v = self.judge(('fired_nmi', 'ok'))
        self.assertEqual(v.problems, ['expected case markers.list_wellformed did not run'])

    def test_must_pass_case_skipped(self):
        v = self.judge(('list_wellformed', 'no /sys/kernel/debug/markers/list'), ('fired_nmi', 'ok'))
        self.assertEqual(len(v.problems), 1)
        self.assertIn('markers.list_wellformed skipped (no /sys/kernel/debug/markers/list) '
                      'but must pass', v.problems[0])

    def test_skip_for_another_reason(self):
        v = self.judge(('list_wellformed', 'ok'), ('fired_nmi', 'mstress.ko not built'))
        self.assertTrue(v.problems and 'skipped for another reason' in v.problems[0])

    def test_unexpected_skip(self):
        v = self.judge(('list_wellformed', 'ok'), ('fired_nmi', 'ok'), ('new_case', 'no tool'))
        self.assertEqual(len(v.problems), 1)
        self.assertIn('unexpected skip: markers.new_case (no tool)', v.problems[0])

    def test_all_skip_suite(self):
        # A suite whose every case skips, none of it listed as a skip.
        v = run.judge_log(script_doc('blktrace', ('solo', 'no blktrace'), ('shared', 'no blktrace'))
                          + script_doc('markers', ('list_wellformed', 'ok'), ('fired_nmi', 'ok'))
                          + DONE, expected_file(self.EXPECTED))
        self.assertEqual(len([p for p in v.problems if p.startswith('unexpected skip')]), 2)

    def test_unlisted_case(self):
        v = self.judge(('list_wellformed', 'ok'), ('fired_nmi', 'ok'), ('new_case', 'ok'))
        self.assertEqual(len(v.problems), 1)
        self.assertIn('case markers.new_case is not listed', v.problems[0])

    def test_bad_expected_line(self):
        with self.assertRaises(SystemExit):
            expected_file('markers.a SKIP\n')
        with self.assertRaises(SystemExit):
            expected_file('markers.a because\n')

    def test_write_expected_round_trip(self):
        log = script_doc('markers', ('a', 'ok'), ('b', 'no NMI')) + DONE
        v = run.judge_log(log)
        out = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False).name
        run.write_expected(v, out)
        self.assertEqual(run.Expected(out).cases, {'markers.a': None, 'markers.b': 'no NMI'})
        self.assertEqual(run.judge_log(log, run.Expected(out)).problems, [])

    def test_include(self):
        # A variant of a file: its own lines replace the included ones.
        base = expected_file('markers.a\nmarkers.b\n')
        variant = expected_file(f'include {os.path.basename(base.path)}\n'
                                'markers.b SKIP generic\nmarkers.c\n')
        self.assertEqual(variant.cases, {'markers.a': None, 'markers.b': 'generic',
                                         'markers.c': None})
        v = run.judge_log(script_doc('markers', ('a', 'ok'), ('b', 'generic values'),
                                     ('c', 'ok')) + DONE, variant)
        self.assertEqual(v.problems, [])
        # The included file's must-pass cases still must pass.
        v = run.judge_log(script_doc('markers', ('a', 'no tool'), ('b', 'ok'), ('c', 'ok'))
                          + DONE, variant)
        self.assertEqual(len(v.problems), 1)
        self.assertIn('markers.a skipped (no tool) but must pass', v.problems[0])
        with self.assertRaises(SystemExit):
            expected_file('include\n')
        loop = expected_file('markers.a\n')
        with open(loop.path, 'a') as f:
            f.write(f'include {os.path.basename(loop.path)}\n')
        with self.assertRaises(SystemExit):
            run.Expected(loop.path)

    def test_repository_expected_files_parse(self):
        d = os.path.join(TOP, 'tests', 'expected')
        for name in sorted(os.listdir(d)):
            self.assertTrue(run.Expected(os.path.join(d, name)).cases, name)


class StepsTest(unittest.TestCase):
    """scripts/steps.sh: every step's KTAP under its label, then the sum."""

    def step(self, label, output, rc):
        f = tempfile.NamedTemporaryFile('w', suffix='.out', delete=False)
        f.write(output)
        f.close()
        p = subprocess.run([sys.executable, run.__file__, 'step', label, f.name, str(rc)],
                           capture_output=True, text=True, check=True)
        return p.stdout

    def total(self, ktap):
        f = tempfile.NamedTemporaryFile('w', suffix='.ktap', delete=False)
        f.write(ktap)
        f.close()
        p = subprocess.run([sys.executable, run.__file__, 'total', f.name],
                           capture_output=True, text=True)
        return p.returncode, p.stdout.strip()

    def test_steps_sum(self):
        good = self.step('a', script_doc('s', ('x', 'ok'), ('y', 'no tool')) + '2 passed, 0 failed\n', 0)
        bad = self.step('b', script_doc('t', ('z', 'not ok')), 1)
        self.assertEqual(self.total(good + bad), (1, '1 passed, 1 failed, 1 skipped'))
        self.assertEqual(self.total(good), (0, '1 passed, 0 failed, 1 skipped'))

    def test_step_without_ktap(self):
        out = self.step('crashed', 'Traceback (most recent call last):\n', 1)
        self.assertEqual(self.total(out), (1, '0 passed, 1 failed'))

    def test_step_exit_status(self):
        # All cases passed, but the step exited non-zero: a failure.
        out = self.step('rc', script_doc('s', ('x', 'ok')), 2)
        self.assertEqual(self.total(out), (1, '1 passed, 1 failed'))

    def test_only_the_last_document_counts(self):
        # A console copied to the output (TEE=1) holds the guest's own
        # documents; run.py's verdict is the last one.
        out = self.step('boot', script_doc('guest', ('x', 'ok'), ('y', 'ok'))
                        + script_doc('verdict', ('guest.x', 'ok')), 0)
        self.assertEqual(self.total(out), (0, '1 passed, 0 failed'))

    def test_empty_total(self):
        self.assertEqual(self.total(''), (1, '0 passed, 1 failed'))


class BlkcmpTest(unittest.TestCase):

    def blkcmp(self, a, b, *opts):
        p = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'blkcmp.py'), *opts,
                            os.path.join(SAMPLES, a), os.path.join(SAMPLES, b)],
                           capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_identical(self):
        rc, out = self.blkcmp('blkcmp-stock.log', 'blkcmp-stock.log')
        self.assertEqual(rc, 0)
        self.assertEqual(out.splitlines()[-1], '4 passed, 0 failed')

    def test_difference(self):
        rc, out = self.blkcmp('blkcmp-patched.log', 'blkcmp-stock.log')
        self.assertNotEqual(rc, 0)
        self.assertIn('not ok 2 solo_vda', out)
        self.assertIn('\n# +D WS 2048 + 8\n', out)
        self.assertEqual(out.splitlines()[-1], '3 passed, 1 failed')

    def test_remap_without_origin(self):
        rc, out = self.blkcmp('blkcmp-nopayload.log', 'blkcmp-nopayload.log')
        self.assertNotEqual(rc, 0)
        self.assertIn('not ok 3 payloads_present', out)
        self.assertIn('# solo vda: A WS 2096 + 8\n', out)

    def test_completion_among_unrelated_requests(self):
        # An asynchronous completion may land before or after another
        # request's events: the same trace.
        rc, out = self.blkcmp('blkcmp-async-reordered.log', 'blkcmp-async-stock.log',
                              '--require', 'Q,D,C')
        self.assertEqual(rc, 0)
        self.assertIn('identical but for the order of completions', out)

    def test_completion_before_its_issue(self):
        rc, out = self.blkcmp('blkcmp-async-early.log', 'blkcmp-async-stock.log',
                              '--require', 'Q,D,C')
        self.assertNotEqual(rc, 0)
        self.assertIn('not ok 1 async_vdb', out)

    def test_required_action_missing(self):
        rc, out = self.blkcmp('blkcmp-stock.log', 'blkcmp-stock.log', '--require', 'Q,R,F')
        self.assertNotEqual(rc, 0)
        self.assertIn('# missing: R F', out)


class KtapResult(unittest.TextTestResult):
    """Prints one KTAP line per test as it ends."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.n = 0

    def line(self, test, ok, why=''):
        self.n += 1
        name = test.id().split('.', 1)[1].replace('.', '_')
        if why:
            for diag in why.rstrip().splitlines():
                print(f'# {diag}')
        print(f'{"ok" if ok else "not ok"} {self.n} {name}', flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.line(test, False, self._exc_info_to_string(err, test))


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print('KTAP version 1')
    print('# Suite: harness_parser')
    print(f'1..{suite.countTestCases()}', flush=True)
    with open(os.devnull, 'w') as null:
        res = unittest.TextTestRunner(stream=null, resultclass=KtapResult).run(suite)
    bad = len(res.failures) + len(res.errors)
    print(f'{res.testsRun - bad} passed, {bad} failed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
