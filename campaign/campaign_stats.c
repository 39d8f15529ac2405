#include "campaign_stats.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The unsigned decimal right after `key` in `line`; false when the key is
 * absent or not followed by a number. */
static bool campaign_stats_field(const char *line, const char *key, uint64_t *out) {
    const char *at = strstr(line, key);
    if (at == NULL) {
        return false;
    }
    const char *digits = at + strlen(key);
    while (*digits == ' ' || *digits == '\t') {
        digits++;
    }
    if (*digits < '0' || *digits > '9') {
        return false;
    }
    *out = strtoull(digits, NULL, 10);
    return true;
}

/* "#<runs>\t<KIND> cov: ..." (or "#<runs>: cov: ..." in fork mode). */
static bool campaign_stats_status_line(const char *line, campaign_stats *s) {
    if (line[0] != '#' || line[1] < '0' || line[1] > '9') {
        return false;
    }
    char *end = NULL;
    uint64_t runs = strtoull(line + 1, &end, 10);
    if (*end != '\t' && *end != ':') {
        return false;
    }
    uint64_t rate = 0, cov = 0, corp = 0;
    /* Fork mode writes "exec/s 123", single-process mode "exec/s: 123". */
    if (!campaign_stats_field(end, " exec/s:", &rate) &&
        !campaign_stats_field(end, " exec/s", &rate)) {
        return false;
    }
    s->have = true;
    s->execs = runs;
    s->exec_per_sec = rate;
    if (campaign_stats_field(end, " cov:", &cov)) {
        s->coverage = cov;
    }
    if (campaign_stats_field(end, " corp:", &corp)) {
        s->corpus = corp;
    }
    return true;
}

/* The job's lines about its target, one field each. */
static const struct {
    const char *name;
    size_t offset;
} campaign_stats_target_fields[] = {
    {"stat::gmfuzz_target_restarts_crashed:", offsetof(campaign_target_tally, crashed)},
    {"stat::gmfuzz_target_restarts_hung:", offsetof(campaign_target_tally, hung)},
    {"stat::gmfuzz_target_unreliable_crashed:", offsetof(campaign_target_tally, unreliable_crashed)},
    {"stat::gmfuzz_target_unreliable_hung:", offsetof(campaign_target_tally, unreliable_hung)},
    {"stat::gmfuzz_target_compiles:", offsetof(campaign_target_tally, compiles)},
    {"stat::gmfuzz_target_loads:", offsetof(campaign_target_tally, loads)},
    {"stat::gmfuzz_target_jit_ms:", offsetof(campaign_target_tally, jit_ms)},
    {"stat::gmfuzz_target_held:", offsetof(campaign_target_tally, held)},
    {"stat::gmfuzz_target_classes:", offsetof(campaign_target_tally, classes)},
    {"stat::gmfuzz_target_checked:", offsetof(campaign_target_tally, checked)},
    {"stat::gmfuzz_target_answered:", offsetof(campaign_target_tally, answered)},
    {"stat::gmfuzz_target_torch_cases:", offsetof(campaign_target_tally, torch_cases)},
    {"stat::gmfuzz_target_torch_calls:", offsetof(campaign_target_tally, torch_calls)},
    {"stat::gmfuzz_target_torch_ms:", offsetof(campaign_target_tally, torch_ms)},
    {"stat::gmfuzz_target_job_ms:", offsetof(campaign_target_tally, job_ms)},
    {"stat::gmfuzz_target_torch_start_ms:", offsetof(campaign_target_tally, torch_start_ms)},
};

static bool campaign_stats_target_line(const char *line, campaign_target_tally *t) {
    for (size_t k = 0; k < sizeof campaign_stats_target_fields / sizeof campaign_stats_target_fields[0];
         k++) {
        uint64_t *field = (uint64_t *)((char *)t + campaign_stats_target_fields[k].offset);
        if (campaign_stats_field(line, campaign_stats_target_fields[k].name, field)) {
            return true;
        }
    }
    return false;
}

void campaign_target_tally_add(campaign_target_tally *sum, const campaign_target_tally *x) {
    sum->crashed += x->crashed;
    sum->hung += x->hung;
    sum->unreliable_crashed += x->unreliable_crashed;
    sum->unreliable_hung += x->unreliable_hung;
    sum->compiles += x->compiles;
    sum->loads += x->loads;
    sum->jit_ms += x->jit_ms;
    sum->classes += x->classes;
    sum->held += x->held;
    sum->checked += x->checked;
    sum->answered += x->answered;
    sum->torch_cases += x->torch_cases;
    sum->torch_calls += x->torch_calls;
    sum->torch_ms += x->torch_ms;
    sum->job_ms += x->job_ms;
    sum->torch_start_ms += x->torch_start_ms;
    sum->counted_runs += x->counted_runs;
}

