#!/usr/bin/env python3
"""Checks that a junit.xml has the shape CI systems read (Jenkins, GitLab,
GitHub test reporters): the structure of the JUnit XML schema they share.

    junit_check.py FILE [--tests N] [--failures N] [--errors N] [--skipped N]

  - the root is <testsuites> holding one or more <testsuite>;
  - every <testsuite> has a name and integer tests/failures/errors/skipped
    attributes equal to the counts of its <testcase> children, of those with
    a <failure>, an <error> and a <skipped>; time, when present, is a
    non-negative number; timestamp, when present, is YYYY-MM-DDTHH:MM:SS
    (the schema's form: no zone);
  - <testsuites>' own counts, when present, are the sums over its suites;
  - every <testcase> has a non-empty name and classname, a numeric time when
    it has one, at most one of <failure>/<error>/<skipped>, and only the
    children the schema allows;
  - every <failure>, <error> and <skipped> has a message attribute;
  - with --tests etc., the totals are the ones given.

Standard library only. Exit 0 when every rule holds, 1 with one line per
broken rule otherwise, 2 on bad arguments.
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

RESULTS = ("failure", "error", "skipped")
CASE_CHILDREN = set(RESULTS) | {"system-out", "system-err", "properties"}
SUITE_CHILDREN = {"testcase", "properties", "system-out", "system-err", "testsuite"}
COUNTS = ("tests", "failures", "errors", "skipped")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$")


def is_number(text):
    try:
        return float(text) >= 0
    except (TypeError, ValueError):
        return False


def check_case(case, where, problems):
    for attr in ("name", "classname"):
        if not case.get(attr):
            problems.append(f"{where}: no {attr}")
    if case.get("time") is not None and not is_number(case.get("time")):
        problems.append(f"{where}: time {case.get('time')!r} is not a number")
    results = [child for child in case if child.tag in RESULTS]
    if len(results) > 1:
        problems.append(f"{where}: {len(results)} result elements, at most one allowed")
    for child in case:
        if child.tag not in CASE_CHILDREN:
            problems.append(f"{where}: unexpected <{child.tag}>")
        if child.tag in RESULTS and child.get("message") is None:
            problems.append(f"{where}: <{child.tag}> without a message")
    return {tag: any(child.tag == tag for child in case) for tag in RESULTS}


def count_attr(element, attr, where, problems):
    value = element.get(attr)
    if value is None or not re.fullmatch(r"\d+", value):
        problems.append(f"{where}: {attr}={value!r} is not a non-negative integer")
        return None
    return int(value)


def check_suite(suite, index, problems):
    where = f"testsuite[{index}] {suite.get('name')!r}"
    if not suite.get("name"):
        problems.append(f"testsuite[{index}]: no name")
    for child in suite:
        if child.tag not in SUITE_CHILDREN:
            problems.append(f"{where}: unexpected <{child.tag}>")
    cases = suite.findall("testcase")
    found = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
    for k, case in enumerate(cases):
        has = check_case(case, f"{where} testcase[{k}] {case.get('name')!r}", problems)
        found["failures"] += has["failure"]
        found["errors"] += has["error"]
        found["skipped"] += has["skipped"]
    for attr in COUNTS:
        declared = count_attr(suite, attr, where, problems)
        if declared is not None and declared != found[attr]:
            problems.append(f"{where}: {attr}=\"{declared}\" but it holds {found[attr]}")
    if suite.get("time") is not None and not is_number(suite.get("time")):
        problems.append(f"{where}: time {suite.get('time')!r} is not a number")
    stamp = suite.get("timestamp")
    if stamp is not None and not TIMESTAMP.match(stamp):
        problems.append(f"{where}: timestamp {stamp!r} is not YYYY-MM-DDTHH:MM:SS")
    return found


def check(path, expected):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        return [f"{path}: not well-formed XML: {e}"], None
    if root.tag != "testsuites":
        return [f"{path}: the root is <{root.tag}>, expected <testsuites>"], None
    suites = root.findall("testsuite")
    if not suites:
        problems.append("<testsuites> holds no <testsuite>")
    totals = dict.fromkeys(COUNTS, 0)
    for index, suite in enumerate(suites):
        for attr, n in check_suite(suite, index, problems).items():
            totals[attr] += n
    for attr in COUNTS:
        if root.get(attr) is not None:
            declared = count_attr(root, attr, "testsuites", problems)
            if declared is not None and declared != totals[attr]:
                problems.append(f"testsuites: {attr}=\"{declared}\" but its suites hold "
                                f"{totals[attr]}")
        if expected.get(attr) is not None and expected[attr] != totals[attr]:
            problems.append(f"{attr}: {totals[attr]}, expected {expected[attr]}")
    return [f"{path}: {p}" for p in problems], totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    for attr in COUNTS:
        parser.add_argument(f"--{attr}", type=int)
    args = parser.parse_args()
    problems, totals = check(args.file, {attr: getattr(args, attr) for attr in COUNTS})
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"ok: {args.file}: " + ", ".join(f"{totals[a]} {a}" for a in COUNTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
