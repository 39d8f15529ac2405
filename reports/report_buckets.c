#include "report_buckets.h"

#include <inttypes.h>
#include <string.h>

#include "report_escape.h"
#include "report_format.h"
#include "report_link.h"

/* "NEW", or the decision of a known bucket (its baseline entry, else the
 * one of its signatures). */
static const char *report_buckets_status(const repro_rundir *r, const repro_rundir_bucket *b) {
    if (b->fresh) {
        return "NEW";
    }
    if (b->baseline.known) {
        return report_format_decision(&b->baseline);
    }
    return report_format_decision(&r->sigs[b->sigs[0]].baseline);
}

static size_t report_buckets_rows(const repro_rundir *r) {
    return r->n_buckets < REPORT_BUCKETS_MAX_ROWS ? r->n_buckets : REPORT_BUCKETS_MAX_ROWS;
}

/* ---- markdown ----------------------------------------------------------- */

static void report_buckets_md_sigs(const repro_rundir *r, const repro_rundir_bucket *b,
                                   report_text *out) {
    size_t shown = b->n_sigs < REPORT_BUCKETS_SIGS_SHOWN ? b->n_sigs : REPORT_BUCKETS_SIGS_SHOWN;
    for (size_t j = 0; j < shown; j++) {
        report_text_put(out, j > 0 ? ", " : "");
        report_escape_md_code(out, r->sigs[b->sigs[j]].finding.signature);
    }
    if (shown < b->n_sigs) {
        report_text_printf(out, " and %zu more", b->n_sigs - shown);
    }
}

static void report_buckets_md_repro(const report_view *v, const repro_rundir_bucket *b,
                                    report_text *out) {
    const char *link = report_view_link_of(v, b->smallest);
    report_link_md(out, link, NULL);
    if (link != NULL) {
        report_text_printf(out, " (bs %" PRId64 ")", v->run->sigs[b->smallest].smallest_bs);
    }
}

void report_buckets_md(const report_view *v, report_text *out) {
    const repro_rundir *r = v->run;
    if (r->n_buckets == 0) {
        return;
    }
    report_text_printf(out, "\n## Buckets (%zu, %zu new): one root cause each\n\n"
                            "| bucket | status | signatures | inputs | smallest reproducer |\n"
                            "| --- | --- | --- | ---: | --- |\n",
                       r->n_buckets, repro_rundir_new_buckets(r));
    for (size_t b = 0; b < report_buckets_rows(r); b++) {
        const repro_rundir_bucket *k = &r->buckets[b];
        report_text_put(out, "| ");
        report_escape_md_code(out, k->key);
        report_text_printf(out, " | %s | %zu: ", report_buckets_status(r, k), k->n_sigs);
        report_buckets_md_sigs(r, k, out);
        report_text_printf(out, " | %zu | ", k->inputs);
        report_buckets_md_repro(v, k, out);
        report_text_put(out, " |\n");
    }
    if (report_buckets_rows(r) < r->n_buckets) {
        report_text_printf(out, "\n... and %zu more buckets: summary.json lists them all.\n",
                           r->n_buckets - report_buckets_rows(r));
    }
}

/* ---- html ---------------------------------------------------------------- */

static void report_buckets_html_sigs(const repro_rundir *r, const repro_rundir_bucket *b,
                                     report_text *out) {
    size_t shown = b->n_sigs < REPORT_BUCKETS_SIGS_SHOWN ? b->n_sigs : REPORT_BUCKETS_SIGS_SHOWN;
    for (size_t j = 0; j < shown; j++) {
        report_text_put(out, "<div><code>");
        report_escape_html_breakable(out, r->sigs[b->sigs[j]].finding.signature, "|+");
        report_text_put(out, "</code></div>");
    }
    if (shown < b->n_sigs) {
        report_text_printf(out, "<div class=\"why\">and %zu more</div>", b->n_sigs - shown);
    }
}

static void report_buckets_html_repro(const report_view *v, const repro_rundir_bucket *b,
                                      report_text *out) {
    const char *link = report_view_link_of(v, b->smallest);
    report_link_html(out, link, NULL, "._-");
    if (link != NULL) {
        report_text_printf(out, "<div class=\"why\">bs %" PRId64 "</div>",
                           v->run->sigs[b->smallest].smallest_bs);
    }
}

void report_buckets_html(const report_view *v, report_text *out) {
    const repro_rundir *r = v->run;
    if (r->n_buckets == 0) {
        return;
    }
    report_text_printf(out, "<h2 id=\"buckets\">Buckets (%zu, %zu new): one root cause each</h2>\n"
                            "<table id=\"bucket-table\">\n<thead><tr><th>status</th><th>bucket</th>"
                            "<th>signatures</th><th>inputs</th><th>smallest reproducer</th></tr>"
                            "</thead>\n<tbody>\n",
                       r->n_buckets, repro_rundir_new_buckets(r));
    for (size_t b = 0; b < report_buckets_rows(r); b++) {
        const repro_rundir_bucket *k = &r->buckets[b];
        const char *status = report_buckets_status(r, k);
        report_text_printf(out, "<tr class=\"%s\"><td><span class=\"badge b-%s\">%s</span></td>"
                                "<td><code>",
                           k->fresh ? "new" : "known", k->fresh ? "new" : status, status);
        report_escape_html_breakable(out, k->key, "|+");
        report_text_printf(out, "</code></td><td>%zu", k->n_sigs);
        report_buckets_html_sigs(r, k, out);
        report_text_printf(out, "</td><td class=\"n\">%zu</td><td>", k->inputs);
        report_buckets_html_repro(v, k, out);
        report_text_put(out, "</td></tr>\n");
    }
    report_text_put(out, "</tbody>\n</table>\n");
    if (report_buckets_rows(r) < r->n_buckets) {
        report_text_printf(out, "<p class=\"note\">The table shows the first %zu of %zu buckets "
                                "(new ones first); <a href=\"summary.json\">summary.json</a> lists "
                                "them all.</p>\n",
                           report_buckets_rows(r), r->n_buckets);
    }
}
