#include "campaign_log.h"

#include <stdio.h>
#include <string.h>

void campaign_log_init(campaign_log *log) {
    memset(log, 0, sizeof *log);
}

/* Adds one byte of the log; a newline completes the line. */
static void campaign_log_byte(campaign_log *log, char c,
                              void (*on_line)(const char *line, void *ctx), void *ctx) {
    if (c == '\n') {
        log->line[log->partial] = '\0';
        on_line(log->line, ctx);
        log->partial = 0;
    } else if (log->partial < CAMPAIGN_LOG_LINE_MAX) {
        log->line[log->partial++] = c;
    }
}

void campaign_log_follow(campaign_log *log, const char *path,
                         void (*on_line)(const char *line, void *ctx), void *ctx) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return;
    }
    if (fseeko(f, log->offset, SEEK_SET) != 0) {
        fclose(f);
        return;
    }
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        for (size_t i = 0; i < got; i++) {
            campaign_log_byte(log, chunk[i], on_line, ctx);
        }
        log->offset += (off_t)got;
    }
    fclose(f);
}

void campaign_log_last_line(const char *path, char *out, size_t size) {
    char tail[4097];
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return;
    }
    if (fseeko(f, 0, SEEK_END) == 0 && ftello(f) > 4096) {
        fseeko(f, -4096, SEEK_END);
    } else {
        rewind(f);
    }
    size_t got = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    while (got > 0 && (tail[got - 1] == '\n' || tail[got - 1] == '\r' || tail[got - 1] == ' ')) {
        got--;
    }
    tail[got] = '\0';
    char *start = strrchr(tail, '\n');
    snprintf(out, size, "%s", start != NULL ? start + 1 : tail);
}
