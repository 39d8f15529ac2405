#include "report_md.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_buckets.h"
#include "report_escape.h"
#include "report_facts.h"
#include "report_format.h"
#include "report_link.h"
#include "report_sources.h"

static void report_md_header(const report_view *v, report_text *out) {
    char verdict[64], counts[256];
    report_facts_verdict(v, verdict, sizeof verdict);
    report_facts_counts(v, counts, sizeof counts);
    report_text_put(out, "# gmfuzz report: ");
    report_escape_md(out, v->name);
    report_text_printf(out, "\n\n**%s%s**: %s.\n\n", v->n_new > 0 ? "FAIL: " : "", verdict,
                       counts);
    report_fact facts[REPORT_FACTS_MAX];
    size_t n = report_facts_list(v, facts);
    report_text_put(out, "| | |\n| --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        report_text_printf(out, "| %s | ", facts[i].label);
        report_escape_md(out, facts[i].value);
        report_text_put(out, " |\n");
    }
}

/* "[`name.json`](repros/name.json) (bs 1, 812 bytes)" or "none". */
static void report_md_link(const report_view *v, size_t k, report_text *out) {
    const char *link = report_view_link(v, k);
    report_link_md(out, link, NULL);
    if (link != NULL) {
        const repro_rundir_signature *s = report_view_sig(v, k);
        report_text_printf(out, " (bs %" PRId64 ", %lld bytes)", s->smallest_bs,
                           s->smallest_bytes);
    }
}

/* The first difference as code (it is a buffer, an index and values); a
 * raise or an out-of-bounds access, which have none, as words. */
static void report_md_finding(const repro_rundir_signature *s, report_text *out) {
    char what[256];
    report_format_finding(s, what, sizeof what);
    if (s->first_difference.present) {
        report_escape_md_code(out, what);
    } else {
        report_escape_md(out, what);
    }
}

/* Positions [from, to) of the order, as the new-signature table. */
static void report_md_new_rows(const report_view *v, size_t from, size_t to, report_text *out) {
    report_text_put(out, "| signature | inputs | first seen | reproducer | first difference |\n"
                         "| --- | ---: | --- | --- | --- |\n");
    for (size_t k = from; k < to; k++) {
        const repro_rundir_signature *s = report_view_sig(v, k);
        report_text_put(out, "| ");
        report_escape_md_code(out, s->finding.signature);
        report_text_printf(out, " | %zu | ", s->count);
        report_escape_md(out, s->first_seen[0] ? s->first_seen : "?");
        report_text_put(out, " | ");
        report_md_link(v, k, out);
        report_text_put(out, " | ");
        report_md_finding(s, out);
        report_text_put(out, " |\n");
    }
}

static void report_md_known_rows(const report_view *v, size_t from, size_t to, report_text *out) {
    report_text_put(out, "| signature | decision | inputs | reproducer | explanation |\n"
                         "| --- | --- | ---: | --- | --- |\n");
    for (size_t k = from; k < to; k++) {
        const repro_rundir_signature *s = report_view_sig(v, k);
        report_text_put(out, "| ");
        report_escape_md_code(out, s->finding.signature);
        report_text_printf(out, " | %s%s | %zu | ", report_format_decision(&s->baseline),
                           s->baseline.by_signature ? "" : " (by class)", s->count);
        report_md_link(v, k, out);
        report_text_put(out, " | ");
        report_escape_md(out, s->baseline.explanation != NULL ? s->baseline.explanation : "");
        report_text_put(out, " |\n");
    }
}

/* One section of the listing: positions [from, from + n). */
static void report_md_section(const report_view *v, bool fresh, size_t from, size_t n,
                              report_text *out) {
    if (n == 0) {
        return;
    }
    report_text_printf(out, "\n## %s signatures (%zu)\n\n", fresh ? "New" : "Known", n);
    size_t shown = n < REPORT_MD_MAX_ROWS ? n : REPORT_MD_MAX_ROWS;
    if (fresh) {
        report_md_new_rows(v, from, from + shown, out);
    } else {
        report_md_known_rows(v, from, from + shown, out);
    }
    if (shown < n) {
        report_text_printf(out, "\n... and %zu more: summary.json and junit.xml list them all.\n",
                           n - shown);
    }
}

static void report_md_classes(const report_view *v, report_text *out) {
    if (v->run->inputs == 0) {
        return;
    }
    report_text_put(out, "\n## Failing inputs by class\n\n| class | inputs |\n| --- | ---: |\n");
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (v->run->class_inputs[k] > 0) {
            report_text_put(out, "| ");
            report_escape_md_code(out, triage_class_name((triage_class)k));
            report_text_printf(out, " | %zu |\n", v->run->class_inputs[k]);
        }
    }
}

/* One line when the folder has its source coverage (gmfuzz coverage). */
static void report_md_coverage(const report_view *v, report_text *out) {
    if (v->coverage == NULL) {
        return;
    }
    report_text_put(out, "\nSource coverage of the corpus (gmfuzz coverage): ");
    report_link_md(out, v->coverage, "coverage/html/index.html");
    if (v->coverage_summary != NULL) {
        report_text_put(out, ", summary ");
        report_link_md(out, v->coverage_summary, "coverage/summary.txt");
    }
    report_text_put(out, ".\n");
}

void report_md_build(const report_view *v, report_text *out) {
    report_md_header(v, out);
    report_sources_md(v, out);
    report_md_coverage(v, out);
    report_buckets_md(v, out);
    report_md_section(v, true, 0, v->n_new, out);
    report_md_section(v, false, v->n_new, v->run->n_sigs - v->n_new, out);
    report_md_classes(v, out);
    report_text_put(out, "\nAlso here: report.html (charts), summary.json (everything, for "
                         "scripts), junit.xml (for CI).\n");
}
