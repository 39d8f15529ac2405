/* campaign_log: follows a growing log file line by line (what `tail -f`
 * does), so the driver can read an engine's status lines as they come
 * without holding the whole log in memory. */
#ifndef CAMPAIGN_LOG_H
#define CAMPAIGN_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CAMPAIGN_LOG_LINE_MAX 4096

typedef struct {
    off_t offset;                         /* bytes consumed so far */
    size_t partial;                       /* bytes of an unfinished line */
    char line[CAMPAIGN_LOG_LINE_MAX + 1]; /* longer lines are cut here */
} campaign_log;

void campaign_log_init(campaign_log *log);

/* Calls `on_line(line, ctx)` for every complete line written to `path`
 * since the last call (without its newline). A missing file is no line. */
void campaign_log_follow(campaign_log *log, const char *path,
                         void (*on_line)(const char *line, void *ctx), void *ctx);

/* The last non-empty line of the file at `path` (within its last 4 KiB),
 * "" when there is none: what an engine said before it stopped. */
void campaign_log_last_line(const char *path, char *out, size_t size);

#endif
