# debian: the package (dpkg-buildpackage -b -us -uc builds kgtop_VERSION_ARCH.deb).
EXTRA_DIST += debian/control debian/rules debian/changelog debian/copyright debian/source/format debian/clean
