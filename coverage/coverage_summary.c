#include "coverage_summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "gm_file.h"

#ifndef GMFUZZ_VERSION
#define GMFUZZ_VERSION "0.0.0"
#endif

#define COVERAGE_SUMMARY_CODE_MAX 96

static const char *const coverage_summary_groups[] = {"semantics", "reference", "oracle"};

/* ---- numbers ------------------------------------------------------------ */

static coverage_count coverage_summary_add(coverage_count a, coverage_count b) {
    coverage_count c = {a.covered + b.covered, a.count + b.count};
    return c;
}

static void coverage_summary_group(const coverage_export *x, const char *group,
                                   coverage_count *lines, coverage_count *branches, int *files) {
    *lines = (coverage_count){0};
    *branches = (coverage_count){0};
    *files = 0;
    for (size_t i = 0; i < x->n_files; i++) {
        if (strcmp(x->files[i].group, group) == 0) {
            *lines = coverage_summary_add(*lines, x->files[i].lines);
            *branches = coverage_summary_add(*branches, x->files[i].branches);
            (*files)++;
        }
    }
}

/* "97.1% (203/209)", or "-" for a file with none. */
static void coverage_summary_cell(coverage_count c, char *out, size_t size) {
    if (c.count == 0) {
        snprintf(out, size, "-");
    } else {
        snprintf(out, size, "%.1f%% (%" PRIu64 "/%" PRIu64 ")", 100.0 * (double)c.covered /
                 (double)c.count, c.covered, c.count);
    }
}

/* "never true", "never false", "never evaluated". */
static const char *coverage_summary_never(const coverage_branch *b) {
    return b->taken == 0 && b->not_taken == 0 ? "never evaluated"
           : b->taken == 0                    ? "never true"
                                              : "never false";
}

/* ---- the lines of code a branch is on ----------------------------------- */

typedef struct {
    char *text;
    size_t size;
} coverage_summary_source;

static void coverage_summary_source_load(coverage_summary_source *s, const char *source,
                                         const char *rel) {
    char path[4096];
    gm_error ignored = {0};
    snprintf(path, sizeof path, "%s/%s", source, rel);
    s->text = (char *)fuzz_casefile_slurp(path, &s->size, &ignored);
}

/* Line `line` (1-based), without its indentation, at most `size` - 1 bytes. */
static void coverage_summary_code(const coverage_summary_source *s, int line, char *out,
                                  size_t size) {
    size_t at = 0;
    out[0] = '\0';
    for (int k = 1; s->text != NULL && k < line && at < s->size; at++) {
        k += s->text[at] == '\n' ? 1 : 0;
    }
    while (s->text != NULL && at < s->size && (s->text[at] == ' ' || s->text[at] == '\t')) {
        at++;
    }
    size_t n = 0;
    while (s->text != NULL && at + n < s->size && s->text[at + n] != '\n' && n + 1 < size) {
        n++;
    }
    if (n > 0) {
        memcpy(out, s->text + at, n);
    }
    out[n] = '\0';
}

/* ---- summary.json -------------------------------------------------------- */

static cJSON *coverage_summary_count_json(coverage_count c) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "covered", (double)c.covered);
    cJSON_AddNumberToObject(o, "count", (double)c.count);
    if (c.count > 0) {
        cJSON_AddNumberToObject(o, "percent", 100.0 * (double)c.covered / (double)c.count);
    } else {
        cJSON_AddNullToObject(o, "percent");
    }
    return o;
}

static cJSON *coverage_summary_groups_json(const coverage_export *x) {
    cJSON *groups = cJSON_CreateObject();
    for (size_t g = 0; g < 3; g++) {
        coverage_count lines, branches;
        int files;
        coverage_summary_group(x, coverage_summary_groups[g], &lines, &branches, &files);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "files", files);
        cJSON_AddItemToObject(o, "lines", coverage_summary_count_json(lines));
        cJSON_AddItemToObject(o, "branches", coverage_summary_count_json(branches));
        cJSON_AddItemToObject(groups, coverage_summary_groups[g], o);
    }
    return groups;
}

