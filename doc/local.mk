# doc: man pages.
dist_man_MANS += doc/kgtop.1
EXTRA_DIST += doc/DESIGN.md doc/HISTORY.md
# doc: file lists (see Makefile.am)
dist_man_MANS += doc/kgtop-trace.5
# record and replay: the recording format
dist_man_MANS += doc/kgtop-record.5
# serve: alert rules for /metrics, installed beside the themes ($(pkgdatadir)/kgtop-alerts.yml)
dist_pkgdata_DATA += doc/kgtop-alerts.yml
