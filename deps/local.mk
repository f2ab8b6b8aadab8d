# deps: the pinned librdkafka (deps/librdkafka.sh), bundled by default (./configure --with-librdkafka).
EXTRA_DIST += deps/librdkafka.sh deps/librdkafka-coord-cache.patch deps/librdkafka-tp-index.patch
# distcheck builds the variant this tree was configured with, from the same cache.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-librdkafka=$(KG_RDKAFKA_MODE) \
	$(KG_RDKAFKA_CACHE:%=--with-librdkafka-cache=%) $(KG_RDKAFKA_TARBALL:%=--with-librdkafka-tarball=%)
if RDKAFKA_BUNDLED
# configure made the bundled build; should its cache have gone since, make makes it again (the same
# key, so the same directory).
BUILT_SOURCES = $(KG_RDKAFKA_PREFIX)/lib/librdkafka.a
$(KG_RDKAFKA_PREFIX)/lib/librdkafka.a:
	@d=`CC='$(CC)' $(SHELL) $(srcdir)/deps/librdkafka.sh --cache '$(patsubst %/,%,$(dir $(KG_RDKAFKA_PREFIX)))' \
		$(KG_RDKAFKA_TARBALL:%=--tarball %)` && test "$$d" = '$(KG_RDKAFKA_PREFIX)' || \
		{ echo "make: the bundled librdkafka is now built in $$d, not $(KG_RDKAFKA_PREFIX): run ./configure again"; exit 1; }
# kgtop is linked again when the bundled library changes (a new pin, recipe or compiler: a new directory)
EXTRA_kgtop_DEPENDENCIES = $(KG_RDKAFKA_PREFIX)/lib/librdkafka.a
# the binary carries librdkafka: its licence notices (BSD-2-Clause, and the code it vendors) go with it
rdkafkadocdir = $(docdir)
rdkafkadoc_DATA = $(KG_RDKAFKA_PREFIX)/share/doc/librdkafka-LICENSES.txt
endif
# what the fetch and the build say when they cannot succeed (no network, a bad checksum, a failed build)
TESTS += tests/tools/rdkafka-bundle.sh
EXTRA_DIST += tests/tools/rdkafka-bundle.sh
