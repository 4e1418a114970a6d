# SPDX-License-Identifier: BSD-3-Clause
# pinrun: build, test, install. GNU make.
#   make                 build ./pinrun and view/libpinrun-view.so
#   make check           unit tests and the bats suites
#   make check-unit      the C unit tests only
#   make check-vm        the suites in real kernels of other shapes (QEMU)
#   make WERROR=1        warnings are errors (CI)
#   make SAN=1 check     everything under ASan+UBSan
#   make HARDEN=1        fortify, stack protector, PIE, full RELRO
#   make install PREFIX=/usr DESTDIR=/tmp/stage   (pinrun, pinrun-compare)
#   make dist            pinrun-$(VERSION).tar.gz from the git tree (HEAD)
# CPPFLAGS, CFLAGS and LDFLAGS are the user's (dpkg-buildflags' too).

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
# pinrun-compare's Python package, the VERSION file beside it, and the CPU
# view's library (view/view.c), which pinrun finds from where it is.
COMPARELIBDIR ?= $(PREFIX)/lib/pinrun
COMPARE_MODULES := $(wildcard tools/pinrun_compare/*.py)
# The entry script finds it from where it is (DESTDIR or not).
COMPARE_REL = $(shell realpath -m --relative-to=$(BINDIR) $(COMPARELIBDIR))
PKG_CONFIG ?= pkg-config
INSTALL ?= install
CFLAGS ?= -O2 -g
# The one version (VERSION); --version, the cache key, the man pages (a
# test checks them) and the tarball's name take it from there.
VERSION := $(shell cat VERSION)
DISTFILE ?= pinrun-$(VERSION).tar.gz

# The warnings come after the user's CFLAGS so that no CFLAGS drops them.
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wpointer-arith -Wundef -Wvla
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
endif
# What Debian's hardening=+all gives, for builds outside dpkg. Fortify
# needs the optimizer: CFLAGS keeps its -O2 unless the user drops it.
ifeq ($(HARDEN),1)
HARDEN_CPPFLAGS := -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
HARDEN_CFLAGS := -fstack-protector-strong -fstack-clash-protection -fPIE
HARDEN_LDFLAGS := -pie -Wl,-z,relro -Wl,-z,now
endif

# hwloc is opened at run time (topology.c says why; docs/launch.md has the
# measurements): topology.o needs its headers and the library's file
# name, not a link. Asked only when something is built, so make clean and
# make help work without libhwloc-dev.
HWLOC_CFLAGS = $(shell $(PKG_CONFIG) --cflags hwloc)
HWLOC_LIBDIR = $(shell $(PKG_CONFIG) --variable=libdir hwloc)
HWLOC_SONAME = $(shell objdump -p $(HWLOC_LIBDIR)/libhwloc.so 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
HWLOC_DEFS = -DHWLOC_LIBRARY='"$(HWLOC_SONAME)"'
LDLIBS := -ldl
ALL_CPPFLAGS := -D_GNU_SOURCE -DPINRUN_VERSION='"$(VERSION)"' \
	-DPINRUN_LIB_REL='"$(COMPARE_REL)"' $(HARDEN_CPPFLAGS) $(CPPFLAGS)
ALL_CFLAGS := -std=gnu11 $(ALL_CPPFLAGS) $(HARDEN_CFLAGS) $(CFLAGS) \
	$(WARNINGS) $(SANFLAGS) -MMD -MP
# The user's CFLAGS reach the links too, as make's own rules have it (make
# CFLAGS='-O1 -fsanitize=address' links).
ALL_LDFLAGS := $(CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) $(SANFLAGS)

PURE_OBJS := cpulist.o topotree.o policy.o slotorder.o location.o suggest.o tidmap.o \
	devices.o memory.o emit.o tell.o launcher.o envp.o \
	slots.o topofile.o json.o buf.o num.o
OBJS := pinrun.o options.o context.o output.o act.o follower.o message.o \
	errors.o host.o topology.o loader.o cache.o follow.o follow_notify.o \
	follow_start.o report.o list.o $(PURE_OBJS)
UNIT_TESTS := $(patsubst %.c,%,$(wildcard tests/unit/test_*.c))
# The pure modules make no system call: they are one archive, which the
# unit tests link (with the words, errors.o and message.o) and which
# scripts/check-purity reads with nm.
PURE_LIB := pinrun-pure.a
UNIT_OBJS := $(PURE_LIB) errors.o message.o
HELPERS := $(patsubst %.c,%,$(wildcard tests/helpers/*.c))
# The CPU view, preloaded into other people's programs: position-
# independent, only its overrides exported, never sanitized (ASan must
# come first in a process, and these processes are not ours), with the
# one CPU list reader and number reader built again for it.
VIEW_LIB := view/libpinrun-view.so
VIEW_OBJS := view/view.pic.o view/cpulist.pic.o view/num.pic.o
VIEW_CFLAGS := -std=gnu11 $(ALL_CPPFLAGS) $(filter-out -fPIE,$(HARDEN_CFLAGS)) \
	$(filter-out -fsanitize=%,$(CFLAGS)) $(WARNINGS) -fPIC \
	-fvisibility=hidden -MMD -MP
VIEW_LDFLAGS := $(filter-out -fsanitize=%,$(CFLAGS)) \
	$(filter-out -pie,$(HARDEN_LDFLAGS)) $(filter-out -fsanitize=%,$(LDFLAGS))

all: pinrun $(VIEW_LIB)

# Rebuild everything when the compiler or its flags change (SAN=1 after a
# plain build must not link old objects).
BUILD_ID = $(CC) $(ALL_CFLAGS) $(HWLOC_CFLAGS) $(HWLOC_DEFS) $(ALL_LDFLAGS) \
	$(LDLIBS)
.build-flags: FORCE
	@echo '$(BUILD_ID)' | cmp -s - $@ || echo '$(BUILD_ID)' > $@

pinrun: $(OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(VIEW_LIB): $(VIEW_OBJS)
	$(CC) -shared $(VIEW_LDFLAGS) -Wl,--no-undefined -o $@ $(VIEW_OBJS) \
		$(LDLIBS)

view/view.pic.o: view/view.c .build-flags
	$(CC) $(VIEW_CFLAGS) -c -o $@ $<

view/%.pic.o: %.c .build-flags
	$(CC) $(VIEW_CFLAGS) -c -o $@ $<

topology.o: topology.c .build-flags
	@[ -n '$(HWLOC_SONAME)' ] || { echo "cannot find libhwloc.so in" \
		"'$(HWLOC_LIBDIR)': install libhwloc-dev" >&2; exit 1; }
	$(CC) $(ALL_CFLAGS) $(HWLOC_CFLAGS) $(HWLOC_DEFS) -c -o $@ $<

%.o: %.c .build-flags
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(PURE_LIB): $(PURE_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

tests/unit/test_%: tests/unit/test_%.o $(UNIT_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^)

tests/unit/%.o: tests/unit/%.c .build-flags
	$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

tests/helpers/%: tests/helpers/%.c .build-flags
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -pthread

check: pinrun $(VIEW_LIB) $(UNIT_TESTS) $(HELPERS) check-purity
	PINRUN=$(CURDIR)/pinrun tests/run

# The C unit tests alone, in seconds.
check-unit: $(UNIT_TESTS) check-purity
	tests/run --unit

# No pure object may reach the kernel (tests/shape.bats shows it failing).
check-purity: $(PURE_LIB)
	scripts/check-purity $(PURE_LIB)

# The pure modules' sources, one line: scripts/fuzz builds its harnesses
# from them (with its own flags), so that the list is kept here alone.
print-pure-sources:
	@echo $(PURE_OBJS:.o=.c)

# The exec and follow suites with every pinrun process under valgrind's
# memcheck (tests/tools/valgrind-pinrun): zero errors, no leak.
check-valgrind: pinrun $(VIEW_LIB) $(UNIT_TESTS) $(HELPERS)
	rm -rf tests/tmp/valgrind && mkdir -p -m 1777 tests/tmp/valgrind
	PINRUN=$(CURDIR)/tests/tools/valgrind-pinrun PINRUN_UNDER_VALGRIND=1 \
	PINRUN_VG_LOGS=$(CURDIR)/tests/tmp/valgrind \
		tests/run tests/exec.bats tests/follow.bats

# Every shape of tests/vm/ booted under QEMU, its suites run inside
# (scripts/install-deps --ci brings QEMU and the kernel).
check-vm: pinrun $(VIEW_LIB) $(HELPERS)
	for s in $$(scripts/vm --shapes | awk '{ print $$1 }'); do \
		scripts/vm "$$s" --suites || exit 1; done

format-check:
	clang-format --dry-run -Werror *.c *.h view/*.c tests/unit/*.c tests/unit/*.h \
		tests/helpers/*.c scripts/*.c fuzz/*.c fuzz/*.h examples/http/*.c

install: pinrun $(VIEW_LIB)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 755 pinrun $(DESTDIR)$(BINDIR)/pinrun
	$(INSTALL) -d $(DESTDIR)$(COMPARELIBDIR)/pinrun_compare
	$(INSTALL) -m 644 $(VIEW_LIB) $(DESTDIR)$(COMPARELIBDIR)
	$(INSTALL) -m 644 $(COMPARE_MODULES) \
		$(DESTDIR)$(COMPARELIBDIR)/pinrun_compare
	$(INSTALL) -m 644 VERSION $(DESTDIR)$(COMPARELIBDIR)/VERSION
	sed 's|^LIBDIR = .*|LIBDIR = os.path.join(HERE, "$(COMPARE_REL)")|' \
		scripts/pinrun-compare >$(DESTDIR)$(BINDIR)/pinrun-compare
	chmod 755 $(DESTDIR)$(BINDIR)/pinrun-compare
	$(INSTALL) -m 644 man/pinrun.1 $(DESTDIR)$(MANDIR)/man1/pinrun.1
	$(INSTALL) -m 644 man/pinrun-compare.1 \
		$(DESTDIR)$(MANDIR)/man1/pinrun-compare.1
	$(INSTALL) -m 644 completion/pinrun.bash \
		$(DESTDIR)$(COMPLETIONDIR)/pinrun
	$(INSTALL) -m 644 completion/pinrun-compare.bash \
		$(DESTDIR)$(COMPLETIONDIR)/pinrun-compare

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pinrun $(DESTDIR)$(BINDIR)/pinrun-compare \
		$(DESTDIR)$(MANDIR)/man1/pinrun.1 \
		$(DESTDIR)$(MANDIR)/man1/pinrun-compare.1 \
		$(DESTDIR)$(COMPLETIONDIR)/pinrun \
		$(DESTDIR)$(COMPLETIONDIR)/pinrun-compare
	rm -rf $(DESTDIR)$(COMPARELIBDIR)/pinrun_compare
	rm -f $(DESTDIR)$(COMPARELIBDIR)/VERSION \
		$(DESTDIR)$(COMPARELIBDIR)/libpinrun-view.so
	-rmdir $(DESTDIR)$(COMPARELIBDIR)

# The committed tree (HEAD), as pinrun-VERSION/; it builds and passes
# make check-unit on its own (tests/release.bats unpacks and runs it).
dist:
	git archive --format=tar.gz --prefix=pinrun-$(VERSION)/ \
		-o $(DISTFILE) HEAD

clean:
	rm -rf tests/tmp
	rm -f pinrun-$(VERSION).tar.gz
	rm -f pinrun *.o *.d *.a .build-flags $(UNIT_TESTS) tests/unit/*.o \
		$(VIEW_LIB) view/*.o view/*.d \
		tests/unit/*.d $(HELPERS) tests/helpers/*.d

help:
	@echo 'make                  build ./pinrun (needs libhwloc-dev)'
	@echo 'make check            unit tests and every bats suite'
	@echo 'make check-unit       the C unit tests only'
	@echo 'make check-purity     the pure modules make no system call'
	@echo 'make check-valgrind   the exec and follow suites under memcheck'
	@echo 'make format-check     clang-format, as CI runs it'
	@echo 'make install          PREFIX=$(PREFIX) DESTDIR=...'
	@echo 'make dist             pinrun-$(VERSION).tar.gz from git HEAD'
	@echo 'make uninstall, make clean'
	@echo 'Switches: WERROR=1 (warnings are errors), SAN=1 (ASan+UBSan),'
	@echo '          HARDEN=1 (fortify, stack protector, PIE, relro/now)'

.PHONY: all help check check-unit check-purity check-valgrind format-check \
	print-pure-sources install uninstall dist clean FORCE
.SECONDARY: $(UNIT_TESTS:=.o)

-include $(OBJS:.o=.d) $(UNIT_TESTS:=.d) $(VIEW_OBJS:.o=.d) $(HELPERS:=.d)
