/*
 * sgr.c: the colours and attributes a terminal shows at some text, read
 * from `tmux capture-pane -e -p` (SGR escape sequences between the
 * characters), for the tmux tests that assert the colour of each role.
 *
 *   sgr TEXT [N]  < capture
 *
 * finds the Nth (default 1st) occurrence of TEXT in the screen's text
 * (escapes removed), line by line, and prints the state at its first
 * character, as "fg=F bg=B[ bold][ dim][ italic][ underline][ blink]
 * [ reverse]": F and B are "default" or a colour number (30-37 and 90-97
 * as 0-7 and 8-15, 38;5;N as N, 38;2;R;G;B as #rrggbb).  Exit status 1
 * when TEXT is not on the screen.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sgr_state {
	char fg[16], bg[16];
	bool bold, dim, italic, underline, blink, reverse;
} sgr_state;

#define MAX_LINE 8192

/* Back to the terminal's defaults. */
static void
sgr_reset(sgr_state *s)
{
	memset(s, 0, sizeof *s);
	strcpy(s->fg, "default");
	strcpy(s->bg, "default");
}

/* Apply one SGR parameter list ("1;38;5;244"). */
static void
sgr_apply(sgr_state *s, const char *params)
{
	int v[32], n = 0, i;
	const char *p = params;
	if (*p == '\0') {
		sgr_reset(s);
		return;
	}
	while (*p && n < 32) {
		v[n++] = atoi(p);
		while (*p && *p != ';' && *p != ':')
			p++;
		if (*p)
			p++;
	}
	for (i = 0; i < n; i++) {
		int c = v[i];
		char *dst = NULL;
		if (c == 0)
			sgr_reset(s);
		else if (c == 1)
			s->bold = true;
		else if (c == 2)
			s->dim = true;
		else if (c == 3)
			s->italic = true;
		else if (c == 4)
			s->underline = true;
		else if (c == 5)
			s->blink = true;
		else if (c == 7)
			s->reverse = true;
		else if (c == 22)
			s->bold = s->dim = false;
		else if (c == 23)
			s->italic = false;
		else if (c == 24)
			s->underline = false;
		else if (c == 25)
			s->blink = false;
		else if (c == 27)
			s->reverse = false;
		else if (c >= 30 && c <= 37)
			snprintf(s->fg, sizeof s->fg, "%d", c - 30);
		else if (c >= 90 && c <= 97)
			snprintf(s->fg, sizeof s->fg, "%d", c - 90 + 8);
		else if (c >= 40 && c <= 47)
			snprintf(s->bg, sizeof s->bg, "%d", c - 40);
		else if (c >= 100 && c <= 107)
			snprintf(s->bg, sizeof s->bg, "%d", c - 100 + 8);
		else if (c == 39)
			strcpy(s->fg, "default");
		else if (c == 49)
			strcpy(s->bg, "default");
		if ((c == 38 || c == 48) && i + 2 < n && v[i + 1] == 5) {
			dst = c == 38 ? s->fg : s->bg;
			snprintf(dst, 16, "%d", v[i + 2]);
			i += 2;
		} else if ((c == 38 || c == 48) && i + 4 < n && v[i + 1] == 2) {
			dst = c == 38 ? s->fg : s->bg;
			snprintf(dst, 16, "#%02x%02x%02x", v[i + 2] & 0xff, v[i + 3] & 0xff, v[i + 4] & 0xff);
			i += 4;
		}
	}
}

/* Print a state. */
static void
sgr_print(const sgr_state *s)
{
	printf("fg=%s bg=%s%s%s%s%s%s%s\n", s->fg, s->bg, s->bold ? " bold" : "", s->dim ? " dim" : "",
	       s->italic ? " italic" : "", s->underline ? " underline" : "", s->blink ? " blink" : "",
	       s->reverse ? " reverse" : "");
}

/* Read the capture; print the state at the Nth occurrence of the text. */
int
main(int argc, char **argv)
{
	static char line[MAX_LINE], text[MAX_LINE];
	static sgr_state at[MAX_LINE];
	sgr_state cur;
	const char *want;
	int nth, seen = 0;
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: sgr TEXT [N] < capture\n");
		return 2;
	}
	want = argv[1];
	nth = argc == 3 ? atoi(argv[2]) : 1;
	sgr_reset(&cur);
	while (fgets(line, sizeof line, stdin) != NULL) {
		size_t i = 0, n = 0;
		const char *hit;
		while (line[i] != '\0' && line[i] != '\n' && n + 1 < sizeof text) {
			if (line[i] == 0x1b && line[i + 1] == '[') {
				char params[256];
				size_t k = 0;
				i += 2;
				while (line[i] != '\0' && ((line[i] >= '0' && line[i] <= '9') || line[i] == ';' || line[i] == ':')) {
					if (k + 1 < sizeof params)
						params[k++] = line[i];
					i++;
				}
				params[k] = '\0';
				if (line[i] == 'm')
					sgr_apply(&cur, params);
				if (line[i] != '\0')
					i++;
				continue;
			}
			at[n] = cur;
			text[n++] = line[i++];
		}
		text[n] = '\0';
		for (hit = strstr(text, want); hit != NULL; hit = strstr(hit + 1, want)) {
			if (++seen == nth) {
				sgr_print(&at[hit - text]);
				return 0;
			}
		}
	}
	return 1;
}
