/* The report writers (reports/) on run folders built by hand: what each
 * document says, how it escapes, and the pieces they share.
 *   test_report WORK_DIR
 * WORK_DIR/run is the folder (its reproducer files are created), and the
 * reports go to WORK_DIR/out-*, which another test checks further
 * (tests/junit_check.py on WORK_DIR/out-full/junit.xml). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "gm_test.h"
#include "report.h"
#include "report_escape.h"
#include "report_format.h"
#include "report_link.h"
#include "report_svg.h"
#include "report_svg_axis.h"
#include "report_time.h"

#define PATH_MAX_TEST 4096
#define N_SAMPLES 40

static const char *work;

/* ---- helpers --------------------------------------------------------- */

/* dir/name into out, or the test stops: a cut path would test nothing. */
static void join(char *out, size_t size, const char *dir, const char *name) {
    if (snprintf(out, size, "%s/%s", dir, name) >= (int)size) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(2);
    }
}

static void make_dir(const char *path) {
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(2);
    }
}

static void make_file(const char *path) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(2);
    }
    fputs("{}\n", f);
    fclose(f);
}

/* The whole file, NUL-terminated (free it); NULL when it is missing. */
static char *slurp(const char *dir, const char *name) {
    char path[PATH_MAX_TEST];
    join(path, sizeof path, dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, got;
    char *text = malloc(cap);
    while (text != NULL && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            cap *= 2;
            char *grown = realloc(text, cap);
            if (grown == NULL) {
                free(text);
            }
            text = grown;
        }
    }
    fclose(f);
    if (text != NULL) {
        text[len] = '\0';
    }
    return text;
}

