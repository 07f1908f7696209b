/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON output through jansson (json.c): every JSON document vfslab writes
 * is built as a jansson value and dumped here, so strings are escaped and
 * numbers formatted one way.
 *
 * Names (file names, variant labels, profile names) are bytes, JSON strings
 * are Unicode: a string that is not valid UTF-8 has each invalid byte
 * replaced by U+FFFD, and out_json_set_name() then adds KEY_hex, the
 * original bytes in hex, so nothing is lost and every reader parses it.
 */
#ifndef VFSLAB_TOOLS_OUT_JSON_H
#define VFSLAB_TOOLS_OUT_JSON_H

#include <jansson.h>
#include <stdio.h>

/* A JSON string of s, invalid UTF-8 bytes as U+FFFD. */
json_t *out_json_str(const char *s);
/* obj.key = s as out_json_str(); where s is not UTF-8, also obj.key_hex. */
void out_json_set_name(json_t *obj, const char *key, const char *s);
/* v rounded to decimals places (an integer for 0); null if not finite. */
json_t *out_json_num(double v, int decimals);
struct scenario;
/* A seed scenario as compare and sim describe it: name, claim, sides, source, figure. */
json_t *out_json_scenario(const struct scenario *s);
/* root on one line and a newline; 0, or -1 if the write failed. */
int out_json_dump(FILE *f, const json_t *root);

#endif /* VFSLAB_TOOLS_OUT_JSON_H */
