# themes: installed into $(pkgdatadir)/themes (KG_DATADIR "/themes").
themesdir = $(pkgdatadir)/themes
dist_themes_DATA = \
	themes/default.theme \
	themes/light.theme \
	themes/mono.theme \
	themes/high-contrast.theme