static cJSON *coverage_summary_files_json(const coverage_export *x) {
    cJSON *files = cJSON_CreateArray();
    for (size_t i = 0; i < x->n_files; i++) {
        const coverage_file *f = &x->files[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", f->file);
        cJSON_AddStringToObject(o, "group", f->group);
        cJSON_AddItemToObject(o, "lines", coverage_summary_count_json(f->lines));
        cJSON_AddItemToObject(o, "branches", coverage_summary_count_json(f->branches));
        cJSON_AddItemToObject(o, "functions", coverage_summary_count_json(f->functions));
        cJSON_AddItemToObject(o, "regions", coverage_summary_count_json(f->regions));
        cJSON_AddItemToArray(files, o);
    }
    return files;
}

static cJSON *coverage_summary_branch_json(const coverage_branch *b,
                                           const coverage_summary_source *src) {
    char code[COVERAGE_SUMMARY_CODE_MAX];
    coverage_summary_code(src, b->line, code, sizeof code);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", b->line);
    cJSON_AddNumberToObject(o, "column", b->column);
    cJSON_AddNumberToObject(o, "end_line", b->end_line);
    cJSON_AddNumberToObject(o, "end_column", b->end_column);
    cJSON_AddNumberToObject(o, "true", (double)b->taken);
    cJSON_AddNumberToObject(o, "false", (double)b->not_taken);
    cJSON_AddStringToObject(o, "never", coverage_summary_never(b) + 6);
    if (b->via[0] != '\0') {
        cJSON_AddStringToObject(o, "macro_branch", b->via);
    }
    cJSON_AddStringToObject(o, "code", code);
    return o;
}

static cJSON *coverage_summary_unreached_json(const coverage_file *f, const char *source) {
    coverage_summary_source src = {0};
    coverage_summary_source_load(&src, source, f->file);
    cJSON *o = cJSON_CreateObject(), *branches = cJSON_CreateArray(), *lines = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "file", f->file);
    for (size_t i = 0; i < f->n_unreached; i++) {
        cJSON_AddItemToArray(branches, coverage_summary_branch_json(&f->unreached[i], &src));
    }
    for (size_t i = 0; i < f->n_uncovered; i++) {
        cJSON *range = cJSON_CreateArray();
        cJSON_AddItemToArray(range, cJSON_CreateNumber(f->uncovered[i].first));
        cJSON_AddItemToArray(range, cJSON_CreateNumber(f->uncovered[i].last));
        cJSON_AddItemToArray(lines, range);
    }
    cJSON_AddItemToObject(o, "branches", branches);
    cJSON_AddItemToObject(o, "lines", lines);
    free(src.text);
    return o;
}

static cJSON *coverage_summary_json(const coverage_summary_info *info, const coverage_export *x) {
    cJSON *root = cJSON_CreateObject(), *unreached = cJSON_CreateArray(),
          *total = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", COVERAGE_SUMMARY_FORMAT);
    cJSON_AddStringToObject(root, "tool_version", "gmfuzz " GMFUZZ_VERSION);
    cJSON_AddStringToObject(root, "folder", info->folder);
    cJSON_AddStringToObject(root, "source", info->source);
    cJSON_AddStringToObject(root, "inputs", info->inputs);
    cJSON_AddStringToObject(root, "html", "html/index.html");
    cJSON_AddItemToObject(root, "groups", coverage_summary_groups_json(x));
    cJSON_AddItemToObject(root, "files", coverage_summary_files_json(x));
    cJSON_AddItemToObject(total, "lines", coverage_summary_count_json(x->lines));
    cJSON_AddItemToObject(total, "branches", coverage_summary_count_json(x->branches));
    cJSON_AddItemToObject(root, "all_files", total);
    for (size_t i = 0; i < x->n_files; i++) {
        if (strcmp(x->files[i].group, "oracle") != 0) {
            cJSON_AddItemToArray(unreached,
                                 coverage_summary_unreached_json(&x->files[i], info->source));
        }
    }
    cJSON_AddItemToObject(root, "unreached", unreached);
    return root;
}

/* ---- summary.txt --------------------------------------------------------- */

