/* realpath() is an XSI function in glibc's headers. */
#define _XOPEN_SOURCE 700

#include "coverage_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gm_json_tree.h"

/* llvm-cov export's arrays (format 2.0.1, LLVM 12 and later). */
enum { SEG_LINE, SEG_COL, SEG_COUNT, SEG_HAS_COUNT, SEG_ENTRY, SEG_GAP };
enum { BR_LINE, BR_COL, BR_END_LINE, BR_END_COL, BR_TRUE, BR_FALSE, BR_FILE };

static const char *const coverage_export_oracle[] = {"core/gm_oracle.c", "triage/triage_classify.c",
                                                     "triage/triage_predict.c"};

const char *coverage_export_group(const char *rel) {
    if (strcmp(rel, "kernel/fused_program.h") == 0) {
        return "semantics";
    }
    if (strncmp(rel, "reference/", 10) == 0) {
        return "reference";
    }
    for (size_t i = 0; i < sizeof coverage_export_oracle / sizeof coverage_export_oracle[0]; i++) {
        if (strcmp(rel, coverage_export_oracle[i]) == 0) {
            return "oracle";
        }
    }
    return NULL;
}

static double coverage_export_num(const cJSON *a, int i) {
    const cJSON *v = cJSON_GetArrayItem(a, i);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static coverage_count coverage_export_count(const cJSON *summary, const char *key) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(summary, key);
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(o, "count");
    const cJSON *covered = cJSON_GetObjectItemCaseSensitive(o, "covered");
    coverage_count c = {0};
    c.count = cJSON_IsNumber(count) ? (uint64_t)count->valuedouble : 0;
    c.covered = cJSON_IsNumber(covered) ? (uint64_t)covered->valuedouble : 0;
    return c;
}

/* `path` relative to the source folder (both resolved); NULL: outside it. */
static char *coverage_export_relative(const char *path, const char *source_real) {
    char *real = realpath(path, NULL);
    size_t n = strlen(source_real);
    char *rel = NULL;
    if (real != NULL && strncmp(real, source_real, n) == 0 && real[n] == '/') {
        rel = strdup(real + n + 1);
    }
    free(real);
    return rel;
}

/* The same branch from several copies of the code (a header in several
 * translation units) is one: its counts are added up. */
static void coverage_export_add_branch(coverage_file *f, const coverage_branch *b) {
    for (size_t i = 0; i < f->n_unreached; i++) {
        coverage_branch *u = &f->unreached[i];
        if (u->line == b->line && u->column == b->column && u->end_line == b->end_line &&
            u->end_column == b->end_column && strcmp(u->via, b->via) == 0) {
            u->taken += b->taken;
            u->not_taken += b->not_taken;
            return;
        }
    }
    f->unreached[f->n_unreached++] = *b;
}

static coverage_branch coverage_export_branch(const cJSON *a) {
    coverage_branch b = {(int)coverage_export_num(a, BR_LINE),
                         (int)coverage_export_num(a, BR_COL),
                         (int)coverage_export_num(a, BR_END_LINE),
                         (int)coverage_export_num(a, BR_END_COL),
                         (uint64_t)coverage_export_num(a, BR_TRUE),
                         (uint64_t)coverage_export_num(a, BR_FALSE),
                         ""};
    return b;
}

/* A macro's branches, at the place it is expanded (the expansion's
 * source region), named by where they are in the macro. */
static void coverage_export_expansion(coverage_file *f, const cJSON *e, const char *source_real) {
    const cJSON *site = cJSON_GetObjectItemCaseSensitive(e, "source_region");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(e, "filenames");
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(e, "branches")) {
        coverage_branch b = coverage_export_branch(a);
        const cJSON *name = cJSON_GetArrayItem(names, (int)coverage_export_num(a, BR_FILE));
        char *rel = cJSON_IsString(name)
                        ? coverage_export_relative(name->valuestring, source_real)
                        : NULL;
        snprintf(b.via, sizeof b.via, "%.120s:%d:%d", rel != NULL ? rel : "?", b.line, b.column);
        free(rel);
        b.line = (int)coverage_export_num(site, BR_LINE);
        b.column = (int)coverage_export_num(site, BR_COL);
        b.end_line = (int)coverage_export_num(site, BR_END_LINE);
        b.end_column = (int)coverage_export_num(site, BR_END_COL);
        coverage_export_add_branch(f, &b);
    }
}

