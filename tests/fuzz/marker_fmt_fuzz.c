// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzing the marker format parser of kernel/trace/trace_markers_fmt.c,
 * built as a host program (scripts/fuzz.sh).
 *
 * With libFuzzer (clang -fsanitize=fuzzer,address,undefined) the input is
 * the format string. Built with -DFUZZ_STANDALONE (no libFuzzer) main()
 * feeds it random formats made of format-like pieces from a fixed seed.
 *
 * Besides crashes and what ASan/UBSan see, every result is checked:
 * error codes and positions in range; for accepted formats one field
 * per conversion (counted here independently), names that are unique
 * identifiers, sizes, alignment, positions, and a print format that
 * obeys the snprintf() contract; and parsing twice gives the same.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_markers_fmt.h"

#define BASE	8

static const char *current;

static void check(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "marker_fmt_fuzz: %s, format \"%s\"\n", what, current);
	abort();
}

static bool is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* Conversions never contain '%': count the '%' not paired as "%%". */
static unsigned int count_conversions(const char *s)
{
	unsigned int n = 0;

	while (*s) {
		if (s[0] == '%' && s[1] == '%')
			s += 2;
		else
			n += *s++ == '%';
	}
	return n;
}

static void check_print_fmt(const struct marker_fmt *fmt)
{
	int len = marker_fmt_print_fmt(fmt, NULL, NULL, 0);
	char *buf, *cut;
	unsigned int i;
	size_t k;

	check(len >= 2, "print_fmt too short");
	buf = malloc(len + 1);
	cut = malloc(len + 1);
	check(buf && cut, "out of memory");
	check(marker_fmt_print_fmt(fmt, NULL, buf, len + 1) == len,
	      "print_fmt length differs");
	check(strlen(buf) == (size_t)len, "print_fmt not of its length");
	check(buf[0] == '"', "print_fmt does not start with a quote");
	for (i = 0; i < fmt->nr_fields; i++)
		check(strstr(buf, fmt->fields[i].name) != NULL,
		      "print_fmt lacks a field name");
	/* Cut anywhere: NUL terminated prefix, whole length returned. */
	k = (size_t)(len * 7 / 11) + 1;
	check(marker_fmt_print_fmt(fmt, NULL, cut, k) == len,
	      "cut print_fmt length");
	check(strlen(cut) == k - 1 && !strncmp(cut, buf, k - 1),
	      "cut print_fmt is not a prefix");
	free(buf);
	free(cut);
}

static void check_fields(const char *format, const struct marker_fmt *fmt)
{
	unsigned int i, j, end = BASE, prev_pos = 0;
	size_t len = strlen(format);

	check(len <= MARK_MAX_FORMAT_LEN, "accepted a format too long");
	check(fmt->nr_fields <= MARKER_FMT_MAX_FIELDS, "too many fields");
	check(fmt->nr_fields == count_conversions(format),
	      "not one field per conversion");
	for (i = 0; i < fmt->nr_fields; i++) {
		const struct marker_fmt_field *f = &fmt->fields[i];

		check(strnlen(f->name, MARKER_FMT_NAME_LEN) < MARKER_FMT_NAME_LEN,
		      "field name not terminated");
		check(is_ident(f->name), "field name not an identifier");
		check(strncmp(f->name, "common_", 7), "field name common_*");
		for (j = 0; j < i; j++)
			check(strcmp(f->name, fmt->fields[j].name),
			      "duplicate field name");
		check(f->type && *f->type, "no type");
		check(f->size == 1 || f->size == 2 || f->size == 4 ||
		      f->size == 8, "bad size");
		check(f->offset % f->size == 0, "misaligned field");
		check(f->offset >= end, "overlapping fields");
		end = f->offset + f->size;
		check(f->pos < len && format[f->pos] == '%', "bad position");
		check(!i || f->pos > prev_pos, "positions not increasing");
		prev_pos = f->pos;
		check(f->len >= 2 && f->pos + f->len <= len, "bad length");
		check(f->conv && strchr("diuxXocsp", f->conv), "bad conversion");
		check(format[f->pos + f->len - 1] == f->conv ||
		      (f->conv == 'p' && f->len > 2), "conversion not last");
		switch (f->kind) {
		case MARKER_FMT_SIGNED:
			check(strchr("di", f->conv) && f->is_signed, "signed");
			break;
		case MARKER_FMT_UNSIGNED:
			check(strchr("uxXo", f->conv) && !f->is_signed, "unsigned");
			break;
		case MARKER_FMT_CHAR:
			check(f->conv == 'c' && f->size == 1, "char");
			break;
		case MARKER_FMT_STRING:
			check(f->conv == 's' && f->size == 4 &&
			      f->max_len <= MARKER_FMT_STR_MAX &&
			      f->arg == MARKER_ARG_PTR, "string");
			break;
		case MARKER_FMT_POINTER:
			check(f->conv == 'p' && f->size == sizeof(void *) &&
			      f->arg == MARKER_ARG_PTR, "pointer");
			break;
		default:
			check(false, "bad kind");
		}
	}
	check(fmt->size == end, "record size");
	check_print_fmt(fmt);
}

