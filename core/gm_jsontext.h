/* gm_jsontext: JSON values read in place, in text that gm_jsonscan has
 * accepted (issue 11, item 6).
 *
 * A cJSON tree costs ~80 bytes per integer (a node, a double, links), so a
 * 132 MB case of 66M zeros took 5.5 GB. Here a value is a pointer to its
 * first byte in the document's text; an array is walked with a cursor,
 * never expanded; only the objects a reader opens get a table of their
 * members (key and value pointers, 16 bytes each, allocated once). Reading an integer
 * array therefore costs its text and the array that receives it.
 *
 * Every function trusts the grammar: the text must have passed
 * gm_jsonscan_value_check (which is also what makes the scanner and the
 * full reader accept the same documents).
 */
#ifndef GM_JSONTEXT_H
#define GM_JSONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GM_JT_NONE, /* no value: an absent member */
    GM_JT_NULL,
    GM_JT_TRUE,
    GM_JT_FALSE,
    GM_JT_NUMBER,
    GM_JT_STRING,
    GM_JT_ARRAY,
    GM_JT_OBJECT,
} gm_jt_type;

/* A value: its first byte; NULL for none. */
typedef struct {
    const char *at;
} gm_jt;

gm_jt_type gm_jt_type_of(gm_jt v);

/* "null", "true", "false", "a number", "a string", "an array", "an object"
 * ("nothing" for none): the words gm_jsonint_type_name uses. */
const char *gm_jt_type_name(gm_jt v);

/* The byte just after the value. */
const char *gm_jt_end(gm_jt v);

/* ---- arrays --------------------------------------------------------------- */

typedef struct {
    const char *at; /* after '[' or after the last element returned */
} gm_jt_cursor;

void gm_jt_array_begin(gm_jt array, gm_jt_cursor *c);
/* The next element; false after the last. c->at is then just after it, so
 * a number's text is elem->at .. c->at. */
bool gm_jt_array_next(gm_jt_cursor *c, gm_jt *elem);
size_t gm_jt_array_count(gm_jt array);

/* ---- objects -------------------------------------------------------------- */

/* 16 bytes: a hostile object of 50M members ("":0, is 5 bytes of text)
 * must stay within the reader's memory bound. */
typedef struct {
    const char *key; /* the raw key, after its opening quote */
    gm_jt value;
} gm_jt_member;

typedef struct {
    gm_jt_member *members;
    size_t n;
} gm_jt_object;

/* The members of `object`, in order (counted first, so that the table is
 * allocated once and exactly); false when memory runs out. */
bool gm_jt_object_open(gm_jt object, gm_jt_object *o);
void gm_jt_object_free(gm_jt_object *o);

/* Whether the member's decoded key is `name`. */
bool gm_jt_key_is(const gm_jt_member *m, const char *name);
/* The decoded key, NUL-terminated (malloc); NULL when memory runs out. */
char *gm_jt_key_dup(const gm_jt_member *m);

/* ---- strings -------------------------------------------------------------- */

/* The decoded string (UTF-8; a \u0000 ends the C string, a lone surrogate
 * becomes U+FFFD), NUL-terminated (malloc); NULL when memory runs out. */
char *gm_jt_string_dup(gm_jt v);
/* Whether the decoded string is `s`. */
bool gm_jt_string_is(gm_jt v, const char *s);

#endif
