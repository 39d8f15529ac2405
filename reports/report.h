/* report: the documents a run folder is summed up in, written next to it:
 *   report.md     one page for a terminal or a pull request
 *   summary.json  gmfuzz-summary-v1, for scripts (docs/FORMATS.md)
 *   junit.xml     one testcase per signature; new signatures fail
 *   report.html   self-contained (inline SVG and CSS), opens offline
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>

#include "gm_error.h"
#include "repro.h"

/* Writes the four documents of `r` into folder `out_dir` (each atomically);
 * the error names the file that could not be written. */
bool report_write_all(const repro_rundir *r, const char *out_dir, gm_error *err);

#endif
