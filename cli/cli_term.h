/* cli_term: what the document commands print reaches a terminal with its
 * control bytes escaped.
 *
 * Documents carry strings (a case's name, a recorded error, a target's
 * module, a signature) that a hostile file can fill with ESC sequences,
 * which a terminal would obey (retitle the window, hide lines, fake a
 * verdict). Escaping each print site would miss one; instead stdout and
 * stderr are replaced by streams that write every byte through one filter:
 * bytes below 0x20 other than newline and tab, DEL and the UTF-8 form of
 * the C1 controls (U+0080..U+009F) are written as \xNN or \u00NN.
 */
#ifndef CLI_TERM_H
#define CLI_TERM_H

#include <stdbool.h>
#include <stddef.h>

/* Replaces stdout and stderr by escaping streams on the same descriptors
 * (same buffering: stdout line-buffered on a terminal, else fully; stderr
 * unbuffered). False, with the plain streams kept, when that fails. */
bool cli_term_guard(void);

/* The filter itself: writes `s[0..len)` escaped into `out` (room for
 * 6 * len + 1 bytes), NUL-terminated; *pending carries a C2 lead byte from
 * one call to the next (0 when none). Returns the bytes written. */
size_t cli_term_escape(const char *s, size_t len, unsigned char *pending, char *out);

#endif
