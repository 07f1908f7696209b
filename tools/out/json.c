// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON output through jansson; see json.h for how bytes that are not UTF-8
 * are carried.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tools/out/json.h"
#include "tools/scenarios.h"

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0 if the byte there starts none. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* s with each invalid byte as U+FFFD (malloc'd), or NULL if s is valid. */
static char *utf8_repair(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char *out = NULL;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(p + i);

		if (n && !out) {
			i += n;
			continue;
		}
		if (!out) {
			/* Each invalid byte grows to three. */
			out = malloc(len * 3 + 1);
			if (!out)
				return NULL;
			memcpy(out, s, i);
			o = i;
		}
		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	if (out)
		out[o] = '\0';
	return out;
}

json_t *out_json_str(const char *s)
{
	char *fixed = utf8_repair(s);
	json_t *j = json_string(fixed ? fixed : s);

	free(fixed);
	return j;
}

void out_json_set_name(json_t *obj, const char *key, const char *s)
{
	char *fixed = utf8_repair(s);

	json_object_set_new(obj, key, json_string(fixed ? fixed : s));
	if (fixed) {
		size_t len = strlen(s), klen = strlen(key);
		char *hex = malloc(len * 2 + 1), *hkey = malloc(klen + sizeof("_hex"));

		if (hex && hkey) {
			for (size_t i = 0; i < len; i++)
				snprintf(hex + 2 * i, 3, "%02x", (unsigned char)s[i]);
			memcpy(hkey, key, klen);
			memcpy(hkey + klen, "_hex", sizeof("_hex"));
			json_object_set_new(obj, hkey, json_string(hex));
		}
		free(hex);
		free(hkey);
		free(fixed);
	}
}

json_t *out_json_num(double v, int decimals)
{
	double scale = pow(10, decimals);

	if (!isfinite(v))
		return json_null();
	if (!decimals && fabs(v) < 9e15)
		return json_integer((json_int_t)llround(v));
	/* Rounded here, printed with 15 digits: 0.1235, not 0.12349999999999999;
	 * + 0.0 turns a -0.0 rounded from a tiny negative into 0.0. */
	return json_real(round(v * scale) / scale + 0.0);
}

int out_json_dump(FILE *f, const json_t *root)
{
	if (!root || json_dumpf(root, f, JSON_COMPACT | JSON_REAL_PRECISION(15)) ||
	    fputc('\n', f) == EOF)
		return -1;
	return 0;
}

json_t *out_json_scenario(const struct scenario *s)
{
	json_t *sc = json_object();

	json_object_set_new(sc, "name", json_string(s->name));
	json_object_set_new(sc, "claim", json_string(s->claim));
	json_object_set_new(sc, "before", json_string(s->before));
	json_object_set_new(sc, "after", json_string(s->after));
	json_object_set_new(sc, "source", json_string(s->source));
	json_object_set_new(sc, "published_ratio",
			    s->published ? out_json_num(s->published, 4) : json_null());
	json_object_set_new(sc, "published_cpus",
			    s->published ? json_integer(s->published_cpus) : json_null());
	return sc;
}