static size_t count_of(const char *haystack, const char *needle) {
    size_t n = 0;
    for (const char *p = haystack; p != NULL && (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

static char *escaped(void (*escape)(report_text *, const char *), const char *s) {
    report_text t;
    report_text_init(&t);
    escape(&t, s);
    char *copy = strdup(report_text_str(&t));
    report_text_free(&t);
    return copy;
}

/* ---- a run folder, by hand -------------------------------------------- */

typedef struct {
    repro_rundir r;
    repro_rundir_signature sigs[3];
    repro_rundir_sample samples[N_SAMPLES];
    char dir[PATH_MAX_TEST];
    char repro_new[PATH_MAX_TEST], repro_known[PATH_MAX_TEST], failure_bug[PATH_MAX_TEST];
    char problem[64];
    char baseline[64];
    char version[32];
} fixture;

static void fixture_sig(repro_rundir_signature *s, const char *signature, size_t count,
                        const char *first_seen) {
    gm_error err = {0};
    memset(s, 0, sizeof *s);
    if (!triage_finding_parse(signature, &s->finding, &err)) {
        fprintf(stderr, "fixture: %s\n", err.msg);
        exit(2);
    }
    s->count = count;
    snprintf(s->first_seen, sizeof s->first_seen, "%s", first_seen);
    snprintf(s->last_seen, sizeof s->last_seen, "%s", first_seen);
    s->smallest_bytes = 812;
    s->smallest_bs = 1;
}

static void fixture_campaign(fixture *x) {
    repro_rundir_campaign *c = &x->r.campaign;
    c->present = true;
    snprintf(c->engine, sizeof c->engine, "libfuzzer");
    snprintf(c->backend, sizeof c->backend, "cpu");
    snprintf(c->compare, sizeof c->compare, "live");
    c->jobs = 2;
    c->budget_s = 60;
    snprintf(c->started_at, sizeof c->started_at, "2026-11-29T12:00:13Z");
    snprintf(c->ended_at, sizeof c->ended_at, "2026-11-29T12:01:14Z");
    c->elapsed_s = 60.4;
    c->execs = 4810733;
    c->coverage = 983;
    c->corpus = 801;
    c->exit_code = 1;
    snprintf(x->baseline, sizeof x->baseline, "corpus/known.json");
    snprintf(x->version, sizeof x->version, "gmfuzz 0.1.0");
    c->baseline = x->baseline;
    c->tool_version = x->version;
    for (size_t i = 0; i < N_SAMPLES; i++) {
        repro_rundir_sample s = {(double)(i + 1) * 1.5, (i + 1) * 120000, 80000 + i * 100,
                              700 + i * 7, 300 + i * 12, i / 10, i / 5};
        x->samples[i] = s;
    }
    x->r.samples = x->samples;
    x->r.n_samples = N_SAMPLES;
}

/* Three signatures, in the folder's order: a known (accepted by class),
 * a new one whose reproducer's name has an '&', a known bug whose
 * explanation is markup. */
static void fixture_sigs(fixture *x) {
    repro_rundir_signature *s = x->sigs;
    fixture_sig(&s[0], "decode|stale_tail|page_table", 5, "2026-11-29T12:00:14Z");
    s[0].baseline = (triage_baseline_entry){true, false, TRIAGE_DECISION_ACCEPTED,
                                        "columns <past> the live length & \"never\" read", false};
    s[0].repro = s[0].smallest = x->repro_known;
    fixture_sig(&s[1], "decode|stale_tail+negative_token_rounding|page_table", 3,
                "2026-11-29T12:00:20Z");
    s[1].repro = s[1].smallest = x->repro_new;
    s[1].first_difference = (gm_difference){true, GM_BUF_PAGE_TABLE, 2, {0, 3}, -1, 0};
    fixture_sig(&s[2], "target_verify|legacy_raises|-", 1, "2026-11-29T12:00:40Z");
    s[2].baseline = (triage_baseline_entry){true, true, TRIAGE_DECISION_BUG,
                                        "<script>alert(1)</script> tracked upstream", false};
    s[2].smallest = x->failure_bug;
    x->r.sigs = x->sigs;
    x->r.n_sigs = 3;
    x->r.inputs = 9;
    x->r.class_inputs[TRIAGE_CLASS_STALE_TAIL] = 8;
    x->r.class_inputs[TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING] = 3;
    x->r.class_inputs[TRIAGE_CLASS_LEGACY_RAISES] = 1;
}

static void fixture_init(fixture *x) {
    memset(x, 0, sizeof *x);
    char sub[PATH_MAX_TEST];
    join(x->dir, sizeof x->dir, work, "run");
    make_dir(x->dir);
    join(sub, sizeof sub, x->dir, "repros");
    make_dir(sub);
    join(sub, sizeof sub, x->dir, "failures");
    make_dir(sub);
    join(x->repro_new, sizeof x->repro_new, x->dir, "repros/a&b.json");
    join(x->repro_known, sizeof x->repro_known, x->dir, "repros/known.json");
    join(x->failure_bug, sizeof x->failure_bug, x->dir, "failures/failure-1.json");
    make_file(x->repro_new);
    make_file(x->repro_known);
    make_file(x->failure_bug);
    x->r.path = x->dir;
    x->r.is_campaign = true;
    fixture_campaign(x);
    fixture_sigs(x);
}

/* Writes the reports of `r` into WORK/<name>; the folder's path. */
static const char *write_reports(const repro_rundir *r, const char *name) {
    static char out[PATH_MAX_TEST];
    gm_error err = {0};
    join(out, sizeof out, work, name);
    bool ok = report_write_all(r, out, &err);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "report_write_all: %s\n", err.msg);
    }
    return out;
}

/* ---- the shared pieces ------------------------------------------------- */

static void test_escape_xml(void) {
    char *s = escaped(report_escape_xml, "a&b<c>\"d'\n\x01z\xff");
    CHECK(s != NULL && strcmp(s, "a&amp;b&lt;c&gt;&quot;d&#39;\n\xEF\xBF\xBDz\xEF\xBF\xBD") == 0);
    free(s);
    s = escaped(report_escape_xml_attr, "x\ny\tz");
    CHECK(s != NULL && strcmp(s, "x&#10;y&#9;z") == 0);
    free(s);
    /* Well-formed UTF-8 passes; a surrogate and an overlong form do not. */
    s = escaped(report_escape_xml, "\xC3\xA9\xED\xA0\x80\xC0\xAF");
    CHECK(s != NULL && strcmp(s, "\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                                 "\xEF\xBF\xBD") == 0);
    free(s);
}

static void test_escape_md_url(void) {
    char *s = escaped(report_escape_md, "a|b_c <x> & *y*\nz");
    CHECK(s != NULL && strcmp(s, "a\\|b\\_c &lt;x> &amp; \\*y\\* z") == 0);
    free(s);
    s = escaped(report_escape_md_code, "decode|stale_tail|page_table");
    CHECK(s != NULL && strcmp(s, "`decode\\|stale_tail\\|page_table`") == 0);
    free(s);
    s = escaped(report_escape_url, "../run/repros/a&b c#1.json");
    CHECK(s != NULL && strcmp(s, "../run/repros/a%26b%20c%231.json") == 0);
    free(s);
}

static void test_link(void) {
    char from[PATH_MAX_TEST], deep[PATH_MAX_TEST], target[PATH_MAX_TEST];
    join(from, sizeof from, work, "links");
    make_dir(from);
    join(deep, sizeof deep, work, "links/a");
    make_dir(deep);
    join(deep, sizeof deep, work, "links/a/b");
    make_dir(deep);
    join(target, sizeof target, work, "links/t.json");
    make_file(target);
    char *rel = report_link_relative(from, target);
    CHECK(rel != NULL && strcmp(rel, "t.json") == 0);
    free(rel);
    rel = report_link_relative(deep, target);
    CHECK(rel != NULL && strcmp(rel, "../../t.json") == 0);
    free(rel);
    rel = report_link_relative(from, "/nonexistent/gone.json");
    CHECK(rel != NULL && strcmp(rel, "/nonexistent/gone.json") == 0);
    free(rel);
}

/* The one pair of link writers every table uses. */
static void test_link_writers(void) {
    report_text t;
    report_text_init(&t);
    report_link_md(&t, NULL, NULL);
    report_text_put(&t, " ");
    report_link_md(&t, "../run/repros/a|b c.json", NULL);
    report_text_put(&t, " ");
    report_link_md(&t, "coverage/html/index.html", "coverage/html/index.html");
    CHECK_STR_CONTAINS(report_text_str(&t), "none [`a\\|b c.json`](../run/repros/a%7Cb%20c.json) "
                                            "[`coverage/html/index.html`]"
                                            "(coverage/html/index.html)");
    report_text_free(&t);
    report_text_init(&t);
    report_link_html(&t, NULL, NULL, ".");
    report_text_put(&t, " ");
    report_link_html(&t, "repros/a&b.json", NULL, ".");
    report_text_put(&t, " ");
    report_link_html(&t, "x/y.html", "the <page>", "");
    CHECK_STR_CONTAINS(report_text_str(&t), "none <a href=\"repros/a%26b.json\">a&amp;b.<wbr>json"
                                            "</a> <a href=\"x/y.html\">the &lt;page&gt;</a>");
    report_text_free(&t);
}

/* A folder with its source coverage (gmfuzz coverage): both reports link
 * it, relative to where they are written; one without says nothing. */
static void test_coverage_link(void) {
    fixture *x = calloc(1, sizeof *x);
    fixture_init(x);
    char path[PATH_MAX_TEST];
    join(path, sizeof path, x->dir, "coverage");
    make_dir(path);
    join(path, sizeof path, x->dir, "coverage/html");
    make_dir(path);
    join(path, sizeof path, x->dir, "coverage/html/index.html");
    make_file(path);
    join(path, sizeof path, x->dir, "coverage/summary.txt");
    make_file(path);
    const char *out = write_reports(&x->r, "out-coverage");
    char *m = slurp(out, "report.md");
    CHECK_STR_CONTAINS(m, "Source coverage of the corpus (gmfuzz coverage): "
                          "[`coverage/html/index.html`](../run/coverage/html/index.html), "
                          "summary [`coverage/summary.txt`](../run/coverage/summary.txt).");
    char *h = slurp(out, "report.html");
    CHECK_STR_CONTAINS(h, "<p class=\"note\" id=\"coverage\">Source coverage of the corpus "
                          "(gmfuzz coverage): <a href=\"../run/coverage/html/index.html\">");
    CHECK_STR_CONTAINS(h, "<a href=\"../run/coverage/summary.txt\">");
    free(m);
    free(h);
    /* Gone again: no link to a missing page. */
    remove(path);
    join(path, sizeof path, x->dir, "coverage/html/index.html");
    remove(path);
    out = write_reports(&x->r, "out-coverage");
    m = slurp(out, "report.md");
    h = slurp(out, "report.html");
    CHECK(m != NULL && strstr(m, "coverage/html") == NULL);
    CHECK(h != NULL && strstr(h, "id=\"coverage\"") == NULL);
    free(m);
    free(h);
    free(x);
}

static void test_axis_time_format(void) {
    report_svg_axis a;
    report_svg_axis_values(983, 6, &a);
    CHECK(a.step == 200 && a.max == 1000);
    report_svg_axis_values(4100, 6, &a);
    CHECK(a.step == 1000 && a.max == 5000);
    report_svg_axis_values(0, 6, &a);
    CHECK(a.step == 1 && a.max == 1);
    report_svg_axis_values(2, 6, &a);
    CHECK(a.step == 1 && a.max == 2);
    report_svg_axis_time(60.2, 7, &a);
    CHECK(a.step == 10 && a.max == 60.2);
    report_svg_axis_time(600.1, 7, &a);
    CHECK(a.step == 120 && a.max == 600.1);
    char label[32];
    report_svg_axis_label(&a, 240, label, sizeof label);
    CHECK(strcmp(label, "4 min") == 0);
    report_svg_axis_values(30000, 6, &a);
    report_svg_axis_label(&a, 20500, label, sizeof label);
    CHECK(strcmp(label, "20.5k") == 0);
    double t = 0;
    CHECK(report_time_parse("2026-11-29T12:00:13Z", &t) && t == 1795953613.0);
    CHECK(report_time_parse("2000-03-01T00:00:00.5Z", &t) && t == 951868800.5);
    CHECK(!report_time_parse("2026-11-29 12:00:13", &t));
    CHECK(!report_time_parse("2026-02-31T00:00:00Z", &t)); /* no such day */
    CHECK(!report_time_parse("2026-02-29T00:00:00Z", &t)); /* not a leap year */
    CHECK(report_time_parse("2024-02-29T23:59:59Z", &t) && t == 1709251199.0);
    CHECK(!report_time_parse("2026-11-29T24:00:00Z", &t));
    CHECK(!report_time_parse("1969-12-31T23:59:59Z", &t));
    char text[96];
    report_format_count(4810733, text, sizeof text);
    CHECK(strcmp(text, "4.81M") == 0);
    report_format_duration(600.1, text, sizeof text);
    CHECK(strcmp(text, "10 min 0 s") == 0);
    gm_difference d = {true, GM_BUF_CU_SEQLENS_K, 1, {2, 0}, 7, -9};
    CHECK(report_format_difference(&d, text, sizeof text) &&
          strcmp(text, "cu_seqlens_k[2]: reference 7, fused -9") == 0);
}

static void test_svg_empty_and_bars(void) {
    report_text t;
    report_text_init(&t);
    report_svg_frame f = {"Nothing <here>", 300, 100};
    report_svg_empty(&t, &f, "no data & no samples");
    CHECK_STR_CONTAINS(report_text_str(&t), "<title>Nothing &lt;here&gt;</title>");
    CHECK_STR_CONTAINS(report_text_str(&t), ">no data &amp; no samples</text>");
    report_svg_bar bars[2] = {{"stale_tail", 8, "#00f"}, {"legacy_raises", 2, "#f00"}};
    report_svg_bars(&t, &f, bars, 2);
    CHECK_EQ_I64(count_of(report_text_str(&t), "<rect x=\"190\""), 2);
    /* One sample at 0 s of all zeros: axes still, no NaN from a 0 range. */
    double zero = 0.0;
    report_svg_series one = {"x", "#000", &zero, &zero, 1, false};
    report_svg_frame g = {"One point", 600, 230};
    report_svg_lines(&t, &g, &one, 1);
    CHECK_STR_CONTAINS(report_text_str(&t), "<polyline ");
    CHECK(strstr(report_text_str(&t), "nan") == NULL && strstr(report_text_str(&t), "inf") == NULL);
    CHECK(!t.failed);
    report_text_free(&t);
}

/* ---- the four documents ------------------------------------------------ */

static void test_junit(const char *out) {
    char *x = slurp(out, "junit.xml");
    CHECK(x != NULL);
    CHECK_STR_CONTAINS(x, "<testsuites name=\"gmfuzz\" tests=\"4\" failures=\"1\" errors=\"0\" "
                          "skipped=\"1\" time=\"60.400\">");
    CHECK_STR_CONTAINS(x, "timestamp=\"2026-11-29T12:00:13\"");
    CHECK_STR_CONTAINS(x, "<testcase classname=\"gmfuzz.decode\" name=\"decode|stale_tail+negative_"
                          "token_rounding|page_table\" time=\"0\">\n      <failure message="
                          "\"new signature decode|stale_tail+negative_token_rounding|page_table: "
                          "page_table[0][3]: reference -1, fused 0\" type=\"new_signature\">"
                          "reproducer: ../run/repros/a&amp;b.json\n");
    CHECK_STR_CONTAINS(x, "<skipped message=\"known bug: &lt;script&gt;alert(1)&lt;/script&gt; "
                          "tracked upstream\"/>");
    CHECK_STR_CONTAINS(x, "<testcase classname=\"gmfuzz.campaign\" name=\"campaign\" "
                          "time=\"60.400\"/>");
    CHECK_STR_CONTAINS(x, "<system-out>known, accepted: columns &lt;past&gt; the live length "
                          "&amp; &quot;never&quot; read</system-out>");
    CHECK_EQ_I64(count_of(x, "<testcase "), 4);
    CHECK_EQ_I64(count_of(x, "<failure "), 1);
    CHECK(x != NULL && strstr(x, "<script>") == NULL);
    free(x);
}

static void test_html(const char *out) {
    char *h = slurp(out, "report.html");
    CHECK(h != NULL);
    CHECK_STR_CONTAINS(h, "<title>gmfuzz report: run: 1 new signature</title>");
    CHECK_STR_CONTAINS(h, "<div class=\"verdict bad\" id=\"verdict\"><strong>1 new signature");
    CHECK_STR_CONTAINS(h, "<a href=\"../run/repros/a%26b.json\">a&amp;b.<wbr>json</a>");
    CHECK_STR_CONTAINS(h, "&lt;script&gt;alert(1)&lt;/script&gt;");
    CHECK_STR_CONTAINS(h, "page_table[0][3]: reference -1, fused 0");
    CHECK_EQ_I64(count_of(h, "<svg "), 4);
    CHECK_EQ_I64(count_of(h, "<polyline "), 5); /* rate; coverage, corpus; sigs, failures */
    CHECK_EQ_I64(count_of(h, "<tr class="), 3);
    /* New first: the one new row comes before both known rows. */
    const char *first_new = h ? strstr(h, "<tr class=\"new\"") : NULL;
    const char *first_known = h ? strstr(h, "<tr class=\"known\"") : NULL;
    CHECK(first_new != NULL && first_known != NULL && first_new < first_known);
    CHECK(h != NULL && strstr(h, "<script") == NULL && strstr(h, "http") == NULL);
    free(h);
}

static void test_md(const char *out) {
    char *m = slurp(out, "report.md");
    CHECK(m != NULL);
    CHECK_STR_CONTAINS(m, "**FAIL: 1 new signature**: 3 signatures in 9 failing inputs; 1 new, "
                          "2 known (1 triaged as bug or wontfix).");
    CHECK_STR_CONTAINS(m, "## New signatures (1)");
    CHECK_STR_CONTAINS(m, "| `decode\\|stale_tail+negative_token_rounding\\|page_table` | 3 | "
                          "2026-11-29T12:00:20Z | [`a&b.json`](../run/repros/a%26b.json) "
                          "(bs 1, 812 bytes) | `page_table[0][3]: reference -1, fused 0` |");
    CHECK_STR_CONTAINS(m, "## Known signatures (2)");
    CHECK_STR_CONTAINS(m, "| `target_verify\\|legacy_raises\\|-` | bug | 1 | "
                          "[`failure-1.json`](../run/failures/failure-1.json)");
    CHECK(m != NULL && strstr(m, "<script>") == NULL);
    free(m);
}

static void test_summary_json(const char *out) {
    char *text = slurp(out, "summary.json");
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK(root != NULL);
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    CHECK(cJSON_IsString(format) && strcmp(format->valuestring, "gmfuzz-summary-v1") == 0);
    const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(root, "verdict");
    CHECK_EQ_I64(cJSON_GetObjectItemCaseSensitive(verdict, "new")->valuedouble, 1);
    CHECK_EQ_I64(cJSON_GetObjectItemCaseSensitive(verdict, "triaged")->valuedouble, 1);
    const cJSON *sigs = cJSON_GetObjectItemCaseSensitive(root, "signatures");
    CHECK_EQ_I64(cJSON_GetArraySize(sigs), 3);
    const cJSON *first = cJSON_GetArrayItem(sigs, 0);
    const cJSON *repro = cJSON_GetObjectItemCaseSensitive(first, "repro");
    CHECK(cJSON_IsString(repro) && strcmp(repro->valuestring, "../run/repros/a&b.json") == 0);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(first, "new")));
    const cJSON *diff = cJSON_GetObjectItemCaseSensitive(first, "first_difference");
    CHECK_EQ_I64(cJSON_GetObjectItemCaseSensitive(diff, "reference")->valuedouble, -1);
    const cJSON *last = cJSON_GetArrayItem(sigs, 2);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(last, "repro")));
    const cJSON *decision =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(last, "baseline"),
                                         "decision");
    CHECK(cJSON_IsString(decision) && strcmp(decision->valuestring, "bug") == 0);
    CHECK_EQ_I64(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "samples")),
                 N_SAMPLES);
    const cJSON *classes = cJSON_GetObjectItemCaseSensitive(root, "classes");
    CHECK_EQ_I64(cJSON_GetObjectItemCaseSensitive(classes, "stale_tail")->valuedouble, 8);
    CHECK_EQ_I64(cJSON_GetArraySize(classes), TRIAGE_CLASS_COUNT);
    const cJSON *campaign = cJSON_GetObjectItemCaseSensitive(root, "campaign");
    CHECK_EQ_I64(cJSON_GetObjectItemCaseSensitive(campaign, "execs")->valuedouble, 4810733);
    cJSON_Delete(root);
    free(text);
}

