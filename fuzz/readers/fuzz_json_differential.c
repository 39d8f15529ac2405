/* fuzz_json_differential: the triage scanner and the full document reader
 * accept and reject the same JSON (issue 11: one acceptance rule for every
 * reader).
 *
 * The full reader (gm_json_parse) also rejects valid JSON for what it
 * says (a missing field, a bad value); only its JSON verdicts are compared:
 * a text is JSON to it unless it fails with a syntax message ("JSON syntax
 * error", "unexpected text after the JSON document") or, for a text that
 * is valid JSON but no object, "the document must be a JSON object". The
 * scanner's verdict is gm_jsonscan_object's, with no wanted keys.
 *   - the scanner accepts  => the reader reports no syntax error;
 *   - the scanner rejects  => the reader fails, and with a syntax message
 *                             (or "must be a JSON object" for a non-object);
 *   - the reader accepts   => the scanner accepts.
 * The readers that walk cJSON trees (known.json, campaign.json, a line of
 * stats.jsonl, triage's reproducer fields) get the same text through a
 * file and must agree with the scanner's value check: they reject what it
 * rejects (the reason may be another they find first, such as a key given
 * twice), and never call bad JSON what it accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader_file.h"
#include "triage.h"
#include "gm_json.h"
#include "gm_jsonscan.h"
#include "repro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_json_differential_syntax(const char *msg) {
    return strstr(msg, "fuzz: JSON syntax error") == msg ||
           strstr(msg, "fuzz: unexpected text after the JSON document") == msg;
}

static bool fuzz_json_differential_not_object(const char *msg) {
    return strstr(msg, "fuzz: the document must be a JSON object") == msg;
}

static void fuzz_json_differential_fail(const char *what, const char *msg) {
    fprintf(stderr, "fuzz_json_differential: %s (the reader: %s)\n", what, msg);
    abort();
}

/* A file reader's JSON verdict: false when it failed for the syntax, which
 * its message says first, after the file ("PATH: JSON syntax error ...",
 * "PATH: not valid JSON: ...", stats: "PATH: line N: not valid JSON"); the
 * rest of a message may quote the text itself. */
static bool fuzz_json_differential_file_syntax_ok(const char *path, const gm_error *err) {
    size_t n = strlen(path);
    const char *p = err->msg;
    if (strncmp(p, path, n) != 0 || strncmp(p + n, ": ", 2) != 0) {
        return true;
    }
    p += n + 2;
    if (strncmp(p, "line ", 5) == 0 && strstr(p, ": ") != NULL) {
        p = strstr(p, ": ") + 2;
    }
    static const char *const syntax[] = {"JSON syntax error", "unexpected text after the JSON",
                                         "not valid JSON"};
    for (size_t k = 0; k < sizeof syntax / sizeof syntax[0]; k++) {
        if (strncmp(p, syntax[k], strlen(syntax[k])) == 0) {
            return false;
        }
    }
    return true;
}

/* Text the scanner rejects, the reader must reject (for whatever reason it
 * finds first); text it accepts, the reader must not call bad JSON. */
static void fuzz_json_differential_agree(const char *reader, const char *path, bool json,
                                         bool ok, const gm_error *err) {
    const char *wrong = !json && ok ? "accepts text the scanner rejects"
                        : json && !ok && !fuzz_json_differential_file_syntax_ok(path, err)
                            ? "calls bad JSON what the scanner accepts"
                            : NULL;
    if (wrong != NULL) {
        fprintf(stderr, "fuzz_json_differential: %s %s (%s)\n", reader, wrong,
                ok ? "ok" : err->msg);
        abort();
    }
}

static bool fuzz_json_differential_one_line(const uint8_t *data, size_t size) {
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r')) {
        i++;
    }
    return i < size && memchr(data, '\n', size) == NULL;
}

/* The readers of known.json, campaign.json, stats.jsonl and triage's
 * reproducer fields, on the same text. */
static void fuzz_json_differential_files(const uint8_t *data, size_t size, bool json) {
    const char *path = fuzz_reader_file_put(data, size);
    gm_error err = {0};
    triage_baseline *b = NULL;
    bool ok = triage_baseline_load(path, &b, &err);
    triage_baseline_free(b);
    fuzz_json_differential_agree("known.json", path, json, ok, &err);
    repro_rundir_campaign c;
    memset(&c, 0, sizeof c);
    err = (gm_error){0};
    ok = repro_rundir_campaign_read(path, &c, &err);
    repro_rundir_campaign_free(&c);
    fuzz_json_differential_agree("campaign.json", path, json, ok, &err);
    repro_fields fields;
    err = (gm_error){0};
    ok = repro_fields_read(path, &fields, &err);
    /* triage's reader checks for '{' before the syntax */
    if (ok || strstr(err.msg, "the document must be a JSON object") == NULL) {
        fuzz_json_differential_agree("triage's reproducer reader", path, json, ok, &err);
    }
    if (fuzz_json_differential_one_line(data, size)) {
        uint8_t *line = malloc(size + 1);
        if (line == NULL) {
            return;
        }
        memcpy(line, data, size);
        line[size] = '\n';
        path = fuzz_reader_file_put(line, size + 1);
        free(line);
        repro_rundir_sample *samples = NULL;
        size_t n = 0;
        err = (gm_error){0};
        ok = repro_rundir_stats_read(path, &samples, &n, &err);
        free(samples);
        fuzz_json_differential_agree("stats.jsonl", path, json, ok, &err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    gm_limits lim;
    gm_limits_default(&lim);
    lim.max_elements = (size_t)1 << 20;
    gm_doc doc;
    gm_error read_err = {0}, scan_err = {0};
    bool read = gm_json_parse(text, size, "fuzz", &lim, &doc, &read_err);
    gm_doc_free(&doc);
    gm_jsonscan_span unused;
    bool scanned = gm_jsonscan_object(text, size, NULL, 0, &unused, &scan_err);
    size_t at;
    const char *expected;
    bool json = gm_jsonscan_value_check(text, size, &at, &expected);
    if (read && !scanned) {
        fuzz_json_differential_fail("the reader accepts what the scanner rejects", "ok");
    }
    if (scanned && !read && fuzz_json_differential_syntax(read_err.msg)) {
        fuzz_json_differential_fail("the scanner accepts what the reader calls a syntax error",
                                    read_err.msg);
    }
    if (!scanned && !read && !fuzz_json_differential_syntax(read_err.msg) &&
        !(json && fuzz_json_differential_not_object(read_err.msg))) {
        fuzz_json_differential_fail("the scanner rejects the JSON, the reader for another reason",
                                    read_err.msg);
    }
    fuzz_json_differential_files(data, size, json);
    return 0;
}
