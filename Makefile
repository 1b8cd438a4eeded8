# Builds and installs locationd: the two programs (release, Swift's standard
# library linked in statically, so they need only Debian's libraries), the
# man pages made from docs/*.md with pandoc, the systemd units, sysusers,
# logrotate, the configuration and shell completion.
#
#   make                      build the programs and the man pages
#   make install              install under PREFIX (default /usr/local)
#   make install PREFIX=/usr DESTDIR=/tmp/root   stage a tree (debian/rules does this)
#
# The Swift toolchain is found on PATH (or SWIFT=/path/to/swift); it is not
# a Debian package. SWIFTFLAGS adds flags to `swift build` (debian/rules
# passes Debian's hardening flags through it).

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# The daemon reads /etc/locationd/locationd.conf whatever the prefix.
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions

SWIFT ?= swift
SWIFTFLAGS ?=
PANDOC ?= pandoc
INSTALL ?= install

VERSION := $(shell sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/LocationValues/CLI/LocationdVersion.swift)
# The pages' date: SOURCE_DATE_EPOCH (dpkg-buildpackage sets it from
# debian/changelog) so that a rebuild gives the same pages; else today.
MANDATE := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%d)

# Each function in a section of its own (Swift and C), so that the link can
# drop the unused ones and lay out the rest in Sources/locationd/symbol-order.txt
# (Package.swift): the functions a running daemon uses sit together, and fewer
# of its pages become resident (docs/ARCHITECTURE.md, "Resident memory"). The
# compiler skips writing an object whose code did not change, whatever these
# flags: after a release build without them, `swift package clean` first.
SECTIONS = -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
SWIFTBUILD = $(SWIFT) build -c release --static-swift-stdlib $(SECTIONS) $(SWIFTFLAGS)
MANBUILD = .build/man
MANPAGES = $(MANBUILD)/locationd.8 $(MANBUILD)/locationd.conf.5 $(MANBUILD)/locationctl.1

.PHONY: all build man install uninstall clean

all: build man

# The link's own inputs (the order file, the libstdc++ linker script) are not
# files swift build tracks: when one is newer than the daemon, the daemon is
# removed so that this build links it again with them.
LINKINPUTS = Sources/locationd/symbol-order.txt Sources/locationd/static-libstdc++/libstdc++.so

build:
	@bin=$$($(SWIFTBUILD) --show-bin-path) && for input in $(LINKINPUTS); do \
		[ ! -e "$$bin/locationd" ] || [ "$$bin/locationd" -nt "$$input" ] || rm -f "$$bin/locationd"; done
	$(SWIFTBUILD) --product locationd
	$(SWIFTBUILD) --product locationctl

man: $(MANPAGES)

# docs/NAME.SECTION.md -> NAME.SECTION. The document's first heading,
# "# NAME(SECTION)", becomes the title (--shift-heading-level-by=-1), its
# "## NAME", "## SYNOPSIS"… the sections; the Markdown stays as it reads on
# GitHub. scripts/manpage.lua fits tables to an 80-column terminal.
$(MANBUILD)/%: docs/%.md scripts/manpage.lua
	@mkdir -p $(MANBUILD)
	$(PANDOC) --standalone --from markdown --to man --shift-heading-level-by=-1 \
		--lua-filter scripts/manpage.lua \
		--metadata header="locationd manual" --metadata footer="locationd $(VERSION)" \
		--metadata date="$(MANDATE)" --output $@ $<

install: all
	bin=$$($(SWIFTBUILD) --show-bin-path) && \
	$(INSTALL) -D -m 0755 "$$bin/locationd" $(DESTDIR)$(SBINDIR)/locationd && \
	$(INSTALL) -D -m 0755 "$$bin/locationctl" $(DESTDIR)$(BINDIR)/locationctl
	$(INSTALL) -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/sbin/locationd|$(SBINDIR)/locationd|' systemd/locationd.service >$(DESTDIR)$(UNITDIR)/locationd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/locationd.service
	$(INSTALL) -m 0644 systemd/locationd.socket $(DESTDIR)$(UNITDIR)/locationd.socket
	$(INSTALL) -D -m 0644 systemd/locationd.sysusers $(DESTDIR)$(SYSUSERSDIR)/locationd.conf
	$(INSTALL) -D -m 0644 config/logrotate.d/locationd $(DESTDIR)$(SYSCONFDIR)/logrotate.d/locationd
	@# An existing configuration is a person's: never overwrite it.
	if [ -e $(DESTDIR)$(SYSCONFDIR)/locationd/locationd.conf ]; then \
		echo "keeping $(DESTDIR)$(SYSCONFDIR)/locationd/locationd.conf (the shipped one is config/locationd.conf)"; \
	else \
		$(INSTALL) -D -m 0644 config/locationd.conf $(DESTDIR)$(SYSCONFDIR)/locationd/locationd.conf; \
	fi
	$(INSTALL) -D -m 0644 $(MANBUILD)/locationd.8 $(DESTDIR)$(MANDIR)/man8/locationd.8
	$(INSTALL) -D -m 0644 $(MANBUILD)/locationd.conf.5 $(DESTDIR)$(MANDIR)/man5/locationd.conf.5
	$(INSTALL) -D -m 0644 $(MANBUILD)/locationctl.1 $(DESTDIR)$(MANDIR)/man1/locationctl.1
	$(INSTALL) -D -m 0644 completion/locationctl.bash $(DESTDIR)$(BASHCOMPDIR)/locationctl
	$(INSTALL) -D -m 0644 completion/_locationctl $(DESTDIR)$(ZSHCOMPDIR)/_locationctl

# Leaves /etc/locationd/locationd.conf, the state and the logs.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/locationd $(DESTDIR)$(BINDIR)/locationctl \
		$(DESTDIR)$(UNITDIR)/locationd.service $(DESTDIR)$(UNITDIR)/locationd.socket \
		$(DESTDIR)$(SYSUSERSDIR)/locationd.conf $(DESTDIR)$(SYSCONFDIR)/logrotate.d/locationd \
		$(DESTDIR)$(MANDIR)/man8/locationd.8 $(DESTDIR)$(MANDIR)/man5/locationd.conf.5 \
		$(DESTDIR)$(MANDIR)/man1/locationctl.1 \
		$(DESTDIR)$(BASHCOMPDIR)/locationctl $(DESTDIR)$(ZSHCOMPDIR)/_locationctl

clean:
	rm -rf $(MANBUILD)