static void test_full_folder(void) {
    fixture *x = calloc(1, sizeof *x);
    fixture_init(x);
    const char *out = write_reports(&x->r, "out-full");
    test_junit(out);
    test_html(out);
    test_md(out);
    test_summary_json(out);
    /* Written into the folder itself, the links start at the folder. */
    out = write_reports(&x->r, "run");
    char *h = slurp(out, "report.html");
    CHECK_STR_CONTAINS(h, "<a href=\"repros/a%26b.json\">");
    free(h);
    free(x);
}

/* No campaign, no samples, no signatures: every document still says so. */
static void test_empty_folder(void) {
    repro_rundir r;
    memset(&r, 0, sizeof r);
    char path[PATH_MAX_TEST];
    join(path, sizeof path, work, "empty");
    make_dir(path);
    r.path = path;
    const char *out = write_reports(&r, "out-empty");
    char *x = slurp(out, "junit.xml");
    CHECK_STR_CONTAINS(x, "<testsuites name=\"gmfuzz\" tests=\"1\" failures=\"0\" errors=\"0\" "
                          "skipped=\"0\"");
    CHECK_STR_CONTAINS(x, "<testcase classname=\"gmfuzz.campaign\" name=\"reproducers\"");
    char *h = slurp(out, "report.html");
    CHECK_STR_CONTAINS(h, "<div class=\"verdict good\" id=\"verdict\"><strong>nothing found");
    CHECK_STR_CONTAINS(h, "no samples: this folder has no stats.jsonl");
    CHECK_STR_CONTAINS(h, "no failing inputs");
    CHECK_EQ_I64(count_of(h, "<svg "), 4);
    char *m = slurp(out, "report.md");
    CHECK_STR_CONTAINS(m, "**nothing found**: 0 signatures in 0 failing inputs");
    free(x);
    free(h);
    free(m);
}

