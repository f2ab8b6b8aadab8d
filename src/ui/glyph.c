/*
 * glyph.c: the UTF-8 and ASCII glyph tables (see glyph.h).
 */
#include "config.h"

#include "ui/glyph.h"

#define UI_GLYPH_U_(id, u, a) u,
static const char *const glyph_utf8[G_COUNT] = { UI_GLYPHS(UI_GLYPH_U_) };
#undef UI_GLYPH_U_
#define UI_GLYPH_A_(id, u, a) a,
static const char *const glyph_ascii[G_COUNT] = { UI_GLYPHS(UI_GLYPH_A_) };
#undef UI_GLYPH_A_

/* The glyph in UTF-8 or ASCII. */
const char *
glyph_get(ui_glyph g, bool ascii)
{
	if ((unsigned)g >= G_COUNT)
		return "?";
	return ascii ? glyph_ascii[g] : glyph_utf8[g];
}
