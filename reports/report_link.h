/* report_link: how a report links a file (a reproducer, the coverage
 * HTML): by a path relative to the report's folder, so that the folder
 * still works when it is moved, copied, or uploaded as a CI artifact, and
 * written the one way each report's syntax wants it. */
#ifndef REPORT_LINK_H
#define REPORT_LINK_H

#include "report_text.h"

/* The path of `target` relative to folder `from_dir` ("repros/x.json",
 * "../other/x.json"), newly allocated. When either cannot be resolved (a
 * file that is gone), `target` as given. NULL only when memory runs out. */
char *report_link_relative(const char *from_dir, const char *target);

/* A Markdown link "[`label`](link)" ("none" when link is NULL); label
 * NULL: the link's last component. */
void report_link_md(report_text *out, const char *link, const char *label);

/* An HTML link <a href="link">label</a> ("none" when link is NULL), the
 * label breakable after any of `breaks`; label NULL: the link's last
 * component. */
void report_link_html(report_text *out, const char *link, const char *label,
                      const char *breaks);

#endif