/* An infrastructure problem, or a campaign that never ended, is an error
 * testcase, and the page shows the problem. */
static void test_problem(void) {
    fixture *x = calloc(1, sizeof *x);
    fixture_init(x);
    snprintf(x->problem, sizeof x->problem, "engine <died> & gone");
    x->r.campaign.problem = x->problem;
    const char *out = write_reports(&x->r, "out-problem");
    char *j = slurp(out, "junit.xml");
    CHECK_STR_CONTAINS(j, "failures=\"1\" errors=\"1\" skipped=\"1\"");
    CHECK_STR_CONTAINS(j, "<error message=\"engine &lt;died&gt; &amp; gone\" "
                          "type=\"infrastructure\">engine &lt;died&gt; &amp; gone</error>");
    char *h = slurp(out, "report.html");
    CHECK_STR_CONTAINS(h, "<div class=\"problem\"><strong>Problem:</strong> engine &lt;died&gt;");
    free(j);
    free(h);
    x->r.campaign.problem = NULL;
    x->r.campaign.exit_code = -1;
    x->r.campaign.ended_at[0] = '\0';
    x->r.campaign.execs = 0;
    out = write_reports(&x->r, "out-killed");
    j = slurp(out, "junit.xml");
    CHECK_STR_CONTAINS(j, "<error message=\"the campaign never finished");
    free(j);
    /* Its totals are its last sample's. */
    char *m = slurp(out, "report.md");
    CHECK_STR_CONTAINS(m, "never finished (up to its last sample)");
    CHECK_STR_CONTAINS(m, "| executions | 4800000 (4.80M)");
    free(m);
    free(x);
}

