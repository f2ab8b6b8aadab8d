/*
 * test_theme.c: theme parsing, colour matching and the shipped themes.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/theme.h"
#include "util/util.h"

static const char *const shipped[] = { "default", "light", "mono", "high-contrast" };

/* Point the theme search at the source tree's themes/ only. */
static int
setup(void **state)
{
	const char *src = getenv("top_srcdir");
	char dir[1024];
	(void)state;
	snprintf(dir, sizeof dir, "%s/themes", src ? src : ".");
	setenv("KGTOP_THEMES", dir, 1);
	setenv("HOME", "/nonexistent", 1);
	return 0;
}

/* Every built-in style parses, names are unique and have help text. */
static void
test_table(void **state)
{
	int i, j;
	ui_theme t;
	(void)state;
	theme_default(&t);
	for (i = 0; i < UI_EL_COUNT; i++) {
		assert_true(strlen(theme_element_name((ui_element)i)) > 0);
		assert_true(strlen(theme_element_help((ui_element)i)) > 0);
		assert_int_equal(theme_element_find(theme_element_name((ui_element)i)), i);
		for (j = 0; j < i; j++)
			assert_string_not_equal(theme_element_name((ui_element)i), theme_element_name((ui_element)j));
		/* mono styles carry no colour, and each palette has only its depth's colours */
		assert_int_equal(t.st[UI_DEPTH_MONO][i].fg.kind, UI_COLOUR_DEFAULT);
		assert_int_equal(t.st[UI_DEPTH_MONO][i].bg.kind, UI_COLOUR_DEFAULT);
		for (j = UI_DEPTH_16; j <= UI_DEPTH_8; j++) {
			unsigned lim = j == UI_DEPTH_16 ? 16 : 8;
			const ui_style *st = &t.st[j][i];
			assert_true(st->fg.kind == UI_COLOUR_DEFAULT || (st->fg.kind == UI_COLOUR_INDEX && st->fg.v < lim));
			assert_true(st->bg.kind == UI_COLOUR_DEFAULT || (st->bg.kind == UI_COLOUR_INDEX && st->bg.v < lim));
		}
	}
	assert_int_equal(theme_element_find("no-such-element"), -1);
}

/* Colour names, colourN and #rrggbb. */
static void
test_colours(void **state)
{
	ui_colour c;
	(void)state;
	assert_int_equal(theme_parse_colour("red", &c), 0);
	assert_int_equal(c.kind, UI_COLOUR_INDEX);
	assert_int_equal(c.v, 1);
	assert_int_equal(theme_parse_colour("brightwhite", &c), 0);
	assert_int_equal(c.v, 15);
	assert_int_equal(theme_parse_colour("colour214", &c), 0);
	assert_int_equal(c.v, 214);
	assert_int_equal(theme_parse_colour("color7", &c), 0);
	assert_int_equal(c.v, 7);
	assert_int_equal(theme_parse_colour("#E69F00", &c), 0);
	assert_int_equal(c.kind, UI_COLOUR_RGB);
	assert_int_equal(c.v, 0xe69f00);
	assert_int_equal(theme_parse_colour("default", &c), 0);
	assert_int_equal(c.kind, UI_COLOUR_DEFAULT);
	assert_int_equal(theme_parse_colour("colour256", &c), -1);
	assert_int_equal(theme_parse_colour("#12345", &c), -1);
	assert_int_equal(theme_parse_colour("#12345g", &c), -1);
	assert_int_equal(theme_parse_colour("purplish", &c), -1);
	assert_int_equal(theme_parse_colour("colour", &c), -1);
}

