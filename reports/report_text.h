/* report_text: a growable text buffer that a report is built in before it
 * is written (atomically, report_file.h).
 *
 * Appending never fails loudly: when memory runs out the buffer remembers
 * it (`failed`) and ignores what follows, so a writer appends freely and
 * checks once at the end. */
#ifndef REPORT_TEXT_H
#define REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;   /* NUL-terminated when len > 0 */
    size_t len, cap;
    bool failed;  /* an append ran out of memory: the text is incomplete */
} report_text;

void report_text_init(report_text *t);
void report_text_free(report_text *t);

void report_text_put(report_text *t, const char *s);
void report_text_putn(report_text *t, const char *s, size_t n);
void report_text_putc(report_text *t, char c);
void report_text_printf(report_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The text so far ("" when empty). */
const char *report_text_str(const report_text *t);

#endif
