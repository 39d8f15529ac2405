/* gm_json_internal: what the JSON reader and writer must agree on and that
 * is not public API: the "format" strings of the three documents. */
#ifndef GM_JSON_INTERNAL_H
#define GM_JSON_INTERNAL_H

#define GM_JSON_FORMAT_CASE "gmfuzz-case-v1"
#define GM_JSON_FORMAT_VECTOR "gmfuzz-vector-v1"
#define GM_JSON_FORMAT_REPRO "gmfuzz-repro-v1"

#endif