/* Nearest-colour mapping for 256, 16, 8 and no colours. */
static void
test_mapping(void **state)
{
	ui_colour c = { UI_COLOUR_RGB, 0xff0000 };
	(void)state;
	assert_int_equal(theme_colour_index(c, 256), 196);
	assert_int_equal(theme_colour_index(c, 16), 9);
	assert_int_equal(theme_colour_index(c, 8), 1);
	assert_int_equal(theme_colour_index(c, 0), -1);
	c = (ui_colour){ UI_COLOUR_RGB, 0x808080 };
	assert_int_equal(theme_colour_index(c, 256), 244);
	c = (ui_colour){ UI_COLOUR_INDEX, 214 }; /* orange */
	assert_int_equal(theme_colour_index(c, 256), 214);
	assert_int_equal(theme_colour_index(c, 16), 3); /* #ffaf00: nearer #cdcd00 than #ffff00 */
	c = (ui_colour){ UI_COLOUR_INDEX, 12 }; /* bright blue on 8 colours */
	assert_int_equal(theme_colour_index(c, 8), 4);
	c = (ui_colour){ UI_COLOUR_DEFAULT, 0 };
	assert_int_equal(theme_colour_index(c, 256), -1);
	assert_int_equal(theme_index_rgb(16), 0x000000);
	assert_int_equal(theme_index_rgb(231), 0xffffff);
	assert_int_equal(theme_index_rgb(232), 0x080808);
}

/* Styles: spaces around '=', attributes, none, errors. */
static void
test_style(void **state)
{
	ui_style st;
	char err[256];
	(void)state;
	memset(&st, 0, sizeof st);
	assert_int_equal(theme_parse_style(" fg = colour10 , bg=#000000, bold,underline ", &st, err, sizeof err), 0);
	assert_int_equal(st.fg.v, 10);
	assert_int_equal(st.bg.kind, UI_COLOUR_RGB);
	assert_int_equal(st.attrs, UI_ATTR_BOLD | UI_ATTR_UNDERLINE);
	assert_int_equal(theme_parse_style("none,reverse", &st, err, sizeof err), 0);
	assert_int_equal(st.attrs, UI_ATTR_REVERSE);
	assert_int_equal(theme_parse_style("fg=nope", &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "nope"));
	assert_int_equal(theme_parse_style("sparkly", &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "sparkly"));
	assert_int_equal(theme_parse_style("xx=red", &st, err, sizeof err), -1);
}

/* A broken file: file:line: message. */
static void
test_parse_errors(void **state)
{
	ui_theme t;
	char err[256];
	(void)state;
	theme_default(&t);
	assert_int_equal(theme_parse(&t, "# comment\nheader = fg=red\n\nselected = fg=blue # trailing\n", "x.theme", err,
				     sizeof err),
			 0);
	assert_int_equal(t.st[UI_DEPTH_256][UI_EL_HEADER].fg.v, 1);
	assert_int_equal(t.st[UI_DEPTH_8][UI_EL_HEADER].fg.v, 1);
	assert_int_equal(t.st[UI_DEPTH_256][UI_EL_SELECTED].fg.v, 4);
	assert_int_equal(theme_parse(&t, "header = fg=red\nbogus = bold\n", "x.theme", err, sizeof err), -1);
	assert_string_equal(err, "x.theme:2: unknown element 'bogus'");
	assert_int_equal(theme_parse(&t, "\n\nheader fg red\n", "y.theme", err, sizeof err), -1);
	assert_string_equal(err, "y.theme:3: expected 'element = style'");
	assert_int_equal(theme_parse(&t, "storm = fg=#gggggg\n", "z.theme", err, sizeof err), -1);
	assert_non_null(strstr(err, "z.theme:1: unknown colour"));
}

