#include "report_escape.h"

#include <stdbool.h>
#include <string.h>

#define REPORT_ESCAPE_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD in UTF-8 */

/* Bytes of the well-formed UTF-8 sequence that starts at `s` and that XML
 * allows; 0 when there is none. */
static size_t report_escape_utf8_len(const unsigned char *s) {
    unsigned char c = s[0];
    if (c < 0x80) {
        return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
    }
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF; /* no UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (size_t i = 2; i < n; i++) {
        if (s[i] < 0x80 || s[i] > 0xBF) {
            return 0;
        }
    }
    /* U+FFFE and U+FFFF are not XML characters either. */
    if (n == 3 && c == 0xEF && s[1] == 0xBF && s[2] >= 0xBE) {
        return 0;
    }
    return n;
}

static const char *report_escape_xml_entity(char c, bool attr) {
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': return attr ? "&#9;" : NULL;
    case '\n': return attr ? "&#10;" : NULL;
    case '\r': return "&#13;"; /* a parser would turn a bare CR into LF */
    default: return NULL;
    }
}

/* `breaks`: ASCII characters after which a <wbr> goes (HTML only); NULL:
 * none. */
static void report_escape_xml_any(report_text *t, const char *s, bool attr, const char *breaks) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p != '\0') {
        size_t n = report_escape_utf8_len(p);
        const char *entity = n == 1 ? report_escape_xml_entity((char)*p, attr) : NULL;
        if (n == 0) {
            report_text_put(t, REPORT_ESCAPE_REPLACEMENT);
            n = 1;
        } else if (entity != NULL) {
            report_text_put(t, entity);
        } else {
            report_text_putn(t, (const char *)p, n);
        }
        if (breaks != NULL && n == 1 && strchr(breaks, (char)*p) != NULL) {
            report_text_put(t, "<wbr>");
        }
        p += n;
    }
}

void report_escape_xml(report_text *t, const char *s) {
    report_escape_xml_any(t, s, false, NULL);
}

void report_escape_xml_attr(report_text *t, const char *s) {
    report_escape_xml_any(t, s, true, NULL);
}

void report_escape_html_breakable(report_text *t, const char *s, const char *breaks) {
    report_escape_xml_any(t, s, false, breaks[0] != '\0' ? breaks : NULL);
}

void report_escape_md(report_text *t, const char *s) {
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '<') {
            report_text_put(t, "&lt;");
        } else if (*p == '&') {
            report_text_put(t, "&amp;");
        } else if (*p == '\n' || *p == '\r' || *p == '\t') {
            report_text_putc(t, ' ');
        } else {
            /* Only what can start markup inside a line: a table cell or a
             * list item never starts a line, so # > - + need nothing. */
            if (strchr("\\`*_[]|~", *p) != NULL) {
                report_text_putc(t, '\\');
            }
            report_text_putc(t, *p);
        }
    }
}

void report_escape_md_code(report_text *t, const char *s) {
    /* A backtick inside would end the span: a longer fence around it. */
    const char *fence = strchr(s, '`') != NULL ? "`` " : "`";
    report_text_put(t, fence);
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '|') {
            report_text_put(t, "\\|");
        } else {
            report_text_putc(t, (*p == '\n' || *p == '\r') ? ' ' : *p);
        }
    }
    report_text_put(t, strchr(s, '`') != NULL ? " ``" : "`");
}

void report_escape_url(report_text *t, const char *path) {
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++) {
        unsigned char c = *p;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (plain) {
            report_text_putc(t, (char)c);
        } else {
            char enc[3] = {'%', hex[c >> 4], hex[c & 15]};
            report_text_putn(t, enc, 3);
        }
    }
}
