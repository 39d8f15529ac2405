#include "report_html.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_buckets.h"
#include "report_chart.h"
#include "report_escape.h"
#include "report_facts.h"
#include "report_format.h"
#include "report_link.h"
#include "report_sources.h"

/* Where signatures and file names may wrap: they have no spaces. */
#define REPORT_HTML_SIG_BREAKS "|+"
#define REPORT_HTML_FILE_BREAKS "."

#ifndef GMFUZZ_VERSION
#error "GMFUZZ_VERSION must be defined by the build (reports/CMakeLists.txt)"
#endif

/* Readable at 1280 px and on a phone; no web font, no image. */
static const char report_html_style[] =
    "body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
    "sans-serif;color:#202124;background:#f8f9fa}\n"
    "main,header.top{max-width:1240px;margin:0 auto;padding:0 20px}\n"
    "header.top{padding-top:16px}\n"
    "h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 10px}\n"
    ".verdict{border-left:6px solid;padding:12px 16px;border-radius:4px;font-size:16px}\n"
    ".verdict.bad{background:#fce8e6;border-color:#d93025}\n"
    ".verdict.good{background:#e6f4ea;border-color:#188038}\n"
    ".verdict strong{font-size:20px}.bad strong{color:#b3261e}.good strong{color:#137333}\n"
    ".problem{background:#fef7e0;border-left:6px solid #f9ab00;padding:10px 16px;"
    "margin-top:10px;border-radius:4px}\n"
    "dl.facts{display:grid;grid-template-columns:110px 1fr;gap:4px 16px;margin:14px 0 0;"
    "background:#fff;border:1px solid #dadce0;border-radius:6px;padding:12px 16px}\n"
    "dl.facts dt{color:#5f6368;font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}\n"
    ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(600px,1fr));gap:12px}\n"
    ".charts figure{margin:0;background:#fff;border:1px solid #dadce0;border-radius:6px;"
    "padding:8px}\n"
    "svg.chart{display:block;max-width:100%;height:auto;font-family:inherit}\n"
    "table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #dadce0;"
    "font-size:13px}\n"
    "th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid #eceff1}\n"
    "th{background:#f1f3f4;position:sticky;top:0}td.n{text-align:right}\n"
    "code{font:12px/1.4 ui-monospace,'DejaVu Sans Mono',Menlo,monospace}\n"
    "td.when{white-space:nowrap;font-size:12px}\n"
    ".why{color:#5f6368;font-size:12px;margin-top:2px}\n"
    ".badge{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;"
    "font-weight:600;white-space:nowrap}\n"
    ".b-new{background:#d93025;color:#fff}.b-accepted{background:#e6f4ea;color:#137333}\n"
    ".b-bug{background:#fef7e0;color:#b06000}.b-wontfix{background:#f1f3f4;color:#5f6368}\n"
    ".note{color:#5f6368}footer{max-width:1240px;margin:24px auto;padding:0 20px;"
    "color:#5f6368;font-size:12px}\n";

static void report_html_head(const report_view *v, const char *verdict, report_text *out) {
    report_text_put(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                         "<meta name=\"viewport\" "
                         "content=\"width=device-width, initial-scale=1\">\n"
                         "<title>gmfuzz report: ");
    report_escape_xml(out, v->name);
    report_text_put(out, ": ");
    report_escape_xml(out, verdict);
    report_text_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_html_style);
}

static void report_html_facts(const report_view *v, report_text *out) {
    report_fact facts[REPORT_FACTS_MAX];
    size_t n = report_facts_list(v, facts);
    report_text_put(out, "<dl class=\"facts\">\n");
    for (size_t i = 0; i < n; i++) {
        report_text_printf(out, "<dt>%s</dt><dd>", facts[i].label);
        report_escape_xml(out, facts[i].value);
        report_text_put(out, "</dd>\n");
    }
    report_text_put(out, "</dl>\n");
}

/* A line when the folder has its source coverage (gmfuzz coverage). */
static void report_html_coverage(const report_view *v, report_text *out) {
    if (v->coverage == NULL) {
        return;
    }
    report_text_put(out, "<p class=\"note\" id=\"coverage\">Source coverage of the corpus "
                         "(gmfuzz coverage): ");
    report_link_html(out, v->coverage, "coverage/html/index.html", "/");
    if (v->coverage_summary != NULL) {
        report_text_put(out, ", summary ");
        report_link_html(out, v->coverage_summary, "coverage/summary.txt", "/");
    }
    report_text_put(out, ".</p>\n");
}

