/* fuzz_settings: a job's settings (fuzz_settings.def, the one table of
 * them), read from the environment into a plain struct before any input
 * runs; and the warning for a GMFUZZ_* name the table does not know,
 * which would otherwise be ignored without a word. */
#ifndef FUZZ_SETTINGS_H
#define FUZZ_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_sched.h"
#include "gm_error.h"

/* FUZZ_SETTING_<ID>: the row of GMFUZZ_<ID>. */
typedef enum {
#define FUZZ_SETTING(id, field, type, def, max, help) FUZZ_SETTING_##id,
#include "fuzz_settings.def"
    FUZZ_SETTING_COUNT
} fuzz_setting;

/* The C type of each kind of setting. */
#define FUZZ_SETTINGS_CTYPE_TEXT const char *
#define FUZZ_SETTINGS_CTYPE_FLAG bool
#define FUZZ_SETTINGS_CTYPE_PERCENT unsigned
#define FUZZ_SETTINGS_CTYPE_COUNT uint64_t
#define FUZZ_SETTINGS_CTYPE_SECONDS double

/* Every setting, its default where it was not set. */
typedef struct {
#define FUZZ_SETTING(id, field, type, def, max, help) FUZZ_SETTINGS_CTYPE_##type field;
#include "fuzz_settings.def"
} fuzz_settings;

/* "GMFUZZ_<ID>". */
const char *fuzz_settings_name(fuzz_setting s);

/* The settings from the environment; false (the variable and its value in
 * err) when one is not of its type. Warns about unknown names first
 * (fuzz_settings_warn). */
bool fuzz_settings_read(fuzz_settings *out, gm_error *err);

/* One line on `to` for each GMFUZZ_* name in `env` (a NULL-ended
 * NAME=VALUE list, as environ) that is neither a setting nor a known other
 * variable, naming the closest known name; how many lines. */
int fuzz_settings_warn(char *const *env, FILE *to);

/* The known GMFUZZ_* name nearest to `name` (edit distance). */
const char *fuzz_settings_closest(const char *name);

#endif