static void fuzz_one(const char *format)
{
	struct marker_fmt *fmt = malloc(sizeof(*fmt));
	struct marker_fmt *again = malloc(sizeof(*again));
	unsigned int pos, pos2;
	int err, err2;

	check(fmt && again, "out of memory");
	current = format;
	err = marker_fmt_parse(format, BASE, fmt, &pos);
	check(err >= 0 && err < MARKER_FMT_NR_ERRS, "bad error code");
	check(strcmp(marker_fmt_strerror(err), "Unknown error"),
	      "error without message");
	if (err == MARKER_FMT_TOO_LONG)
		check(strlen(format) > MARK_MAX_FORMAT_LEN, "wrongly too long");
	else if (err)
		check(pos <= strlen(format), "error position out of range");
	else
		check_fields(format, fmt);

	err2 = marker_fmt_parse(format, BASE, again, &pos2);
	check(err == err2 && (err ? pos == pos2 :
			      !memcmp(fmt, again, sizeof(*fmt))),
	      "parsing twice differs");
	free(fmt);
	free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *format = malloc(size + 1);

	check(format != NULL, "out of memory");
	memcpy(format, data, size);
	format[size] = '\0';
	fuzz_one(format);
	free(format);
	return 0;
}

#ifdef FUZZ_STANDALONE
/*
 * No libFuzzer: random formats, half whole conversions, half pieces that
 * matter to the parser, so that long, valid and broken formats all come.
 */
static const char * const conversions[] = {
	"%d ", "%i ", "%u ", "%x ", "%X ", "%o ", "%c ", "%s ", "%p ", "%pS ",
	"%ld ", "%lu ", "%lx ", "%lld ", "%llu ", "%llx ", "%zd ", "%zu ",
	"%hhd ", "%hd ", "%.3s ", "%-08.2lx ", "q %p ", "rq=%p ", "%%",
};

static const char * const pieces[] = {
	"%", "%%", "d", "i", "u", "x", "X", "o", "c", "s", "p", "pS", "pI4",
	"h", "hh", "l", "ll", "z", "L", "j", "t", "*", ".", "-", "+", " ",
	"#", "0", "9", "=", ":", "0x", "q ", "rq ", "arg2 ", "common_x ",
	"a_rather_long_identifier_name_ok ", "f", "n", "\t", "_", "\xff",
};

#define PICK(a)	((a)[rand() % (sizeof(a) / sizeof((a)[0]))])

int main(int argc, char **argv)
{
	unsigned long i, n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	char buf[MARK_MAX_FORMAT_LEN + 64];

	srand(argc > 2 ? strtoul(argv[2], NULL, 0) : 1);
	for (i = 0; i < n; i++) {
		size_t len = 0, want = rand() % (i % 100 ? 30 : 300);

		while (want--) {
			const char *p = rand() % 2 ? PICK(conversions) : PICK(pieces);

			if (len + strlen(p) >= sizeof(buf))
				break;
			memcpy(buf + len, p, strlen(p));
			len += strlen(p);
		}
		buf[len] = '\0';
		fuzz_one(buf);
	}
	printf("marker_fmt_fuzz: %lu random formats, no failure\n", n);
	return 0;
}
#endif
