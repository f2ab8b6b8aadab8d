# tests/soak: make soak [SOAK_TIME=seconds] (default 600), not part of make check:
# the demo with a trace flood and the fixture broker with a changing scenario,
# sampled every 10 s; fails when memory, CPU or descriptors grow after warm-up.

soak: kgtop tests/fixture-broker
	SOAK_TIME=$(SOAK_TIME) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) $(top_srcdir)/tests/soak/soak.sh
.PHONY: soak
EXTRA_DIST += tests/soak/soak.sh
