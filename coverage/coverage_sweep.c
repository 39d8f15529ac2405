#include "coverage_sweep.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro.h"

bool coverage_sweep_is(const char *dir) {
    char path[PATH_MAX];
    repro_rundir_campaign c = {0};
    gm_error ignored = {0};
    snprintf(path, sizeof path, "%s/campaign.json", dir);
    bool sweep = repro_rundir_campaign_read(path, &c, &ignored) && strcmp(c.engine, "sweep") == 0 &&
                 c.target_classes == 0;
    repro_rundir_campaign_free(&c);
    return sweep;
}

/* The value of `flag` (e.g. "-seed=") in a command line; `fallback` without it. */
static uint64_t coverage_sweep_flag(const char *line, const char *flag, uint64_t fallback) {
    const char *at = strstr(line, flag);
    return at != NULL ? strtoull(at + strlen(flag), NULL, 10) : fallback;
}

typedef struct {
    bool open;          /* a run's command line was seen */
    uint64_t seed, run; /* its -seed and -shape_run */
    uint64_t done;      /* cases it checked: the last count it printed */
} coverage_sweep_run;

/* Ends the run being read: an argument for it when it can be replayed. */
static bool coverage_sweep_close(coverage_sweep_run *run, char **args, int max, int *n,
                                 size_t *skipped, gm_error *err) {
    if (!run->open || run->done == 0) {
        run->open = false;
        return true;
    }
    run->open = false;
    if (run->run != 1 || *n == max) {
        (*skipped)++;
        return true;
    }
    char arg[64];
    snprintf(arg, sizeof arg, "--sweep=%" PRIu64 ":%" PRIu64, run->seed, run->done);
    args[*n] = strdup(arg);
    if (args[*n] == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "coverage_sweep: out of memory");
    }
    (*n)++;
    return true;
}

/* One job's log: runs start at "=== ... sweep-job ..." and count their
 * cases in "#N\tpulse" and "stat::number_of_executed_units: N" lines. */
static bool coverage_sweep_log(const char *path, char **args, int max, int *n, size_t *skipped,
                               gm_error *err) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        return true; /* a log gone: its cases are not replayed */
    }
    char line[4096];
    coverage_sweep_run run = {0};
    bool ok = true;
    while (ok && fgets(line, sizeof line, in) != NULL) {
        if (strncmp(line, "=== ", 4) == 0 && strstr(line, " sweep-job") != NULL) {
            ok = coverage_sweep_close(&run, args, max, n, skipped, err);
            run = (coverage_sweep_run){true, coverage_sweep_flag(line, "-seed=", 1),
                                       coverage_sweep_flag(line, "-shape_run=", 1), 0};
        } else if (run.open && line[0] == '#' && strstr(line, "pulse") != NULL) {
            run.done = strtoull(line + 1, NULL, 10);
        } else if (run.open && strncmp(line, "stat::number_of_executed_units:", 31) == 0) {
            run.done = strtoull(line + 31, NULL, 10);
        }
    }
    ok = ok && coverage_sweep_close(&run, args, max, n, skipped, err);
    fclose(in);
    return ok;
}

bool coverage_sweep_args(const char *dir, char **args, int max, int *n, size_t *skipped,
                         gm_error *err) {
    char logs[PATH_MAX];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    DIR *d = opendir(logs);
    bool ok = true;
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; ok && e != NULL; e = readdir(d)) {
        size_t len = strlen(e->d_name);
        char path[PATH_MAX];
        if (strncmp(e->d_name, "job-", 4) != 0 || len < 8 ||
            strcmp(e->d_name + len - 4, ".log") != 0 ||
            snprintf(path, sizeof path, "%s/%s", logs, e->d_name) >= (int)sizeof path) {
            continue;
        }
        ok = coverage_sweep_log(path, args, max, n, skipped, err);
    }
    if (d != NULL) {
        closedir(d);
    }
    return ok;
}
