/*
 * theme.c: element table, theme files, colour matching (see theme.h).
 *
 * Each depth's palette is stated, by the element table for the built-in
 * theme and by a file's sections for the others; a file's line before
 * any section goes to every depth whose palette has its colours.  The
 * only matching left is #rrggbb to xterm's 256 colours (indexes 0-15 are
 * the ANSI colours, whose RGB varies by terminal, 16-231 a 6x6x6 cube,
 * 232-255 a grey ramp: the nearest by squared RGB distance among 16-255),
 * and a safety net for a palette used on a terminal of fewer colours.
 */
#include "config.h"

#include "ui/theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/util.h"

#ifndef KG_DATADIR
#define KG_DATADIR "/usr/local/share/kgtop"
#endif

#define UI_EL_NAME_(id, name, c256, c16, c8, mono, help) name,
static const char *const el_names[UI_EL_COUNT] = { UI_ELEMENTS(UI_EL_NAME_) };
#undef UI_EL_NAME_
#define UI_EL_STYLES_(id, name, c256, c16, c8, mono, help) { c256, c16, c8, mono },
static const char *const el_styles[UI_EL_COUNT][UI_DEPTH_COUNT] = { UI_ELEMENTS(UI_EL_STYLES_) };
#undef UI_EL_STYLES_
#define UI_EL_HELP_(id, name, c256, c16, c8, mono, help) help,
static const char *const el_help[UI_EL_COUNT] = { UI_ELEMENTS(UI_EL_HELP_) };
#undef UI_EL_HELP_

static const char *const depth_names[UI_DEPTH_COUNT] = { "256", "16", "8", "mono" };

static const struct {
	const char *name;
	int idx;
} colour_names[] = {
	{ "black", 0 }, { "red", 1 }, { "green", 2 }, { "yellow", 3 }, { "blue", 4 },
	{ "magenta", 5 }, { "cyan", 6 }, { "white", 7 }, { "brightblack", 8 }, { "grey", 8 },
	{ "gray", 8 }, { "brightred", 9 }, { "brightgreen", 10 }, { "brightyellow", 11 },
	{ "brightblue", 12 }, { "brightmagenta", 13 }, { "brightcyan", 14 }, { "brightwhite", 15 },
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", UI_ATTR_BOLD }, { "dim", UI_ATTR_DIM }, { "underline", UI_ATTR_UNDERLINE },
	{ "underscore", UI_ATTR_UNDERLINE }, { "reverse", UI_ATTR_REVERSE }, { "italic", UI_ATTR_ITALIC },
	{ "italics", UI_ATTR_ITALIC }, { "blink", UI_ATTR_BLINK }, { "standout", UI_ATTR_STANDOUT },
};

