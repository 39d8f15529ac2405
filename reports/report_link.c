/* realpath() is an XSI function in glibc's headers. */
#define _XOPEN_SOURCE 700

#include "report_link.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report_escape.h"

static char *report_link_copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy != NULL) {
        memcpy(copy, s, n);
    }
    return copy;
}

/* Path components in `s` ("a/b" -> 2, "" -> 0). */
static size_t report_link_components(const char *s) {
    size_t n = 0;
    bool in_name = false;
    for (; *s != '\0'; s++) {
        n += (*s != '/' && !in_name) ? 1 : 0;
        in_name = *s != '/';
    }
    return n;
}

/* Both paths absolute and free of "." and "..": "../" once per component
 * of `from` below the common folder, then the rest of `to`. */
static char *report_link_between(const char *from, const char *to) {
    size_t i = 0, last_sep = 0;
    while (from[i] != '\0' && from[i] == to[i]) {
        last_sep = from[i] == '/' ? i : last_sep;
        i++;
    }
    const char *rest;
    size_t ups;
    if (from[i] == '\0' && (to[i] == '/' || to[i] == '\0')) {
        rest = to[i] == '/' ? to + i + 1 : to + i;
        ups = 0;
    } else {
        rest = to + last_sep + 1;
        ups = report_link_components(from + last_sep + 1);
    }
    size_t len = ups * 3 + strlen(rest) + 2;
    char *out = malloc(len);
    if (out == NULL) {
        return NULL;
    }
    out[0] = '\0';
    for (size_t k = 0; k < ups; k++) {
        strcat(out, "../");
    }
    strcat(out, rest[0] != '\0' || ups > 0 ? rest : ".");
    return out;
}

char *report_link_relative(const char *from_dir, const char *target) {
    char *from = realpath(from_dir, NULL);
    char *to = from != NULL ? realpath(target, NULL) : NULL;
    char *out = to != NULL ? report_link_between(from, to) : report_link_copy(target);
    free(from);
    free(to);
    return out;
}

/* The last component of a link: a file's name. */
static const char *report_link_label(const char *link, const char *label) {
    const char *base = strrchr(link, '/');
    return label != NULL ? label : base != NULL ? base + 1 : link;
}

void report_link_md(report_text *out, const char *link, const char *label) {
    if (link == NULL) {
        report_text_put(out, "none");
        return;
    }
    report_text_putc(out, '[');
    report_escape_md_code(out, report_link_label(link, label));
    report_text_put(out, "](");
    report_escape_url(out, link);
    report_text_putc(out, ')');
}

void report_link_html(report_text *out, const char *link, const char *label,
                      const char *breaks) {
    if (link == NULL) {
        report_text_put(out, "none");
        return;
    }
    report_text_put(out, "<a href=\"");
    report_escape_url(out, link);
    report_text_put(out, "\">");
    report_escape_html_breakable(out, report_link_label(link, label), breaks);
    report_text_put(out, "</a>");
}
