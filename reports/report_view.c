#include "report_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_link.h"

bool report_view_is_triaged(const repro_rundir_signature *s) {
    return s->baseline.known && s->baseline.decision != TRIAGE_DECISION_ACCEPTED;
}

/* New signatures first, then known ones, each in the folder's order. */
static void report_view_order(report_view *v) {
    const repro_rundir *r = v->run;
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->n_sigs; i++) {
            if (r->sigs[i].baseline.known == (pass == 1)) {
                v->order[k++] = i;
            }
        }
    }
    for (size_t i = 0; i < r->n_sigs; i++) {
        v->n_new += r->sigs[i].baseline.known ? 0 : 1;
        v->n_triaged += report_view_is_triaged(&r->sigs[i]) ? 1 : 0;
    }
}

/* Bucket by bucket (repro_rundir's order: new ones first), each bucket's
 * signatures in the listing order. */
static void report_view_bucket_order(report_view *v) {
    const repro_rundir *r = v->run;
    size_t n = 0;
    for (size_t k = 0; k < r->n_sigs; k++) {
        v->by_bucket[k] = k;
    }
    for (size_t b = 0; b < r->n_buckets; b++) {
        for (size_t k = 0; k < r->n_sigs; k++) {
            if (r->sigs[v->order[k]].bucket == b) {
                v->by_bucket[n++] = k;
            }
        }
    }
}

size_t report_view_by_bucket(const report_view *v, size_t k) { return v->by_bucket[k]; }

static bool report_view_links(report_view *v, const char *out_dir) {
    for (size_t i = 0; i < v->run->n_sigs; i++) {
        const repro_rundir_signature *s = &v->run->sigs[i];
        const char *file = s->repro != NULL ? s->repro : s->smallest;
        if (file != NULL && (v->links[i] = report_link_relative(out_dir, file)) == NULL) {
            return false;
        }
    }
    return true;
}

/* DIR/coverage/NAME, linked from out_dir, when the file exists; false
 * only when memory runs out. */
static bool report_view_coverage_file(const char *dir, const char *name, const char *out_dir,
                                      char **link) {
    size_t size = strlen(dir) + strlen(name) + 16;
    char *path = malloc(size);
    if (path == NULL) {
        return false;
    }
    snprintf(path, size, "%s/coverage/%s", dir, name);
    *link = access(path, R_OK) == 0 ? report_link_relative(out_dir, path) : NULL;
    bool ok = *link != NULL || access(path, R_OK) != 0;
    free(path);
    return ok;
}

static bool report_view_coverage(report_view *v, const char *out_dir) {
    const char *dir = v->run->path != NULL ? v->run->path : ".";
    return report_view_coverage_file(dir, "html/index.html", out_dir, &v->coverage) &&
           report_view_coverage_file(dir, "summary.txt", out_dir, &v->coverage_summary);
}

/* "out/fuzz-X/" -> "fuzz-X"; "/" stays "/". */
static char *report_view_name(const char *path) {
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/') {
        end--;
    }
    size_t start = end;
    while (start > 0 && path[start - 1] != '/') {
        start--;
    }
    if (start == end) {
        start = 0;
    }
    char *name = malloc(end - start + 1);
    if (name != NULL) {
        memcpy(name, path + start, end - start);
        name[end - start] = '\0';
    }
    return name;
}

bool report_view_init(report_view *v, const repro_rundir *r, const char *out_dir, gm_error *err) {
    memset(v, 0, sizeof *v);
    v->run = r;
    v->order = calloc(r->n_sigs + 1, sizeof *v->order);
    v->links = calloc(r->n_sigs + 1, sizeof *v->links);
    v->by_bucket = calloc(r->n_sigs + 1, sizeof *v->by_bucket);
    v->name = report_view_name(r->path != NULL ? r->path : ".");
    if (v->order == NULL || v->links == NULL || v->name == NULL || v->by_bucket == NULL ||
        !report_view_links(v, out_dir) || !report_view_coverage(v, out_dir)) {
        report_view_free(v);
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory for its report", out_dir);
    }
    report_view_order(v);
    report_view_bucket_order(v);
    return true;
}

void report_view_free(report_view *v) {
    for (size_t i = 0; v->links != NULL && v->run != NULL && i < v->run->n_sigs; i++) {
        free(v->links[i]);
    }
    free(v->links);
    free(v->order);
    free(v->by_bucket);
    free(v->name);
    free(v->coverage);
    free(v->coverage_summary);
    memset(v, 0, sizeof *v);
}

const repro_rundir_signature *report_view_sig(const report_view *v, size_t k) {
    return &v->run->sigs[v->order[k]];
}

const char *report_view_link(const report_view *v, size_t k) {
    return v->links[v->order[k]];
}

const char *report_view_link_of(const report_view *v, size_t i) {
    return i < v->run->n_sigs ? v->links[i] : NULL;
}