/* xterm's first 16 colours. */
static const uint32_t ansi_rgb[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* Name of an element. */
const char *
theme_element_name(ui_element e)
{
	return (unsigned)e < UI_EL_COUNT ? el_names[e] : "?";
}

/* Help text of an element. */
const char *
theme_element_help(ui_element e)
{
	return (unsigned)e < UI_EL_COUNT ? el_help[e] : "";
}

/* Element by name. */
int
theme_element_find(const char *name)
{
	int i;
	for (i = 0; i < UI_EL_COUNT; i++) {
		if (strcmp(el_names[i], name) == 0)
			return i;
	}
	return -1;
}

/* The depth of a terminal. */
ui_depth
theme_depth(int ncolours)
{
	return ncolours >= 256 ? UI_DEPTH_256 : ncolours >= 16 ? UI_DEPTH_16 : ncolours >= 8 ? UI_DEPTH_8 : UI_DEPTH_MONO;
}

/* The name of a depth. */
const char *
theme_depth_name(ui_depth d)
{
	return (unsigned)d < UI_DEPTH_COUNT ? depth_names[d] : "?";
}

/* True when a depth's palette has colour c. */
static bool
depth_has(ui_depth d, ui_colour c)
{
	switch (d) {
	case UI_DEPTH_256: return true;
	case UI_DEPTH_16: return c.kind == UI_COLOUR_DEFAULT || (c.kind == UI_COLOUR_INDEX && c.v < 16);
	case UI_DEPTH_8: return c.kind == UI_COLOUR_DEFAULT || (c.kind == UI_COLOUR_INDEX && c.v < 8);
	default: return c.kind == UI_COLOUR_DEFAULT;
	}
}

/* The RGB of an xterm-256 index. */
uint32_t
theme_index_rgb(int idx)
{
	static const int cube[6] = { 0, 95, 135, 175, 215, 255 };
	if (idx < 0)
		return 0;
	if (idx < 16)
		return ansi_rgb[idx];
	if (idx < 232) {
		int i = idx - 16;
		return (uint32_t)(cube[i / 36] << 16 | cube[(i / 6) % 6] << 8 | cube[i % 6]);
	}
	if (idx < 256) {
		int g = 8 + 10 * (idx - 232);
		return (uint32_t)(g << 16 | g << 8 | g);
	}
	return 0xffffff;
}

/* Squared distance of two RGB colours. */
static long
rgb_dist(uint32_t a, uint32_t b)
{
	long dr = (long)((a >> 16) & 0xff) - (long)((b >> 16) & 0xff);
	long dg = (long)((a >> 8) & 0xff) - (long)((b >> 8) & 0xff);
	long db = (long)(a & 0xff) - (long)(b & 0xff);
	return dr * dr + dg * dg + db * db;
}

/* Nearest index below n to an RGB colour (skipping 0-15 when n is 256: their RGB varies by terminal). */
static int
nearest(uint32_t rgb, int n)
{
	int i, best = 0, from = n >= 256 ? 16 : 0;
	long bd = -1;
	for (i = from; i < n; i++) {
		long d = rgb_dist(rgb, theme_index_rgb(i));
		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

/* Terminal colour index for a colour. */
int
theme_colour_index(ui_colour c, int ncolours)
{
	if (ncolours < 8 || c.kind == UI_COLOUR_DEFAULT)
		return -1;
	if (ncolours > 256)
		ncolours = 256;
	if (c.kind == UI_COLOUR_INDEX) {
		if ((int)c.v < ncolours)
			return (int)c.v;
		if (c.v < 16) /* bright colour on an 8-colour terminal */
			return (int)c.v - 8;
		return nearest(theme_index_rgb((int)c.v), ncolours);
	}
	return nearest(c.v, ncolours);
}

/* Parse a colour. */
int
theme_parse_colour(const char *s, ui_colour *c)
{
	size_t i;
	char *end;
	if (strcasecmp(s, "default") == 0 || strcmp(s, "-1") == 0) {
		c->kind = UI_COLOUR_DEFAULT;
		c->v = 0;
		return 0;
	}
	for (i = 0; i < KG_ARRAY_LEN(colour_names); i++) {
		if (strcasecmp(s, colour_names[i].name) == 0) {
			c->kind = UI_COLOUR_INDEX;
			c->v = (uint32_t)colour_names[i].idx;
			return 0;
		}
	}
	if (s[0] == '#') {
		unsigned long v;
		if (strlen(s) != 7)
			return -1;
		for (i = 1; i < 7; i++) {
			if (!isxdigit((unsigned char)s[i]))
				return -1;
		}
		v = strtoul(s + 1, &end, 16);
		c->kind = UI_COLOUR_RGB;
		c->v = (uint32_t)v;
		return 0;
	}
	if (strncasecmp(s, "colour", 6) == 0 || strncasecmp(s, "color", 5) == 0) {
		const char *d = s + (tolower((unsigned char)s[4]) == 'u' ? 6 : 5);
		long v;
		if (!isdigit((unsigned char)*d))
			return -1;
		errno = 0;
		v = strtol(d, &end, 10);
		if (*end != '\0' || errno != 0 || v < 0 || v > 255)
			return -1;
		c->kind = UI_COLOUR_INDEX;
		c->v = (uint32_t)v;
		return 0;
	}
	return -1;
}

/* Trim spaces at both ends in place; returns the start. */
static char *
trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Parse a style over *st. */
int
theme_parse_style(const char *s, ui_style *st, char *err, size_t errsz)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int rc = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *t = trim(tok), *eq;
		size_t i;
		bool found = false;
		if (*t == '\0')
			continue;
		eq = strchr(t, '=');
		if (eq != NULL) {
			char *key, *val;
			ui_colour c;
			*eq = '\0';
			key = trim(t);
			val = trim(eq + 1);
			if (strcmp(key, "fg") != 0 && strcmp(key, "bg") != 0) {
				rc = util_err(err, errsz, "unknown key '%s' (fg or bg)", key);
				break;
			}
			if (theme_parse_colour(val, &c) < 0) {
				rc = util_err(err, errsz, "unknown colour '%s' (a name, colourN or #rrggbb)", val);
				break;
			}
			if (key[0] == 'f')
				st->fg = c;
			else
				st->bg = c;
			continue;
		}
		if (strcasecmp(t, "none") == 0) {
			st->attrs = 0;
			continue;
		}
		for (i = 0; i < KG_ARRAY_LEN(attr_names); i++) {
			if (strcasecmp(t, attr_names[i].name) == 0) {
				st->attrs |= attr_names[i].bit;
				found = true;
			}
		}
		if (!found) {
			rc = util_err(err, errsz, "unknown attribute '%s'", t);
			break;
		}
	}
	free(copy);
	return rc;
}

/* Fill a depth's palette from a column of the element table. */
static void
theme_fill(ui_style *dst, ui_depth col)
{
	int i;
	char err[128];
	for (i = 0; i < UI_EL_COUNT; i++) {
		memset(&dst[i], 0, sizeof dst[i]);
		if (theme_parse_style(el_styles[i][col], &dst[i], err, sizeof err) < 0)
			abort(); /* the built-in table is checked by the unit tests */
	}
}

/* The built-in default theme. */
void
theme_default(ui_theme *t)
{
	int d;
	memset(t, 0, sizeof *t);
	util_strlcpy(t->name, "default", sizeof t->name);
	for (d = 0; d < UI_DEPTH_COUNT; d++)
		theme_fill(t->st[d], (ui_depth)d);
}

/* The built-in mono theme: the table's mono column at every depth. */
void
theme_mono(ui_theme *t)
{
	int d;
	theme_default(t);
	util_strlcpy(t->name, "mono", sizeof t->name);
	for (d = 0; d < UI_DEPTH_COUNT; d++)
		memcpy(t->st[d], t->st[UI_DEPTH_MONO], sizeof t->st[d]);
}

/*
 * Parse one style for a depth's palette: as theme_parse_style(), and -1
 * with err for a colour that palette lacks (above 15 in [16], above 7 or
 * bright in [8], any colour in [mono], #rrggbb below 256).
 */
static int
theme_parse_style_at(const char *s, ui_depth d, ui_style *st, char *err, size_t errsz)
{
	if (theme_parse_style(s, st, err, errsz) < 0)
		return -1;
	if (!depth_has(d, st->fg) || !depth_has(d, st->bg))
		return util_err(err, errsz, "%s", d == UI_DEPTH_MONO ? "[mono] takes attributes only, no colour"
					       : d == UI_DEPTH_8 ? "[8] takes the 8 colours black to white, default or colour0-7"
								 : "[16] takes the 16 colours, default or colour0-15");
	return 0;
}

/* A section line "[256]", "[16]", "[8]", "[mono]": its depth, or -1 when it names none. */
static int
section_depth(const char *line)
{
	int d;
	for (d = 0; d < UI_DEPTH_COUNT; d++) {
		char want[16];
		snprintf(want, sizeof want, "[%s]", depth_names[d]);
		if (strcmp(line, want) == 0)
			return d;
	}
	return -1;
}

/* Parse theme text. */
int
theme_parse(ui_theme *t, const char *text, const char *fname, char *err, size_t errsz)
{
	char *copy = xstrdup(text), *line = copy, *next;
	int lineno = 0, rc = 0, section = -1, d;
	for (; line != NULL; line = next) {
		char *eq, *key, *val, msg[256];
		int el;
		ui_style st;
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		lineno++;
		if ((eq = strchr(line, '#')) != NULL && (eq == line || isspace((unsigned char)eq[-1])))
			*eq = '\0'; /* a comment, not the # of #rrggbb */
		line = trim(line);
		if (*line == '\0')
			continue;
		if (*line == '[') {
			if ((section = section_depth(line)) < 0) {
				rc = util_err(err, errsz, "%s:%d: unknown section '%s' ([256], [16], [8] or [mono])", fname,
					      lineno, line);
				break;
			}
			continue;
		}
		eq = strchr(line, '=');
		if (eq == NULL) {
			rc = util_err(err, errsz, "%s:%d: expected 'element = style'", fname, lineno);
			break;
		}
		*eq = '\0';
		key = trim(line);
		val = trim(eq + 1);
		el = theme_element_find(key);
		if (el < 0) {
			rc = util_err(err, errsz, "%s:%d: unknown element '%s'", fname, lineno, key);
			break;
		}
		memset(&st, 0, sizeof st);
		if (theme_parse_style_at(val, section < 0 ? UI_DEPTH_256 : (ui_depth)section, &st, msg, sizeof msg) < 0) {
			rc = util_err(err, errsz, "%s:%d: %s", fname, lineno, msg);
			break;
		}
		/* before any section: every depth whose palette has the line's colours */
		for (d = 0; d < UI_DEPTH_COUNT; d++) {
			if (section == d || (section < 0 && depth_has((ui_depth)d, st.fg) && depth_has((ui_depth)d, st.bg)))
				t->st[d][el] = st;
		}
	}
	free(copy);
	return rc;
}

/* Append a directory unless it is already listed; returns the new count. */
static int
add_dir(char dirs[][512], int n, int max, const char *d)
{
	int i;
	if (n >= max || d == NULL || *d == '\0')
		return n;
	for (i = 0; i < n; i++) {
		if (strcmp(dirs[i], d) == 0)
			return n;
	}
	util_strlcpy(dirs[n], d, 512);
	return n + 1;
}

/*
 * The theme directories in search order: $KGTOP_THEMES (a colon list),
 * ~/.config/kgtop/themes, the installed data dir, then for a kgtop run
 * from its build tree (the Quick start never installs) themes/ beside the
 * executable and the configure-time source tree's themes/ (a VPATH build).
 */
int
theme_dirs(char dirs[][512], int max)
{
	int n = 0;
	const char *env = getenv("KGTOP_THEMES"), *home = getenv("HOME");
	char buf[512];
	ssize_t len;
	if (env != NULL && *env) {
		char *copy = xstrdup(env), *save = NULL, *d;
		for (d = strtok_r(copy, ":", &save); d != NULL; d = strtok_r(NULL, ":", &save))
			n = add_dir(dirs, n, max, d);
		free(copy);
	}
	if (home != NULL && *home) {
		snprintf(buf, sizeof buf, "%s/.config/kgtop/themes", home);
		n = add_dir(dirs, n, max, buf);
	}
	n = add_dir(dirs, n, max, KG_DATADIR "/themes");
	len = readlink("/proc/self/exe", buf, sizeof buf - 8);
	if (len > 0) {
		char *slash;
		buf[len] = '\0';
		if ((slash = strrchr(buf, '/')) != NULL) {
			util_strlcpy(slash, "/themes", sizeof buf - (size_t)(slash - buf));
			n = add_dir(dirs, n, max, buf);
		}
	}
#ifdef KG_SRCDIR
	n = add_dir(dirs, n, max, KG_SRCDIR "/themes");
#endif
	return n;
}

/* Read a whole small file; NULL when it cannot be read. */
static char *
read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	sbuf b = { 0 };
	char buf[4096];
	size_t n;
	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 && b.len < (1u << 20))
		sbuf_addn(&b, buf, n);
	fclose(f);
	sbuf_addc(&b, '\0');
	return b.s;
}

