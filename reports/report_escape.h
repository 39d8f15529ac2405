/* report_escape: writes untrusted text (paths, signatures, explanations
 * from a baseline, error messages) into each report's syntax.
 *
 * XML and HTML share one set of rules: & < > " ' become entities; bytes
 * that XML 1.0 does not allow (control characters other than tab, newline
 * and carriage return) and bytes that are not UTF-8 become U+FFFD, so a
 * hostile file name cannot make junit.xml unparsable. */
#ifndef REPORT_ESCAPE_H
#define REPORT_ESCAPE_H

#include "report_text.h"

/* Element content: newlines stay. */
void report_escape_xml(report_text *t, const char *s);
/* Attribute values: tab, newline and carriage return become character
 * references too (a parser would fold them into spaces). */
void report_escape_xml_attr(report_text *t, const char *s);

/* HTML element content that may wrap after any of the ASCII characters
 * `breaks` (a <wbr> after each), for long names with no spaces. */
void report_escape_html_breakable(report_text *t, const char *s, const char *breaks);

/* Markdown inline text (also inside a table cell): the characters that
 * start markup within a line (\ ` * _ [ ] | ~) are backslash-escaped, '<' and '&' become entities,
 * newlines become spaces. */
void report_escape_md(report_text *t, const char *s);
/* A Markdown code span for a signature-like string; '|' is escaped so the
 * span can sit in a table cell. */
void report_escape_md_code(report_text *t, const char *s);

/* A relative or absolute file path as a URL path: every byte but
 * [A-Za-z0-9-._~/] percent-encoded. The result is also safe inside an XML
 * attribute and a Markdown link. */
void report_escape_url(report_text *t, const char *path);

#endif
