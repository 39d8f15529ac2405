/* report_junit: junit.xml, the shape CI systems read:
 *
 *   <testsuites name="gmfuzz" tests failures errors skipped time>
 *     <testsuite name="gmfuzz" tests failures errors skipped time timestamp>
 *       <properties>...how the run was made...</properties>
 *       <testcase classname="gmfuzz.campaign" name="campaign"/>   always;
 *           an <error type="infrastructure"> when the campaign had a
 *           problem or never finished
 *       <testcase classname="gmfuzz.<mode>" name="<signature>">   one per
 *           signature: a <failure type="new_signature"> when it is new,
 *           <skipped> when the baseline triaged it as bug or wontfix,
 *           passing (with the explanation in <system-out>) when accepted
 *
 * The campaign testcase keeps the suite from ever being empty: several CI
 * systems treat a report with no testcase as a broken report, and a clean
 * nightly run should show as one passing test, not as none. */
#ifndef REPORT_JUNIT_H
#define REPORT_JUNIT_H

#include "report_text.h"
#include "report_view.h"

void report_junit_build(const report_view *v, report_text *out);

#endif
