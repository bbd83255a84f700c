# ORE: build, boot and test harness. See README.md.
#
#   make check          everything: deps, modules, tools, unit, guest tests
#   make demo           boot a guest running tests/guest/demo.sh
#   make guest T=NAME   one guest test (tests/guest/NAME.sh, options from CHECK)
#   make bench B=NAME   one benchmark (bench/NAME.sh) in the guest
#   make nfsd           patched nfsd.ko + exofs_pnfs.ko + objlayoutdriver.ko, pNFS objects layout (docs/pnfs.md)
#   make pnfs-check     make nfsd, then the pNFS guest tests (server, client end to end)
#   make deb            ore-dkms and ore-tools packages (pkg.mk, docs/packaging.md)
#   make pkg-check      build-only package checks + the guest test from the .debs
#
# ARGS="--disks 4 ..." adds qemu/run.sh options to guest/bench/demo;
# V=1 shows the whole guest console live.

SHELL := /bin/bash
KVER = $(shell scripts/kver.sh)
KDIR = /lib/modules/$(KVER)/build
# Module directories that have a Kbuild file (the same list as in Kbuild).
MODDIRS := $(patsubst %/Kbuild,%,$(wildcard ore/Kbuild exofs/Kbuild oreblk/Kbuild tests/ktap/Kbuild bench/kmod/Kbuild))
RUN_OPTS := $(ARGS) $(if $(filter 1,$(V)),--console)

.PHONY: all deps kver modules nfsd pnfs-check tools unit guest check demo bench clean help

all: modules tools

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

deps:
	@scripts/deps.sh

# Fails with a message naming the packages when headers and image disagree.
kver:
	@scripts/kver.sh >/dev/null

modules: kver
ifneq ($(MODDIRS),)
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules
else
	@echo "modules: no module directory has a Kbuild file yet"
endif

# nfsd.ko from linux-source-6.12 with pnfs/nfsd/*.patch (in build/nfsd) and
# exofs/pnfs/exofs_pnfs.ko against it; the guest loads both when present.
nfsd: deps modules
	@scripts/build-nfsd.sh

# Not in make check: make nfsd builds nfsd.ko from source (~6 min on 2 cores).
# exofs_pnfs_client over RAID5 (its default), 0, 1 and 6; two clients; a
# kernel source subset through the client; a checksummed exofs with heads (no
# layouts) and without (clients keep the checksums; also with the MDS's stores
# over NFS);
# a degraded MDS (read layouts with a store missing); RW layouts in the
# intent record, and the MDS reset while a client holds one (without
# checksums, and with them in side files: the entries restamped).
pnfs-check: nfsd tools
	@rc=0; qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_server || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_clients || rc=1; \
	qemu/run.sh --disks 4 --disk-size 512M --timeout 1200 $(RUN_OPTS) exofs_pnfs_tree || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_csum || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_csumside || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 --args mdsnfs $(RUN_OPTS) exofs_pnfs_csumside || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_degraded || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --timeout 600 $(RUN_OPTS) exofs_pnfs_intent || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --stages 2 --timeout 600 $(RUN_OPTS) exofs_pnfs_crash || rc=1; \
	qemu/run.sh --disks 4 --disk-size 256M --stages 2 --timeout 600 --args csumside $(RUN_OPTS) exofs_pnfs_crash || rc=1; \
	for r in 5 0 1 6; do \
		qemu/run.sh --disks 4 --disk-size 256M --timeout 600 --args raid=$$r $(RUN_OPTS) exofs_pnfs_client || rc=1; \
	done; exit $$rc

tools:
	@if [ -e tools/Makefile ]; then $(MAKE) -C tools; else echo "tools: no tools/Makefile yet"; fi

unit:
	@scripts/unit.sh

guest: modules tools
	@[ -n "$(T)" ] || { echo "usage: make guest T=name (tests/guest/name.sh)"; exit 2; }
	@RUN_OPTS="$(RUN_OPTS)" qemu/check.sh $(T)

bench: modules tools
	@[ -n "$(B)" ] || { echo "usage: make bench B=name (bench/name.sh)"; exit 2; }
	@qemu/run.sh --bench --show --timeout 1800 $(RUN_OPTS) $(B)

demo: deps modules tools
	@qemu/run.sh --show --disks 4 --disk-size 1G $(RUN_OPTS) demo

# The build steps come first; a failure there is one failed result. Unit and
# guest tests all run even when some fail; the last line sums them.
check:
	@rm -rf build/results; mkdir -p build/results
	@$(MAKE) --no-print-directory deps modules tools || { scripts/summary.sh --fail 1; exit 1; }
	@rc=0; scripts/unit.sh || rc=1; \
	RUN_OPTS="$(RUN_OPTS)" qemu/check.sh || rc=1; \
	scripts/summary.sh || rc=1; exit $$rc

include pkg.mk

clean:
ifneq ($(MODDIRS),)
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/exofs/pnfs clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/pnfs/client clean
endif
	@if [ -e tools/Makefile ]; then $(MAKE) -C tools clean; fi
	@if [ -e tests/unit/Makefile ]; then $(MAKE) -C tests/unit clean; fi
	rm -rf build