static int coverage_export_by_line(const void *pa, const void *pb) {
    const coverage_branch *a = pa, *b = pb;
    if (a->line != b->line) {
        return a->line < b->line ? -1 : 1;
    }
    return a->column != b->column ? (a->column < b->column ? -1 : 1) : strcmp(a->via, b->via);
}

static size_t coverage_export_expanded(const cJSON *expansions) {
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, expansions) {
        n += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(e, "branches"));
    }
    return n;
}

static bool coverage_export_branches(coverage_file *f, const cJSON *file,
                                     const char *source_real) {
    const cJSON *branches = cJSON_GetObjectItemCaseSensitive(file, "branches");
    const cJSON *expansions = cJSON_GetObjectItemCaseSensitive(file, "expansions");
    size_t n = (size_t)cJSON_GetArraySize(branches) + coverage_export_expanded(expansions);
    f->unreached = calloc(n + 1, sizeof *f->unreached);
    if (f->unreached == NULL) {
        return false;
    }
    const cJSON *a;
    cJSON_ArrayForEach(a, branches) {
        coverage_branch b = coverage_export_branch(a);
        coverage_export_add_branch(f, &b);
    }
    cJSON_ArrayForEach(a, expansions) {
        coverage_export_expansion(f, a, source_real);
    }
    /* Keep those with a side never taken. */
    size_t k = 0;
    for (size_t i = 0; i < f->n_unreached; i++) {
        if (f->unreached[i].taken == 0 || f->unreached[i].not_taken == 0) {
            f->unreached[k++] = f->unreached[i];
        }
    }
    f->n_unreached = k;
    qsort(f->unreached, k, sizeof *f->unreached, coverage_export_by_line);
    return true;
}

typedef struct {
    double line, count;
    bool has_count, entry, gap;
} coverage_segment;

static coverage_segment coverage_export_segment(const cJSON *a) {
    coverage_segment s = {coverage_export_num(a, SEG_LINE), coverage_export_num(a, SEG_COUNT),
                          cJSON_IsTrue(cJSON_GetArrayItem(a, SEG_HAS_COUNT)),
                          cJSON_IsTrue(cJSON_GetArrayItem(a, SEG_ENTRY)),
                          cJSON_IsTrue(cJSON_GetArrayItem(a, SEG_GAP))};
    return s;
}

static bool coverage_export_region_start(const coverage_segment *s) {
    return !s->gap && s->has_count && s->entry;
}

static void coverage_export_uncovered_line(coverage_file *f, int line) {
    if (f->n_uncovered > 0 && f->uncovered[f->n_uncovered - 1].last == line - 1) {
        f->uncovered[f->n_uncovered - 1].last = line;
    } else {
        f->uncovered[f->n_uncovered].first = line;
        f->uncovered[f->n_uncovered++].last = line;
    }
}

/* One line's segments [*i, end of the line) against the segment wrapping
 * onto it, as llvm-cov counts lines (LineCoverageStats): the line is
 * mapped when a region starts on it or a counted region wraps onto it,
 * unless it opens a skipped region; its count is the largest of those.
 * True when it is mapped and ran zero times. */
static bool coverage_export_line_unrun(const coverage_segment *seg, size_t n, size_t *i,
                                       int line, const coverage_segment *wrapped) {
    size_t from = *i;
    int starts = 0;
    double count = wrapped != NULL && wrapped->has_count ? wrapped->count : 0;
    for (; *i < n && (int)seg[*i].line == line; (*i)++) {
        bool start = coverage_export_region_start(&seg[*i]);
        starts += start ? 1 : 0;
        count = start && seg[*i].count > count ? seg[*i].count : count;
    }
    bool skipped = *i > from && !seg[from].has_count && seg[from].entry;
    bool mapped = !skipped && ((wrapped != NULL && wrapped->has_count) || starts > 0);
    return mapped && count == 0;
}

