#include "harness.h"

#include <stdio.h>
#include <string.h>

static const char *const harness_target_backend_names[HARNESS_BACKEND_COUNT] = {
    "cpu", "cuda", "cuda-graph", "cuda-raw", "lib", "python",
};

#define HARNESS_TARGET_FORMS                                                                       \
    "builtin:cpu|cuda|cuda-graph|cuda-raw, lib:PATH.so or python:[MODULE][:FUNCTION]"

const char *harness_target_backend_name(harness_backend_kind kind) {
    return (unsigned)kind < HARNESS_BACKEND_COUNT ? harness_target_backend_names[kind] : "?";
}

bool harness_target_backend_from_name(const char *name, harness_backend_kind *out) {
    for (int k = 0; k <= HARNESS_BACKEND_CUDA_RAW; k++) {
        if (strcmp(name, harness_target_backend_names[k]) == 0) {
            *out = (harness_backend_kind)k;
            return true;
        }
    }
    return false;
}

static void harness_target_defaults(harness_target_spec *out) {
    memset(out, 0, sizeof *out);
    out->timeout_s = HARNESS_TARGET_DEFAULT_TIMEOUT_S;
    out->compile_timeout_s = HARNESS_TARGET_DEFAULT_COMPILE_TIMEOUT_S;
    out->start_timeout_s = HARNESS_TARGET_DEFAULT_START_TIMEOUT_S;
}

void harness_target_builtin(harness_target_spec *out, harness_backend_kind kind) {
    harness_target_defaults(out);
    out->kind = HARNESS_TARGET_BUILTIN;
    out->builtin = kind;
}

static bool harness_target_copy(char *dst, size_t size, const char *src, size_t n, const char *what,
                                gm_error *err) {
    if (n >= size) {
        return gm_error_set(err, GM_ERR_USAGE, "target: the %s is longer than %zu bytes", what,
                            size - 1);
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
    return true;
}

/* "MODULE[:FUNCTION]": the last ':' separates a function, unless what
 * follows it is not an identifier (a path such as C:/x stays whole). */
static bool harness_target_parse_python(const char *rest, harness_target_spec *out, gm_error *err) {
    out->kind = HARNESS_TARGET_PYTHON;
    out->builtin = HARNESS_BACKEND_PYTHON;
    const char *colon = strrchr(rest, ':');
    bool has_function = colon != NULL && colon[1] != '\0' && strchr(colon + 1, '/') == NULL &&
                        strchr(colon + 1, '.') == NULL;
    size_t module_len = has_function ? (size_t)(colon - rest) : strlen(rest);
    if (colon != NULL && !has_function && colon[1] == '\0') {
        module_len = (size_t)(colon - rest); /* "python:M:" = default function */
    }
    return harness_target_copy(out->path, sizeof out->path, rest, module_len, "module", err) &&
           (!has_function || harness_target_copy(out->function, sizeof out->function, colon + 1,
                                                 strlen(colon + 1), "function name", err));
}

bool harness_target_parse(const char *text, harness_target_spec *out, gm_error *err) {
    harness_target_defaults(out);
    harness_backend_kind kind;
    const char *builtin = strncmp(text, "builtin:", 8) == 0 ? text + 8 : text;
    if (harness_target_backend_from_name(builtin, &kind)) {
        harness_target_builtin(out, kind);
        return true;
    }
    if (strncmp(text, "lib:", 4) == 0) {
        out->kind = HARNESS_TARGET_LIB;
        out->builtin = HARNESS_BACKEND_LIB;
        if (text[4] == '\0') {
            return gm_error_set(err, GM_ERR_USAGE, "target '%s': lib: needs the library's path",
                                text);
        }
        return harness_target_copy(out->path, sizeof out->path, text + 4, strlen(text + 4),
                                   "library path", err);
    }
    if (strncmp(text, "python:", 7) == 0 || strcmp(text, "python") == 0) {
        return harness_target_parse_python(text[6] == ':' ? text + 7 : "", out, err);
    }
    return gm_error_set(err, GM_ERR_USAGE, "target '%s' is not one of " HARNESS_TARGET_FORMS, text);
}

void harness_target_format(const harness_target_spec *t, char *out, size_t size) {
    switch (t->kind) {
    case HARNESS_TARGET_BUILTIN:
        snprintf(out, size, "builtin:%s", harness_target_backend_name(t->builtin));
        break;
    case HARNESS_TARGET_LIB:
        snprintf(out, size, "lib:%s", t->path);
        break;
    case HARNESS_TARGET_PYTHON:
        snprintf(out, size, "python:%s%s%s", t->path, t->function[0] ? ":" : "", t->function);
        break;
    }
}

bool harness_target_is_external(const harness_target_spec *t) {
    return t->kind != HARNESS_TARGET_BUILTIN;
}
