#!/usr/bin/env python3
"""Reads a JUnit report with junitparser, a reader other than the suite's own, and checks a passing run of N vectors.

    check-junit-report.py REPORT N

N test cases, each classname + name once, suite counts that add up to N, and every case passed or skipped.
"""

import sys

from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
expected = int(sys.argv[2])
cases = [case for suite in xml for case in suite]
names = {(case.classname, case.name) for case in cases}
assert len(cases) == expected, f"junitparser read {len(cases)} testcases, expected {expected}"
assert len(names) == expected, "classname + name is not unique"
assert sum(suite.tests for suite in xml) == expected, "suite counts do not add up"
bad = [case.name for case in cases if not case.is_passed and not case.is_skipped]
assert not bad, f"not passed: {bad[:5]}"
print(f"junitparser: {len(cases)} testcases, {len(xml)} suites, all passed")
