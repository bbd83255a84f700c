# Packaging and installation (included by Makefile). See docs/packaging.md.
#
#   make deb             ore-dkms and ore-tools .debs from a clean export of
#                        HEAD (git archive) into build/deb/, then lintian
#   make dkms-install    sources into /usr/src/ore-VERSION, dkms add, build,
#                        install for the running kernel (a machine that is
#                        meant to run the modules: never the test host)
#   make install-tools   tools, man pages, udev rule, systemd units under
#                        DESTDIR (what ore-tools holds)
#   make pkg-check       build-only host checks of the packages and the
#                        guest test of the modules and tools taken from them
#   make pkg-deps        install dkms, dh-dkms, debhelper, lintian

# The one place the version lives: the top entry of debian/changelog.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
PKG_DEPS := dkms dh-dkms debhelper lintian fakeroot dpkg-dev
DEB_DIR := build/deb

PREFIX ?= /usr
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
UDEVDIR ?= $(or $(shell pkg-config --variable=udevdir udev 2>/dev/null),/lib/udev)
UNITDIR ?= $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
PKG_TOOLS := mkfs.exofs fsck.exofs oreblk
# What DKMS builds: the top Kbuild, the headers and the three module
# directories (tests/ktap and bench/kmod stay out).
DKMS_FILES := Kbuild include ore exofs oreblk
DKMS_SRC = $(DESTDIR)/usr/src/ore-$(VERSION)

.PHONY: deb dkms-install dkms-uninstall install-tools install-dkms-src pkg-deps pkg-check

pkg-deps:
	@scripts/deps.sh $(PKG_DEPS)

install-tools:
	@for t in $(PKG_TOOLS); do [ -x tools/$$t ] || { echo "install-tools: tools/$$t not built (make tools)"; exit 1; }; done
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(addprefix tools/,$(PKG_TOOLS)) $(DESTDIR)$(SBINDIR)/
	install -m 644 man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -d $(DESTDIR)$(UDEVDIR)/rules.d $(DESTDIR)$(UNITDIR)
	sed 's|@SBINDIR@|$(SBINDIR)|g' udev/64-oreblk.rules > $(DESTDIR)$(UDEVDIR)/rules.d/64-oreblk.rules
	for u in systemd/*.service; do sed 's|@SBINDIR@|$(SBINDIR)|g' $$u > $(DESTDIR)$(UNITDIR)/$${u##*/}; done
	chmod 644 $(DESTDIR)$(UDEVDIR)/rules.d/64-oreblk.rules $(DESTDIR)$(UNITDIR)/*.service

# The module sources for DKMS (dkms.conf comes with dh_dkms or dkms-install).
install-dkms-src:
	install -d $(DKMS_SRC)
	tar -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='*.order' --exclude='*.symvers' --exclude='.*.d' \
		$(DKMS_FILES) | tar -xf - -C $(DKMS_SRC)
	find $(DKMS_SRC) -type d -exec chmod 755 {} + -o -type f -exec chmod 644 {} +

dkms-install: pkg-deps
	$(MAKE) --no-print-directory install-dkms-src DESTDIR=
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > /usr/src/ore-$(VERSION)/dkms.conf
	dkms add -m ore -v $(VERSION) || dkms status -m ore -v $(VERSION) | grep -q .
	dkms build -m ore -v $(VERSION)
	dkms install -m ore -v $(VERSION)

dkms-uninstall:
	dkms remove -m ore -v $(VERSION) --all
	rm -rf /usr/src/ore-$(VERSION)

# From a clean export of HEAD: what a clean clone would build (uncommitted
# changes are not in it). The .debs, .buildinfo, .changes and the lintian
# report land in build/deb/.
deb: pkg-deps
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	git archive --format=tar HEAD | tar -x -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && dpkg-buildpackage -b -us -uc
	lintian --info --display-info --pedantic $(DEB_DIR)/*.changes 2>&1 | tee $(DEB_DIR)/lintian.txt
	@ls -l $(DEB_DIR)/*.deb

pkg-check: deb
	@scripts/pkg-check.sh
