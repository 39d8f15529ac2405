#include "gm_target.h"

#include <stdio.h>
#include <string.h>

static const char *const gm_target_backend_names[GM_BACKEND_COUNT] = {
    "cpu", "cuda", "cuda-graph", "cuda-raw", "lib", "python",
};

#define GM_TARGET_FORMS "builtin:cpu|cuda|cuda-graph|cuda-raw, lib:PATH.so or python:[MODULE][:FUNCTION]"

const char *gm_backend_kind_name(gm_backend_kind kind) {
    return (unsigned)kind < GM_BACKEND_COUNT ? gm_target_backend_names[kind] : "?";
}

bool gm_backend_kind_from_name(const char *name, gm_backend_kind *out) {
    for (int k = 0; k <= GM_BACKEND_CUDA_RAW; k++) {
        if (strcmp(name, gm_target_backend_names[k]) == 0) {
            *out = (gm_backend_kind)k;
            return true;
        }
    }
    return false;
}

static void gm_target_defaults(gm_target_spec *out) {
    memset(out, 0, sizeof *out);
    out->timeout_s = GM_TARGET_DEFAULT_TIMEOUT_S;
}

void gm_target_builtin(gm_target_spec *out, gm_backend_kind kind) {
    gm_target_defaults(out);
    out->kind = GM_TARGET_BUILTIN;
    out->builtin = kind;
}

static bool gm_target_copy(char *dst, size_t size, const char *src, size_t n, const char *what,
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
static bool gm_target_parse_python(const char *rest, gm_target_spec *out, gm_error *err) {
    out->kind = GM_TARGET_PYTHON;
    out->builtin = GM_BACKEND_PYTHON;
    const char *colon = strrchr(rest, ':');
    bool has_function = colon != NULL && colon[1] != '\0' && strchr(colon + 1, '/') == NULL &&
                        strchr(colon + 1, '.') == NULL;
    size_t module_len = has_function ? (size_t)(colon - rest) : strlen(rest);
    if (colon != NULL && !has_function && colon[1] == '\0') {
        module_len = (size_t)(colon - rest); /* "python:M:" = default function */
    }
    return gm_target_copy(out->path, sizeof out->path, rest, module_len, "module", err) &&
           (!has_function || gm_target_copy(out->function, sizeof out->function, colon + 1,
                                            strlen(colon + 1), "function name", err));
}

bool gm_target_parse(const char *text, gm_target_spec *out, gm_error *err) {
    gm_target_defaults(out);
    gm_backend_kind kind;
    const char *builtin = strncmp(text, "builtin:", 8) == 0 ? text + 8 : text;
    if (gm_backend_kind_from_name(builtin, &kind)) {
        gm_target_builtin(out, kind);
        return true;
    }
    if (strncmp(text, "lib:", 4) == 0) {
        out->kind = GM_TARGET_LIB;
        out->builtin = GM_BACKEND_LIB;
        if (text[4] == '\0') {
            return gm_error_set(err, GM_ERR_USAGE, "target '%s': lib: needs the library's path",
                                text);
        }
        return gm_target_copy(out->path, sizeof out->path, text + 4, strlen(text + 4),
                              "library path", err);
    }
    if (strncmp(text, "python:", 7) == 0 || strcmp(text, "python") == 0) {
        return gm_target_parse_python(text[6] == ':' ? text + 7 : "", out, err);
    }
    return gm_error_set(err, GM_ERR_USAGE, "target '%s' is not one of " GM_TARGET_FORMS, text);
}

void gm_target_format(const gm_target_spec *t, char *out, size_t size) {
    switch (t->kind) {
    case GM_TARGET_BUILTIN:
        snprintf(out, size, "builtin:%s", gm_backend_kind_name(t->builtin));
        break;
    case GM_TARGET_LIB: snprintf(out, size, "lib:%s", t->path); break;
    case GM_TARGET_PYTHON:
        snprintf(out, size, "python:%s%s%s", t->path, t->function[0] ? ":" : "", t->function);
        break;
    }
}

bool gm_target_is_external(const gm_target_spec *t) { return t->kind != GM_TARGET_BUILTIN; }