bool campaign_stats_libfuzzer_line(const char *line, campaign_stats *s) {
    uint64_t v = 0;
    if (strncmp(line, "stat::number_of_executed_units:", 31) == 0 &&
        campaign_stats_field(line, "stat::number_of_executed_units:", &v)) {
        s->have = true;
        s->final = true;
        s->execs = v;
        return true;
    }
    if (strncmp(line, "stat::gmfuzz_target_started_ms:", 31) == 0) {
        s->target_started = true;
        return true;
    }
    if (strncmp(line, "stat::gmfuzz_target_", 20) == 0) {
        bool counts = strncmp(line, "stat::gmfuzz_target_checked:", 28) == 0;
        s->target.counted_runs = counts ? 1 : s->target.counted_runs;
        return campaign_stats_target_line(line, &s->target);
    }
    if (strncmp(line, "stat::average_exec_per_sec:", 27) == 0 &&
        campaign_stats_field(line, "stat::average_exec_per_sec:", &v)) {
        s->have = true;
        s->exec_per_sec = v;
        return true;
    }
    return campaign_stats_status_line(line, s);
}

/* The start of the line after `line`, or NULL at the end of the text. */
static const char *campaign_stats_next_line(const char *line) {
    const char *eol = strchr(line, '\n');
    return eol != NULL && eol[1] != '\0' ? eol + 1 : NULL;
}

/* The value of "key<spaces>: value" at the start of a line of `text`. */
static bool campaign_stats_afl_key(const char *text, const char *key, uint64_t *out) {
    size_t n = strlen(key);
    for (const char *line = text; line != NULL; line = campaign_stats_next_line(line)) {
        if (strncmp(line, key, n) != 0 || (line[n] != ' ' && line[n] != ':')) {
            continue;
        }
        const char *digits = line + n;
        while (*digits == ' ') {
            digits++;
        }
        if (*digits != ':') {
            return false;
        }
        digits++;
        while (*digits == ' ') {
            digits++;
        }
        if (*digits < '0' || *digits > '9') {
            return false;
        }
        /* execs_per_sec is fractional ("1234.56"): the integer part. */
        *out = strtoull(digits, NULL, 10);
        return true;
    }
    return false;
}

bool campaign_stats_afl(const char *text, campaign_stats *s) {
    campaign_stats next = {0};
    bool any = false;
    any |= campaign_stats_afl_key(text, "execs_done", &next.execs);
    any |= campaign_stats_afl_key(text, "execs_per_sec", &next.exec_per_sec);
    any |= campaign_stats_afl_key(text, "corpus_count", &next.corpus);
    any |= campaign_stats_afl_key(text, "edges_found", &next.coverage);
    if (!any) {
        return false;
    }
    next.have = true;
    *s = next;
    return true;
}

enum { CAMPAIGN_PLOT_EXECS, CAMPAIGN_PLOT_RATE, CAMPAIGN_PLOT_CORPUS, CAMPAIGN_PLOT_EDGES,
       CAMPAIGN_PLOT_COLUMNS };

/* Column numbers of the fields we want, from "# relative_time, cycles_done, ..."; -1: absent. */
static bool campaign_stats_plot_header(const char *line, int columns[CAMPAIGN_PLOT_COLUMNS]) {
    static const char *const names[CAMPAIGN_PLOT_COLUMNS] = {"total_execs", "execs_per_sec",
                                                             "corpus_count", "edges_found"};
    for (int k = 0; k < CAMPAIGN_PLOT_COLUMNS; k++) {
        columns[k] = -1;
    }
    int column = 0;
    for (const char *p = line + 1; *p != '\0' && *p != '\n'; column++) {
        while (*p == ' ') {
            p++;
        }
        size_t n = strcspn(p, ",\n");
        for (int k = 0; k < CAMPAIGN_PLOT_COLUMNS; k++) {
            if (strlen(names[k]) == n && strncmp(p, names[k], n) == 0) {
                columns[k] = column;
            }
        }
        p += n;
        if (*p == ',') {
            p++;
        }
    }
    return columns[CAMPAIGN_PLOT_EXECS] >= 0;
}

/* The number in column `column` of a comma-separated row (0 when absent). */
static uint64_t campaign_stats_plot_cell(const char *row, int column) {
    if (column < 0) {
        return 0;
    }
    const char *p = row;
    for (int c = 0; c < column && p != NULL; c++) {
        p = strchr(p, ',');
        p = p != NULL ? p + 1 : NULL;
    }
    if (p == NULL) {
        return 0;
    }
    while (*p == ' ') {
        p++;
    }
    return strtoull(p, NULL, 10);
}

bool campaign_stats_afl_plot(const char *text, campaign_stats *s) {
    int columns[CAMPAIGN_PLOT_COLUMNS];
    bool have_header = false;
    const char *last_row = NULL;
    for (const char *line = text; line != NULL; line = campaign_stats_next_line(line)) {
        if (line[0] == '#') {
            have_header = campaign_stats_plot_header(line, columns);
        } else if (line[0] >= '0' && line[0] <= '9') {
            last_row = line;
        }
    }
    if (!have_header || last_row == NULL) {
        return false;
    }
    campaign_stats next = {0};
    next.have = true;
    next.execs = campaign_stats_plot_cell(last_row, columns[CAMPAIGN_PLOT_EXECS]);
    next.exec_per_sec = campaign_stats_plot_cell(last_row, columns[CAMPAIGN_PLOT_RATE]);
    next.corpus = campaign_stats_plot_cell(last_row, columns[CAMPAIGN_PLOT_CORPUS]);
    next.coverage = campaign_stats_plot_cell(last_row, columns[CAMPAIGN_PLOT_EDGES]);
    *s = next;
    return true;
}