void coverage_summary_table(FILE *out, const coverage_export *x) {
    char l[64], b[64];
    fprintf(out, "%-28s %-10s %-24s %s\n", "file", "group", "lines", "branches");
    for (size_t i = 0; i < x->n_files; i++) {
        coverage_summary_cell(x->files[i].lines, l, sizeof l);
        coverage_summary_cell(x->files[i].branches, b, sizeof b);
        fprintf(out, "%-28s %-10s %-24s %s\n", x->files[i].file, x->files[i].group, l, b);
    }
    for (size_t g = 0; g < 3; g++) {
        coverage_count lines, branches;
        int files;
        coverage_summary_group(x, coverage_summary_groups[g], &lines, &branches, &files);
        coverage_summary_cell(lines, l, sizeof l);
        coverage_summary_cell(branches, b, sizeof b);
        fprintf(out, "%-28s %-10s %-24s %s\n", "(group)", coverage_summary_groups[g], l, b);
    }
    coverage_summary_cell(x->lines, l, sizeof l);
    coverage_summary_cell(x->branches, b, sizeof b);
    fprintf(out, "%-28s %-10s %-24s %s\n", "(every file built)", "", l, b);
}

static void coverage_summary_unreached_text(FILE *out, const coverage_file *f,
                                            const char *source) {
    coverage_summary_source src = {0};
    char code[COVERAGE_SUMMARY_CODE_MAX];
    coverage_summary_source_load(&src, source, f->file);
    fprintf(out, "\n%s: %zu branch%s with a side never taken\n", f->file, f->n_unreached,
            f->n_unreached == 1 ? "" : "es");
    for (size_t i = 0; i < f->n_unreached; i++) {
        const coverage_branch *br = &f->unreached[i];
        coverage_summary_code(&src, br->line, code, sizeof code);
        fprintf(out, "  %4d:%-3d %-15s %s\n", br->line, br->column, coverage_summary_never(br),
                code);
        if (br->via[0] != '\0') {
            fprintf(out, "           (a branch of the macro expanded here, at %s)\n", br->via);
        }
    }
    fprintf(out, "  lines never run:%s", f->n_uncovered == 0 ? " none" : "");
    for (size_t i = 0; i < f->n_uncovered; i++) {
        const coverage_lines *r = &f->uncovered[i];
        fprintf(out, "%s %d", i > 0 ? "," : "", r->first);
        if (r->last != r->first) {
            fprintf(out, "-%d", r->last);
        }
    }
    fputc('\n', out);
    free(src.text);
}

static char *coverage_summary_text(const coverage_summary_info *info, const coverage_export *x,
                                   size_t *len) {
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (out == NULL) {
        return NULL;
    }
    fprintf(out, "gmfuzz coverage: %s\ninputs: %s\n\n", info->folder, info->inputs);
    coverage_summary_table(out, x);
    for (size_t i = 0; i < x->n_files; i++) {
        if (strcmp(x->files[i].group, "oracle") != 0) {
            coverage_summary_unreached_text(out, &x->files[i], info->source);
        }
    }
    fprintf(out, "\nHTML: html/index.html\n");
    fclose(out);
    return text;
}

bool coverage_summary_write(const coverage_summary_info *info, const coverage_export *x,
                            gm_error *err) {
    char path[4096];
    cJSON *root = coverage_summary_json(info, x);
    char *json = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    size_t len = 0;
    char *text = json != NULL ? coverage_summary_text(info, x, &len) : NULL;
    bool ok = text != NULL;
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "%s/summary.json: out of memory", info->out);
    }
    if (ok) {
        snprintf(path, sizeof path, "%s/summary.txt", info->out);
        ok = gm_file_write_atomic(path, text, len, err);
    }
    if (ok) {
        /* The document and its newline. */
        size_t n = strlen(json);
        char *doc = malloc(n + 1);
        snprintf(path, sizeof path, "%s/summary.json", info->out);
        ok = doc != NULL || gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
        if (ok) {
            memcpy(doc, json, n);
            doc[n] = '\n';
            ok = gm_file_write_atomic(path, doc, n + 1, err);
        }
        free(doc);
    }
    free(text);
    cJSON_free(json);
    return ok;
}