static bool coverage_export_lines(coverage_file *f, const cJSON *segments) {
    size_t n = (size_t)cJSON_GetArraySize(segments), k = 0;
    coverage_segment *seg = calloc(n + 1, sizeof *seg);
    f->uncovered = calloc(n + 1, sizeof *f->uncovered);
    if (seg == NULL || f->uncovered == NULL) {
        free(seg);
        return false;
    }
    const cJSON *a;
    cJSON_ArrayForEach(a, segments) {
        seg[k++] = coverage_export_segment(a);
    }
    const coverage_segment *wrapped = NULL;
    for (size_t i = 0; i < n;) {
        int line = (int)seg[i].line;
        /* Lines with no segment of their own, under the wrapping one. */
        for (int gap = wrapped != NULL ? (int)wrapped->line + 1 : line; gap < line; gap++) {
            size_t none = i;
            if (coverage_export_line_unrun(seg, i, &none, gap, wrapped)) {
                coverage_export_uncovered_line(f, gap);
            }
        }
        if (coverage_export_line_unrun(seg, n, &i, line, wrapped)) {
            coverage_export_uncovered_line(f, line);
        }
        wrapped = &seg[i - 1];
    }
    free(seg);
    return true;
}

static bool coverage_export_file(coverage_export *x, const cJSON *file, const char *source_real) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(file, "filename");
    char *rel = cJSON_IsString(name) ? coverage_export_relative(name->valuestring, source_real)
                                     : NULL;
    const char *group = rel != NULL ? coverage_export_group(rel) : NULL;
    if (group == NULL) {
        free(rel);
        return true;
    }
    coverage_file *f = &x->files[x->n_files++];
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(file, "summary");
    f->file = rel;
    f->group = group;
    f->lines = coverage_export_count(summary, "lines");
    f->branches = coverage_export_count(summary, "branches");
    f->functions = coverage_export_count(summary, "functions");
    f->regions = coverage_export_count(summary, "regions");
    if (strcmp(group, "oracle") == 0) {
        return true;
    }
    return coverage_export_branches(f, file, source_real) &&
           coverage_export_lines(f, cJSON_GetObjectItemCaseSensitive(file, "segments"));
}

static bool coverage_export_walk(coverage_export *x, const cJSON *root, const char *json,
                                 const char *source_real, gm_error *err) {
    const cJSON *data = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "data"), 0);
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(data, "files");
    const cJSON *totals = cJSON_GetObjectItemCaseSensitive(data, "totals");
    if (!cJSON_IsArray(files) || !cJSON_IsObject(totals)) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s: not llvm-cov export's JSON (no "
                            "data[0].files, data[0].totals)", json);
    }
    x->lines = coverage_export_count(totals, "lines");
    x->branches = coverage_export_count(totals, "branches");
    x->files = calloc((size_t)cJSON_GetArraySize(files) + 1, sizeof *x->files);
    if (x->files == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", json);
    }
    const cJSON *file;
    cJSON_ArrayForEach(file, files) {
        if (!coverage_export_file(x, file, source_real)) {
            return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", json);
        }
    }
    return true;
}

bool coverage_export_read(const char *json, const char *source, coverage_export *x,
                          gm_error *err) {
    memset(x, 0, sizeof *x);
    size_t size = 0;
    char *text = (char *)fuzz_casefile_slurp(json, &size, err);
    cJSON *root = text != NULL ? gm_json_tree_parse(text, size, err) : NULL;
    char *source_real = realpath(source, NULL);
    bool ok = root != NULL;
    if (ok && source_real == NULL) {
        ok = gm_error_set(err, GM_ERR_IO, "%s: cannot resolve the source folder", source);
    }
    if (ok) {
        ok = coverage_export_walk(x, root, json, source_real, err);
    } else if (root == NULL && text != NULL) {
        gm_error_prefix(err, json);
    }
    cJSON_Delete(root);
    free(text);
    free(source_real);
    if (!ok) {
        coverage_export_free(x);
    }
    return ok;
}

void coverage_export_free(coverage_export *x) {
    for (size_t i = 0; x->files != NULL && i < x->n_files; i++) {
        free(x->files[i].file);
        free(x->files[i].unreached);
        free(x->files[i].uncovered);
    }
    free(x->files);
    memset(x, 0, sizeof *x);
}