static void report_html_header(const report_view *v, const char *verdict, report_text *out) {
    char counts[256];
    report_facts_counts(v, counts, sizeof counts);
    report_text_put(out, "<header class=\"top\">\n<h1>gmfuzz report: ");
    report_escape_xml(out, v->name);
    report_text_printf(out, "</h1>\n<div class=\"verdict %s\" id=\"verdict\"><strong>",
                       v->n_new > 0 ? "bad" : "good");
    report_escape_xml(out, verdict);
    report_text_put(out, "</strong> &mdash; ");
    report_escape_xml(out, counts);
    report_text_put(out, "</div>\n");
    const repro_rundir_campaign *c = &v->run->campaign;
    if (c->present && c->problem != NULL) {
        report_text_put(out, "<div class=\"problem\"><strong>Problem:</strong> ");
        report_escape_xml(out, c->problem);
        report_text_put(out, "</div>\n");
    }
    report_html_facts(v, out);
    report_html_coverage(v, out);
    report_text_put(out, "</header>\n");
}

static void report_html_charts(const report_view *v, report_text *out) {
    void (*const charts[])(report_text *, const repro_rundir *) = {
        report_chart_rate, report_chart_coverage, report_chart_signatures, report_chart_classes};
    report_text_put(out, "<h2>Charts</h2>\n<div class=\"charts\">\n");
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        report_text_put(out, "<figure>\n");
        charts[i](out, v->run);
        report_text_put(out, "</figure>\n");
    }
    report_text_put(out, "</div>\n");
}

static void report_html_link(const report_view *v, size_t k, report_text *out) {
    const char *link = report_view_link(v, k);
    report_link_html(out, link, NULL, REPORT_HTML_FILE_BREAKS);
    if (link != NULL) {
        const repro_rundir_signature *s = report_view_sig(v, k);
        report_text_printf(out, "<div class=\"why\">bs %" PRId64 ", %lld bytes</div>",
                           s->smallest_bs, s->smallest_bytes);
    }
}

/* Decision badge, then the signature with the explanation under it. */
static void report_html_sig_cells(const repro_rundir_signature *s, report_text *out) {
    const char *decision = report_format_decision(&s->baseline);
    report_text_printf(out, "<td><span class=\"badge b-%s\">%s</span></td><td><code>",
                       s->baseline.known ? decision : "new", decision);
    report_escape_html_breakable(out, s->finding.signature, REPORT_HTML_SIG_BREAKS);
    report_text_put(out, "</code>");
    if (s->baseline.known && s->baseline.explanation != NULL) {
        report_text_printf(out, "<div class=\"why\">%s: ",
                           s->baseline.by_signature ? "by signature" : "by class");
        report_escape_xml(out, s->baseline.explanation);
        report_text_put(out, "</div>");
    }
    report_text_put(out, "</td>");
}

static void report_html_row(const report_view *v, size_t k, report_text *out) {
    const repro_rundir_signature *s = report_view_sig(v, k);
    char what[256];
    report_format_finding(s, what, sizeof what);
    report_text_printf(out, "<tr class=\"%s\">", s->baseline.known ? "known" : "new");
    report_html_sig_cells(s, out);
    report_text_printf(out, "<td class=\"n\">%zu</td><td class=\"when\">", s->count);
    report_escape_xml(out, s->first_seen[0] ? s->first_seen : "?");
    report_text_put(out, "</td><td>");
    report_html_link(v, k, out);
    report_text_put(out, "</td><td>");
    report_escape_xml(out, what);
    report_text_put(out, "</td></tr>\n");
}

static void report_html_table(const report_view *v, report_text *out) {
    size_t n = v->run->n_sigs;
    report_text_printf(out, "<h2 id=\"signatures\">Signatures (%zu)</h2>\n", n);
    if (n == 0) {
        report_text_put(out, "<p class=\"note\">No failing input: there is nothing to triage."
                             "</p>\n");
        return;
    }
    size_t shown = n < REPORT_HTML_MAX_ROWS ? n : REPORT_HTML_MAX_ROWS;
    report_text_put(out, "<table id=\"signature-table\">\n<thead><tr><th>decision</th>"
                         "<th>signature</th><th>inputs</th><th>first seen</th>"
                         "<th>reproducer</th><th>first difference</th></tr></thead>\n<tbody>\n");
    for (size_t k = 0; k < shown; k++) {
        report_html_row(v, k, out);
    }
    report_text_put(out, "</tbody>\n</table>\n");
    if (shown < n) {
        report_text_printf(out, "<p class=\"note\" id=\"table-cut\">The table shows the first %zu "
                                "of %zu signatures (new ones first); "
                                "<a href=\"summary.json\">summary.json</a> lists them all.</p>\n",
                           shown, n);
    }
}

void report_html_build(const report_view *v, report_text *out) {
    char verdict[64];
    report_facts_verdict(v, verdict, sizeof verdict);
    report_html_head(v, verdict, out);
    report_html_header(v, verdict, out);
    report_text_put(out, "<main>\n");
    report_sources_html(v, out);
    report_buckets_html(v, out);
    report_html_charts(v, out);
    report_html_table(v, out);
    report_text_put(out, "</main>\n<footer>Written by gmfuzz " GMFUZZ_VERSION ". The same run: "
                         "<a href=\"report.md\">report.md</a>, "
                         "<a href=\"summary.json\">summary.json</a>, "
                         "<a href=\"junit.xml\">junit.xml</a>.</footer>\n</body>\n</html>\n");
}
