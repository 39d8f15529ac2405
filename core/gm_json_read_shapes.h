/* gm_json_read_shapes: the fields whose shape is checked before they are
 * read: integer arrays, req_to_token, init, the output buffers, buffer
 * lists, class lists and first_difference's index, and the rules about
 * the buffers a case has. Arrays are walked where they lie in the text,
 * after their shape and size passed the checks. Not public API. */
#ifndef GM_JSON_READ_SHAPES_H
#define GM_JSON_READ_SHAPES_H

#include <stdbool.h>

#include "gm_json_fields.h"
#include "gm_json_reader.h"

/* Reads the member `item` (absent: item.at NULL) of row `f` (kind ARRAY,
 * ROWS, INIT, BUFFER, BUFFER_SET, STRINGS or INDEX) into `object`. */
bool gm_json_read_shapes_field(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                               void *object);

/* GM_JSON_RULE_COUNT_OUTPUTS and GM_JSON_RULE_DIFFERENCE_BUFFER. */
bool gm_json_read_shapes_count_outputs(gm_json_reader *rd, const gm_case *c);
bool gm_json_read_shapes_difference_buffer(gm_json_reader *rd, const gm_difference *d);

#endif
