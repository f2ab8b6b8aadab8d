/*
 * safebytes: check that files hold no byte a terminal would act on
 * (tests/cli/outputs.sh, issue 25).  Independent of kgtop's own rule
 * (util_char_unsafe): its own UTF-8 decoder and its own list.
 *
 *   safebytes text FILE...      only line breaks among the controls
 *   safebytes terminal FILE...  what a curses program writes: its own
 *                               CSI sequences (ESC [), charset switches
 *                               (ESC ( ESC ) SO SI), keypad modes (ESC =,
 *                               ESC >), cursor save and restore (ESC 7,
 *                               ESC 8), reverse index (ESC M), CR, LF, BS,
 *                               TAB; never a string sequence (OSC: titles,
 *                               the clipboard; DCS, APC, PM, SOS), nor BEL
 *
 * Both refuse NUL, invalid UTF-8 (stray and cut-short bytes, overlong
 * forms, surrogates, past U+10FFFF), DEL, the C1 controls U+0080..U+009F
 * and the bidirectional formatting characters (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069).  Exit 0 when every file passes; else
 * 1, with the first offence of each file, its offset and the bytes
 * around it as \xNN.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decode one UTF-8 character strictly: its length, *cp = -1 when invalid. */
static size_t
decode(const unsigned char *s, size_t n, long *cp)
{
	size_t len, i;
	long c, min;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		*cp = -1;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80) {
			*cp = -1;
			return i;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	*cp = c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ? -1 : c;
	return len;
}

/* A bidirectional formatting character. */
static bool
bidi(long c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* NULL when byte i of s (n bytes) starts nothing wrong, else why; *used: bytes it takes. */
static const char *
judge(const unsigned char *s, size_t n, size_t i, bool terminal, size_t *used)
{
	long c;
	*used = decode(s + i, n - i, &c);
	if (s[i] == 0)
		return "a NUL byte";
	if (c < 0)
		return "invalid UTF-8";
	if (c == 0x7f || (c >= 0x80 && c <= 0x9f))
		return "DEL or a C1 control";
	if (bidi(c))
		return "a bidirectional formatting character";
	if (c >= 0x20 || c == '\n')
		return NULL;
	if (!terminal)
		return "a control character";
	if (c == '\r' || c == '\b' || c == '\t' || c == 0x0e || c == 0x0f)
		return NULL;
	if (c != 0x1b)
		return "a control character curses does not write";
	if (i + 1 >= n)
		return "ESC at the end";
	switch (s[i + 1]) {
	case '[': {
		/* CSI: parameters and intermediates, then one final byte */
		size_t j = i + 2;
		while (j < n && s[j] >= 0x20 && s[j] <= 0x3f)
			j++;
		if (j >= n || s[j] < 0x40 || s[j] > 0x7e)
			return "a CSI sequence with no final byte";
		*used = j + 1 - i;
		return NULL;
	}
	case '(':
	case ')':
		*used = 3;
		return NULL;
	case '=':
	case '>':
	case '7':
	case '8':
	case 'M':
		*used = 2;
		return NULL;
	case ']':
		return "an OSC sequence (window title, clipboard)";
	case 'P':
	case '_':
	case '^':
	case 'X':
		return "a string sequence (DCS, APC, PM, SOS)";
	default:
		return "an escape sequence curses does not write";
	}
}

/* Check one file; false (said on stdout) when it breaks the rule. */
static bool
check_file(const char *path, bool terminal)
{
	FILE *f = fopen(path, "rb");
	unsigned char *s = NULL;
	size_t n = 0, cap = 0, i = 0, got;
	if (f == NULL) {
		printf("safebytes: %s: cannot open\n", path);
		return false;
	}
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			s = realloc(s, cap);
			if (s == NULL)
				abort();
		}
		got = fread(s + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	while (i < n) {
		size_t used, j, from;
		const char *why = judge(s, n, i, terminal, &used);
		if (why != NULL) {
			from = i > 40 ? i - 40 : 0;
			printf("safebytes: %s: %s at byte %zu: ...", path, why, i);
			for (j = from; j < n && j < i + 40; j++)
				printf(s[j] >= 0x20 && s[j] < 0x7f && s[j] != '\\' ? "%c" : "\\x%02x", s[j]);
			printf("...\n");
			free(s);
			return false;
		}
		i += used;
	}
	free(s);
	return true;
}

int
main(int argc, char **argv)
{
	bool terminal, ok = true;
	int i;
	if (argc < 3 || (strcmp(argv[1], "text") != 0 && strcmp(argv[1], "terminal") != 0)) {
		fprintf(stderr, "usage: safebytes text|terminal FILE...\n");
		return 2;
	}
	terminal = strcmp(argv[1], "terminal") == 0;
	for (i = 2; i < argc; i++)
		ok &= check_file(argv[i], terminal);
	return ok ? 0 : 1;
}
