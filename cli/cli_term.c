#define _GNU_SOURCE /* fopencookie */
#include "cli_term.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One escaping stream: its descriptor and a C2 byte not yet judged. */
typedef struct {
    int fd;
    unsigned char pending;
} cli_term_stream;

static cli_term_stream cli_term_out = {STDOUT_FILENO, 0};
static cli_term_stream cli_term_err = {STDERR_FILENO, 0};

static size_t cli_term_put(char *out, size_t at, const char *piece) {
    size_t n = strlen(piece);
    memcpy(out + at, piece, n);
    return at + n;
}

size_t cli_term_escape(const char *s, size_t len, unsigned char *pending, char *out) {
    size_t at = 0;
    char piece[8];
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (*pending != 0) {
            *pending = 0;
            if (c >= 0x80 && c <= 0x9f) { /* U+0080..U+009F: C1 controls (CSI is U+009B) */
                snprintf(piece, sizeof piece, "\\u%04x", c);
                at = cli_term_put(out, at, piece);
                continue;
            }
            out[at++] = (char)0xc2;
        }
        if (c == 0xc2) {
            *pending = c;
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            snprintf(piece, sizeof piece, "\\x%02x", c);
            at = cli_term_put(out, at, piece);
        } else {
            out[at++] = (char)c;
        }
    }
    out[at] = '\0';
    return at;
}

static bool cli_term_write_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        buf += n;
        len -= (size_t)n;
    }
    return true;
}

/* Escapes in slices, so that the buffer stays on the stack. */
static ssize_t cli_term_write(void *cookie, const char *buf, size_t size) {
    enum { SLICE = 512 };
    cli_term_stream *t = cookie;
    char out[SLICE * 6 + 1];
    for (size_t done = 0; done < size; done += SLICE) {
        size_t n = size - done < SLICE ? size - done : SLICE;
        size_t len = cli_term_escape(buf + done, n, &t->pending, out);
        if (!cli_term_write_all(t->fd, out, len)) {
            return 0; /* fopencookie: 0 is an error */
        }
    }
    return (ssize_t)size;
}

/* A C2 still held at the end was a plain byte. */
static int cli_term_close(void *cookie) {
    cli_term_stream *t = cookie;
    char lead = (char)0xc2;
    bool ok = t->pending == 0 || cli_term_write_all(t->fd, &lead, 1);
    t->pending = 0;
    return ok ? 0 : EOF;
}

static FILE *cli_term_open(cli_term_stream *t, int mode) {
    cookie_io_functions_t io = {.read = NULL, .write = cli_term_write, .seek = NULL,
                                .close = cli_term_close};
    FILE *f = fopencookie(t, "w", io);
    if (f != NULL && setvbuf(f, NULL, mode, BUFSIZ) != 0) {
        fclose(f);
        return NULL;
    }
    return f;
}

/* exit() flushes the streams but need not close them: a C2 held at the
 * very end is written here. */
static void cli_term_finish(void) {
    fflush(stdout);
    fflush(stderr);
    cli_term_close(&cli_term_out);
    cli_term_close(&cli_term_err);
}

bool cli_term_guard(void) {
    FILE *out = cli_term_open(&cli_term_out, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
    FILE *err = cli_term_open(&cli_term_err, _IONBF);
    if (out == NULL || err == NULL) {
        if (out != NULL) {
            fclose(out);
        }
        if (err != NULL) {
            fclose(err);
        }
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    /* glibc's stdout and stderr are assignable variables; every print of
     * the program goes through them. */
    stdout = out;
    stderr = err;
    atexit(cli_term_finish);
    return true;
}
