#include "report_sources.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_escape.h"
#include "report_format.h"

/* The cells every format shows, as text. */
typedef struct {
    char execs[32], time[32], exit[16];
} report_sources_cells;

static void report_sources_fill(const repro_rundir_source *s, report_sources_cells *c) {
    char short_count[16];
    report_format_count(s->execs, short_count, sizeof short_count);
    snprintf(c->execs, sizeof c->execs, "%s", short_count);
    report_format_duration(s->elapsed_s, c->time, sizeof c->time);
    if (s->exit_code < 0) {
        snprintf(c->exit, sizeof c->exit, "not ended");
    } else {
        snprintf(c->exit, sizeof c->exit, "%d", s->exit_code);
    }
}

/* How the corpora were merged, in words. */
static void report_sources_corpus(const repro_rundir_campaign *c, char *out, size_t size) {
    if (strcmp(c->corpus_merge, "libfuzzer") == 0) {
        snprintf(out, size, "Corpus: the sources' corpora merged by coverage (libFuzzer's "
                            "-merge=1).");
    } else if (strcmp(c->corpus_merge, "union") == 0) {
        snprintf(out, size, "Corpus: NOT merged by coverage: the union of the sources' corpora, "
                            "deduplicated by content (%s).", c->corpus_merge_note);
    } else {
        snprintf(out, size, "Corpus: not recorded.");
    }
}

void report_sources_md(const report_view *v, report_text *out) {
    const repro_rundir_campaign *c = &v->run->campaign;
    if (!c->present || c->n_sources == 0) {
        return;
    }
    report_text_printf(out, "\n## Sources (%zu campaigns merged)\n\n"
                            "| # | folder | host | started | time | execs | signatures | "
                            "buckets | exit |\n| ---: | --- | --- | --- | ---: | ---: | ---: | "
                            "---: | --- |\n", c->n_sources);
    for (size_t k = 0; k < c->n_sources; k++) {
        const repro_rundir_source *s = &c->sources[k];
        report_sources_cells cells;
        report_sources_fill(s, &cells);
        report_text_printf(out, "| %zu | ", k + 1);
        report_escape_md(out, s->path);
        report_text_put(out, " | ");
        report_escape_md(out, s->host[0] ? s->host : "?");
        report_text_put(out, " | ");
        report_escape_md(out, s->started_at[0] ? s->started_at : "?");
        report_text_printf(out, " | %s | %s | %" PRIu64 " | %" PRIu64 " | %s |\n", cells.time,
                           cells.execs, s->signatures, s->buckets, cells.exit);
    }
    char corpus[1200];
    report_sources_corpus(c, corpus, sizeof corpus);
    report_text_put(out, "\n");
    report_escape_md(out, corpus);
    report_text_put(out, "\n");
}

static void report_sources_html_cell(report_text *out, const char *text, const char *cls) {
    report_text_printf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
                       cls ? "\"" : "");
    report_escape_xml(out, text);
    report_text_put(out, "</td>");
}

void report_sources_html(const report_view *v, report_text *out) {
    const repro_rundir_campaign *c = &v->run->campaign;
    if (!c->present || c->n_sources == 0) {
        return;
    }
    report_text_printf(out, "<h2 id=\"sources\">Sources (%zu campaigns merged)</h2>\n"
                            "<table id=\"source-table\">\n<thead><tr><th>#</th><th>folder</th>"
                            "<th>host</th><th>started</th><th>time</th><th>execs</th>"
                            "<th>signatures</th><th>buckets</th><th>exit</th></tr></thead>\n"
                            "<tbody>\n", c->n_sources);
    for (size_t k = 0; k < c->n_sources; k++) {
        const repro_rundir_source *s = &c->sources[k];
        report_sources_cells cells;
        char sigs[24], buckets[24];
        report_sources_fill(s, &cells);
        snprintf(sigs, sizeof sigs, "%" PRIu64, s->signatures);
        snprintf(buckets, sizeof buckets, "%" PRIu64, s->buckets);
        report_text_printf(out, "<tr class=\"source\"><td class=\"n\">%zu</td>", k + 1);
        report_sources_html_cell(out, s->path, NULL);
        report_sources_html_cell(out, s->host[0] ? s->host : "?", NULL);
        report_sources_html_cell(out, s->started_at[0] ? s->started_at : "?", "when");
        report_sources_html_cell(out, cells.time, "n");
        report_sources_html_cell(out, cells.execs, "n");
        report_sources_html_cell(out, sigs, "n");
        report_sources_html_cell(out, buckets, "n");
        report_sources_html_cell(out, cells.exit, NULL);
        report_text_put(out, "</tr>\n");
    }
    report_text_put(out, "</tbody>\n</table>\n<p class=\"note\" id=\"corpus-merge\">");
    char corpus[1200];
    report_sources_corpus(c, corpus, sizeof corpus);
    report_escape_xml(out, corpus);
    report_text_put(out, "</p>\n");
}

static cJSON *report_sources_json_one(const repro_rundir_source *s) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && cJSON_AddStringToObject(o, "path", s->path) != NULL &&
              (s->host[0] ? cJSON_AddStringToObject(o, "host", s->host)
                          : cJSON_AddNullToObject(o, "host")) != NULL &&
              cJSON_AddStringToObject(o, "engine", s->engine) != NULL &&
              cJSON_AddStringToObject(o, "started_at", s->started_at) != NULL &&
              cJSON_AddStringToObject(o, "ended_at", s->ended_at) != NULL &&
              cJSON_AddNumberToObject(o, "elapsed_s", s->elapsed_s) != NULL &&
              cJSON_AddNumberToObject(o, "execs", (double)s->execs) != NULL &&
              cJSON_AddNumberToObject(o, "signatures", (double)s->signatures) != NULL &&
              cJSON_AddNumberToObject(o, "buckets", (double)s->buckets) != NULL &&
              cJSON_AddNumberToObject(o, "inputs", (double)s->inputs) != NULL &&
              cJSON_AddNumberToObject(o, "exit_code", s->exit_code) != NULL;
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *report_sources_json(const repro_rundir_campaign *c) {
    cJSON *list = cJSON_CreateArray();
    for (size_t k = 0; list != NULL && k < c->n_sources; k++) {
        cJSON *item = report_sources_json_one(&c->sources[k]);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}