/* Thousands of signatures: the page's table stops, and says so. */
static void test_many_signatures(void) {
    fixture *x = calloc(1, sizeof *x);
    fixture_init(x);
    enum { MANY = 1500 };
    repro_rundir_signature *sigs = calloc(MANY, sizeof *sigs);
    for (size_t i = 0; sigs != NULL && i < MANY; i++) {
        sigs[i] = x->sigs[1];
    }
    x->r.sigs = sigs;
    x->r.n_sigs = MANY;
    const char *out = write_reports(&x->r, "out-many");
    char *h = slurp(out, "report.html");
    CHECK_EQ_I64(count_of(h, "<tr class="), 500);
    CHECK_STR_CONTAINS(h, "The table shows the first 500 of 1500 signatures");
    CHECK(h != NULL && strlen(h) < 500000);
    char *m = slurp(out, "report.md");
    CHECK_STR_CONTAINS(m, "... and 1400 more: summary.json and junit.xml list them all.");
    char *j = slurp(out, "junit.xml");
    CHECK_EQ_I64(count_of(j, "<failure "), MANY);
    free(h);
    free(m);
    free(j);
    free(sigs);
    free(x);
}

/* A folder that cannot be made: the error names it, nothing is written. */
static void test_write_failure(void) {
    repro_rundir r;
    memset(&r, 0, sizeof r);
    r.path = ".";
    char blocker[PATH_MAX_TEST], out[PATH_MAX_TEST];
    join(blocker, sizeof blocker, work, "blocker");
    make_file(blocker);
    join(out, sizeof out, work, "blocker/reports");
    gm_error err = {0};
    CHECK(!report_write_all(&r, out, &err));
    CHECK_STR_CONTAINS(err.msg, "blocker");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_report WORK_DIR\n");
        return 2;
    }
    work = argv[1];
    make_dir(work);
    GM_RUN(test_escape_xml);
    GM_RUN(test_escape_md_url);
    GM_RUN(test_link);
    GM_RUN(test_link_writers);
    GM_RUN(test_coverage_link);
    GM_RUN(test_axis_time_format);
    GM_RUN(test_svg_empty_and_bars);
    GM_RUN(test_full_folder);
    GM_RUN(test_empty_folder);
    GM_RUN(test_problem);
    GM_RUN(test_many_signatures);
    GM_RUN(test_write_failure);
    GM_TEST_END();
}