/* The shipped themes load; default.theme and mono.theme match the built-in tables. */
static void
test_shipped(void **state)
{
	ui_theme t, ref;
	char err[512];
	size_t i;
	(void)state;
	for (i = 0; i < KG_ARRAY_LEN(shipped); i++) {
		err[0] = '\0';
		assert_int_equal(theme_load(&t, shipped[i], err, sizeof err), 0);
		assert_string_equal(t.name, shipped[i]);
	}
	theme_load(&t, "default", err, sizeof err);
	theme_default(&ref);
	assert_memory_equal(t.st, ref.st, sizeof t.st);
	theme_load(&t, "mono", err, sizeof err);
	theme_mono(&ref);
	assert_memory_equal(t.st, ref.st, sizeof t.st);
	for (i = 0; i < UI_EL_COUNT; i++) {
		assert_int_equal(t.st[UI_DEPTH_256][i].fg.kind, UI_COLOUR_DEFAULT);
		assert_int_equal(t.st[UI_DEPTH_8][i].bg.kind, UI_COLOUR_DEFAULT);
	}
}

/* Every element is documented in default.theme. */
static void
test_documented(void **state)
{
	const char *src = getenv("top_srcdir");
	char path[1024], buf[65536];
	FILE *f;
	size_t n;
	int i;
	(void)state;
	snprintf(path, sizeof path, "%s/themes/default.theme", src ? src : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (i = 0; i < UI_EL_COUNT; i++) {
		char needle[128];
		snprintf(needle, sizeof needle, "\n%s = ", theme_element_name((ui_element)i));
		if (strstr(buf, needle) == NULL)
			fail_msg("default.theme lacks %s", theme_element_name((ui_element)i));
		if (strstr(buf, theme_element_help((ui_element)i)) == NULL)
			fail_msg("default.theme lacks the help of %s", theme_element_name((ui_element)i));
	}
}

/* Unknown themes and broken files fall back to the default with a message. */
static void
test_fallback(void **state)
{
	ui_theme t, ref;
	char err[512], dir[] = "/tmp/kgtop-theme-XXXXXX", path[600];
	FILE *f;
	int n, i;
	char names[32][64];
	bool broken = false;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/broken.theme", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("header = fg=red\nfooter = fg=colour999\n", f);
	fclose(f);
	setenv("KGTOP_THEMES", dir, 1);
	theme_default(&ref);
	assert_int_equal(theme_load(&t, "broken", err, sizeof err), -1);
	assert_non_null(strstr(err, "broken.theme:2: unknown colour 'colour999'"));
	assert_memory_equal(t.st, ref.st, sizeof t.st);
	assert_int_equal(theme_load(&t, "nosuch", err, sizeof err), -1);
	assert_non_null(strstr(err, "nosuch"));
	assert_int_equal(theme_load(&t, "../etc/passwd", err, sizeof err), -1);
	/* a file of the user's by its path (issue 26: --theme ./file was refused) */
	snprintf(path, sizeof path, "%s/mine.theme", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[256]\nheader = fg=colour16,bg=colour214\n", f);
	fclose(f);
	assert_int_equal(theme_load(&t, path, err, sizeof err), 0);
	assert_string_equal(t.name, path);
	assert_int_not_equal(memcmp(t.st, ref.st, sizeof t.st), 0);
	remove(path);
	assert_int_equal(theme_load(&t, path, err, sizeof err), -1);
	assert_non_null(strstr(err, "No such file"));
	snprintf(path, sizeof path, "%s/broken.theme", dir);
	n = theme_list(names, 32);
	assert_true(n >= 3);
	assert_string_equal(names[0], "default");
	assert_string_equal(names[1], "mono");
	for (i = 0; i < n; i++)
		broken = broken || strcmp(names[i], "broken") == 0;
	assert_true(broken);
	remove(path);
	rmdir(dir);
	setup(NULL);
}

/*
 * Without $KGTOP_THEMES and with nothing installed, a kgtop run from its
 * build tree still finds the shipped themes: beside the executable, or in
 * the configure-time source tree (a VPATH build); T cycles all four.
 */
static void
test_build_tree(void **state)
{
	char dirs[8][512], names[32][64], exe[512];
	int nd, n, i, k, found = 0;
	bool beside = false;
	ssize_t len;
	(void)state;
	unsetenv("KGTOP_THEMES");
	nd = theme_dirs(dirs, 8);
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	assert_true(len > 0);
	exe[len] = '\0';
	*strrchr(exe, '/') = '\0';
	strcat(exe, "/themes");
	for (i = 0; i < nd; i++)
		beside = beside || strcmp(dirs[i], exe) == 0;
	assert_true(beside);
	n = theme_list(names, 32);
	for (k = 0; k < (int)KG_ARRAY_LEN(shipped); k++) {
		for (i = 0; i < n; i++) {
			if (strcmp(names[i], shipped[k]) == 0) {
				found++;
				break;
			}
		}
	}
	assert_int_equal(found, (int)KG_ARRAY_LEN(shipped));
	for (k = 0; k < (int)KG_ARRAY_LEN(shipped); k++) {
		ui_theme t;
		char err[512];
		assert_int_equal(theme_load(&t, shipped[k], err, sizeof err), 0);
	}
	setup(NULL);
}

/* Sections: each sets its depth; a line before any sets the depths that have its colours; bad colours are named. */
static void
test_sections(void **state)
{
	ui_theme t, ref;
	char err[256];
	(void)state;
	theme_default(&t);
	theme_default(&ref);
	assert_int_equal(theme_parse(&t, "dim = fg=colour240\ntitle = underline\nstorm = fg=green\n[8]\nstale = fg=red\n[mono]\n"
					 "stale = reverse\n[16]\nstale = fg=brightred\n",
				     "s.theme", err, sizeof err),
			 0);
	/* colour240: only [256] has it */
	assert_int_equal(t.st[UI_DEPTH_256][UI_EL_DIM].fg.v, 240);
	assert_memory_equal(&t.st[UI_DEPTH_16][UI_EL_DIM], &ref.st[UI_DEPTH_16][UI_EL_DIM], sizeof(ui_style));
	assert_memory_equal(&t.st[UI_DEPTH_8][UI_EL_DIM], &ref.st[UI_DEPTH_8][UI_EL_DIM], sizeof(ui_style));
	/* no colour at all: every depth, mono too */
	assert_int_equal(t.st[UI_DEPTH_MONO][UI_EL_TITLE].attrs, UI_ATTR_UNDERLINE);
	assert_int_equal(t.st[UI_DEPTH_8][UI_EL_TITLE].attrs, UI_ATTR_UNDERLINE);
	/* green: three depths, not mono */
	assert_int_equal(t.st[UI_DEPTH_8][UI_EL_STORM].fg.v, 2);
	assert_int_equal(t.st[UI_DEPTH_16][UI_EL_STORM].fg.v, 2);
	assert_memory_equal(&t.st[UI_DEPTH_MONO][UI_EL_STORM], &ref.st[UI_DEPTH_MONO][UI_EL_STORM], sizeof(ui_style));
	assert_int_equal(t.st[UI_DEPTH_8][UI_EL_STALE].fg.v, 1);
	assert_int_equal(t.st[UI_DEPTH_16][UI_EL_STALE].fg.v, 9);
	assert_int_equal(t.st[UI_DEPTH_MONO][UI_EL_STALE].attrs, UI_ATTR_REVERSE);
	assert_memory_equal(&t.st[UI_DEPTH_256][UI_EL_STALE], &ref.st[UI_DEPTH_256][UI_EL_STALE], sizeof(ui_style));
	assert_int_equal(theme_parse(&t, "[8]\ndim = fg=brightblack\n", "a.theme", err, sizeof err), -1);
	assert_string_equal(err, "a.theme:2: [8] takes the 8 colours black to white, default or colour0-7");
	assert_int_equal(theme_parse(&t, "[16]\ndim = fg=colour244\n", "b.theme", err, sizeof err), -1);
	assert_string_equal(err, "b.theme:2: [16] takes the 16 colours, default or colour0-15");
	assert_int_equal(theme_parse(&t, "[16]\ndim = fg=#808080\n", "b.theme", err, sizeof err), -1);
	assert_int_equal(theme_parse(&t, "[mono]\ndim = fg=red\n", "c.theme", err, sizeof err), -1);
	assert_string_equal(err, "c.theme:2: [mono] takes attributes only, no colour");
	assert_int_equal(theme_parse(&t, "[88]\n", "d.theme", err, sizeof err), -1);
	assert_string_equal(err, "d.theme:1: unknown section '[88]' ([256], [16], [8] or [mono])");
	assert_int_equal(theme_depth(256), UI_DEPTH_256);
	assert_int_equal(theme_depth(88), UI_DEPTH_16);
	assert_int_equal(theme_depth(16), UI_DEPTH_16);
	assert_int_equal(theme_depth(8), UI_DEPTH_8);
	assert_int_equal(theme_depth(0), UI_DEPTH_MONO);
	assert_string_equal(theme_depth_name(UI_DEPTH_8), "8");
}

/* The colour a style signals with: its background when that is not the page's (a chip), else its foreground. */
static int
signal_colour(const ui_style *st, const ui_style *page)
{
	bool chip = st->bg.kind != UI_COLOUR_DEFAULT && (st->bg.kind != page->bg.kind || st->bg.v != page->bg.v);
	const ui_colour *c = chip ? &st->bg : &st->fg;
	if (c->kind == UI_COLOUR_DEFAULT)
		return -1;
	return theme_colour_index(*c, 256);
}

/* Distance in RGB of two colours of the 256 (0 when one is the default). */
static double
colour_dist(int a, int b)
{
	uint32_t x = theme_index_rgb(a), y = theme_index_rgb(b);
	double dr = (double)((x >> 16) & 0xff) - (double)((y >> 16) & 0xff);
	double dg = (double)((x >> 8) & 0xff) - (double)((y >> 8) & 0xff);
	double db = (double)(x & 0xff) - (double)(y & 0xff);
	if (a < 0 || b < 0)
		return 0;
	return dr * dr + dg * dg + db * db;
}

/* True when two colours of a depth are the same, or at 256 nearly (less than 60 apart in RGB). */
static bool
collide(ui_depth d, int a, int b)
{
	if (a < 0 || b < 0)
		return false;
	if (a == b)
		return true;
	return d == UI_DEPTH_256 && a >= 16 && b >= 16 && colour_dist(a, b) < 60 * 60;
}

/*
 * Roles hold on every terminal: in each shipped theme's 256, 16 and 8
 * colour palettes, warnings and errors keep their colours to themselves
 * (no quiet role - secondary text, the time axis, Stable, member colours
 * - takes them), no text is the background's colour, and member colours
 * differ from each other (at 8 colours by colour and bold together).
 */
static void
test_roles(void **state)
{
	static const ui_element warn[] = { UI_EL_PARTIAL, UI_EL_GAUGE_WARN, UI_EL_STATE_REBAL, UI_EL_EPISODE, UI_EL_STALE,
					   UI_EL_VERDICT_WARN };
	static const ui_element error[] = { UI_EL_STOPPED, UI_EL_GAUGE_CRIT, UI_EL_LAG_UP, UI_EL_REVOKED, UI_EL_EV_ALERT,
					    UI_EL_VERDICT_BAD };
	static const ui_element quiet[] = {
		UI_EL_NORMAL, UI_EL_DIM, UI_EL_BORDER, UI_EL_NOW, UI_EL_EV_TIME, UI_EL_IDLE, UI_EL_GAUGE_EMPTY,
		UI_EL_STATE_EMPTY, UI_EL_STATE_STABLE, UI_EL_TAB, UI_EL_COLUMN, UI_EL_LAG_DOWN, UI_EL_GAUGE_OK, UI_EL_VERDICT_OK,
		UI_EL_EV_ASSIGN, UI_EL_COOP, UI_EL_EAGER, UI_EL_EV_FULL, UI_EL_STATIC, UI_EL_EV_MEMBER, UI_EL_EV_INCR,
		UI_EL_TITLE, UI_EL_OWNER1, UI_EL_OWNER2, UI_EL_OWNER3, UI_EL_OWNER4, UI_EL_OWNER5, UI_EL_OWNER6,
		UI_EL_OWNER7, UI_EL_OWNER8,
	};
	static const struct {
		const char *name;
		bool light;
	} themes[] = { { "default", false }, { "high-contrast", false }, { "light", true } };
	size_t ti, i, k;
	int d;
	(void)state;
	for (ti = 0; ti < KG_ARRAY_LEN(themes); ti++) {
		ui_theme t;
		char err[512];
		assert_int_equal(theme_load(&t, themes[ti].name, err, sizeof err), 0);
		for (d = UI_DEPTH_256; d <= UI_DEPTH_8; d++) {
			const ui_style *p = t.st[d];
			int ncol = d == UI_DEPTH_256 ? 256 : d == UI_DEPTH_16 ? 16 : 8;
			for (i = 0; i < KG_ARRAY_LEN(quiet); i++) {
				int q = signal_colour(&p[quiet[i]], &p[UI_EL_NORMAL]);
				for (k = 0; k < KG_ARRAY_LEN(warn); k++) {
					if (collide((ui_depth)d, q, signal_colour(&p[warn[k]], &p[UI_EL_NORMAL])))
						fail_msg("%s [%s]: %s takes the warning colour of %s", themes[ti].name,
							 theme_depth_name((ui_depth)d), theme_element_name(quiet[i]),
							 theme_element_name(warn[k]));
				}
				for (k = 0; k < KG_ARRAY_LEN(error); k++) {
					if (collide((ui_depth)d, q, signal_colour(&p[error[k]], &p[UI_EL_NORMAL])))
						fail_msg("%s [%s]: %s takes the error colour of %s", themes[ti].name,
							 theme_depth_name((ui_depth)d), theme_element_name(quiet[i]),
							 theme_element_name(error[k]));
				}
			}
			for (i = 0; i < UI_EL_COUNT; i++) {
				int fg = theme_colour_index(p[i].fg, ncol), bg = theme_colour_index(p[i].bg, ncol);
				/* the terminal's background: black for a dark theme, white (or yellow) for the light one */
				bool on_bg = bg < 0 && fg >= 0 &&
					     (themes[ti].light ? (fg == 7 || fg == 15 || fg == 231 || fg == 255 || fg == 3 || fg == 11)
							       : (fg == 0 || fg == 16 || (fg >= 232 && fg <= 235)));
				if ((fg >= 0 && fg == bg) || on_bg)
					fail_msg("%s [%s]: %s is drawn in its background's colour", themes[ti].name,
						 theme_depth_name((ui_depth)d), theme_element_name((ui_element)i));
			}
			for (i = 0; i < UI_OWNER_COLOURS; i++) {
				for (k = 0; k < i; k++) {
					const ui_style *a = &p[UI_EL_OWNER1 + i], *b = &p[UI_EL_OWNER1 + k];
					bool same = collide((ui_depth)d, signal_colour(a, &p[UI_EL_NORMAL]), signal_colour(b, &p[UI_EL_NORMAL]));
					if (d == UI_DEPTH_8)
						same = same && (a->attrs & UI_ATTR_BOLD) == (b->attrs & UI_ATTR_BOLD);
					if (same)
						fail_msg("%s [%s]: owner-%zu and owner-%zu look the same", themes[ti].name,
							 theme_depth_name((ui_depth)d), i + 1, k + 1);
				}
			}
		}
	}
}

/* Run. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),     cmocka_unit_test(test_colours),  cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_style),     cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_documented), cmocka_unit_test(test_fallback), cmocka_unit_test(test_build_tree),
		cmocka_unit_test(test_sections),  cmocka_unit_test(test_roles),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
