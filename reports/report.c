#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report_file.h"
#include "report_html.h"
#include "report_json.h"
#include "report_junit.h"
#include "report_md.h"
#include "report_view.h"
#include "gm_file.h"

/* Builds one document and writes it to out_dir/name. */
static bool report_write_one(const report_view *v, const char *out_dir, const char *name,
                             void (*build)(const report_view *, const char *, report_text *),
                             gm_error *err) {
    size_t size = strlen(out_dir) + strlen(name) + 2;
    char *path = malloc(size);
    if (path == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s/%s: out of memory", out_dir, name);
    }
    snprintf(path, size, "%s/%s", out_dir, name);
    report_text t;
    report_text_init(&t);
    build(v, out_dir, &t);
    bool ok = report_file_write(path, &t, err);
    report_text_free(&t);
    free(path);
    return ok;
}

/* The builders that do not need the output folder, in one shape. */
static void report_build_md(const report_view *v, const char *out_dir, report_text *t) {
    (void)out_dir;
    report_md_build(v, t);
}

static void report_build_junit(const report_view *v, const char *out_dir, report_text *t) {
    (void)out_dir;
    report_junit_build(v, t);
}

static void report_build_html(const report_view *v, const char *out_dir, report_text *t) {
    (void)out_dir;
    report_html_build(v, t);
}

bool report_write_all(const repro_rundir *r, const char *out_dir, gm_error *err) {
    if (!gm_file_make_dirs(out_dir, err)) {
        return false;
    }
    report_view v;
    if (!report_view_init(&v, r, out_dir, err)) {
        return false;
    }
    /* summary.json first: it has everything, should a later one fail. */
    bool ok = report_write_one(&v, out_dir, "summary.json", report_json_build, err) &&
              report_write_one(&v, out_dir, "report.md", report_build_md, err) &&
              report_write_one(&v, out_dir, "junit.xml", report_build_junit, err) &&
              report_write_one(&v, out_dir, "report.html", report_build_html, err);
    report_view_free(&v);
    return ok;
}