/* True when a theme name is a plain file name. */
static bool
name_ok(const char *name)
{
	return *name && strchr(name, '/') == NULL && strlen(name) < 60 && name[0] != '.';
}

/* Load a theme file of the user's, named by its path ("./mine.theme"). */
static int
theme_load_path(ui_theme *t, const char *path, char *err, size_t errsz)
{
	char *text = read_file(path);
	if (text == NULL) {
		int e = errno;
		theme_default(t);
		return util_err(err, errsz, "theme '%s': %s", path, strerror(e));
	}
	if (theme_parse(t, text, path, err, errsz) < 0) {
		free(text);
		theme_default(t);
		return -1;
	}
	free(text);
	util_strlcpy(t->name, path, sizeof t->name);
	return 0;
}

/* Load a theme by name, or a file by its path (a name with a '/'). */
int
theme_load(ui_theme *t, const char *name, char *err, size_t errsz)
{
	char dirs[8][512], *path;
	int nd, i;
	bool builtin = strcmp(name, "default") == 0 || strcmp(name, "mono") == 0;
	if (strcmp(name, "mono") == 0)
		theme_mono(t);
	else
		theme_default(t);
	if (strchr(name, '/') != NULL) {
		theme_default(t);
		return theme_load_path(t, name, err, errsz);
	}
	if (!name_ok(name)) {
		theme_default(t);
		return util_err(err, errsz, "theme '%s': not a theme name", name);
	}
	nd = theme_dirs(dirs, 8);
	for (i = 0; i < nd; i++) {
		char *text;
		path = xasprintf("%s/%s.theme", dirs[i], name);
		text = read_file(path);
		if (text == NULL) {
			free(path);
			continue;
		}
		if (theme_parse(t, text, path, err, errsz) < 0) {
			free(text);
			free(path);
			theme_default(t);
			return -1;
		}
		free(text);
		free(path);
		util_strlcpy(t->name, name, sizeof t->name);
		return 0;
	}
	if (builtin)
		return 0;
	theme_default(t);
	return util_err(err, errsz,
			"theme '%s': no %s.theme in $KGTOP_THEMES, ~/.config/kgtop/themes, %s/themes or beside kgtop",
			name, name, KG_DATADIR);
}

/* Compare for qsort. */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* List themes. */
int
theme_list(char names[][64], int max)
{
	char dirs[8][512];
	int nd = theme_dirs(dirs, 8), n = 0, i, j, nbuiltin;
	if (max < 2)
		return 0;
	util_strlcpy(names[n++], "default", 64);
	util_strlcpy(names[n++], "mono", 64);
	nbuiltin = n;
	for (i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;
		if (d == NULL)
			continue;
		while ((de = readdir(d)) != NULL && n < max) {
			size_t len = strlen(de->d_name);
			char nm[64];
			bool dup = false;
			if (len <= 6 || len - 6 >= sizeof nm || strcmp(de->d_name + len - 6, ".theme") != 0)
				continue;
			memcpy(nm, de->d_name, len - 6);
			nm[len - 6] = '\0';
			if (!name_ok(nm))
				continue;
			for (j = 0; j < n; j++)
				dup = dup || strcmp(names[j], nm) == 0;
			if (!dup)
				util_strlcpy(names[n++], nm, 64);
		}
		closedir(d);
	}
	qsort(names + nbuiltin, (size_t)(n - nbuiltin), sizeof names[0], name_cmp);
	return n;
}
