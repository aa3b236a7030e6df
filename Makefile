# The README's commands: `make demo` and `make test` (plus `make bench` and `make fuzz`).
SWIFT ?= swift
PREFIX ?= /usr/local
# Use sudo for apt only when not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null && echo sudo)
PREFS := .build/release/prefs
# The release binary, built for start-up time (see the README's Performance section):
# - on FoundationEssentials alone: without the FullFoundation trait (Package.swift),
#   no CoreFoundation, ICU or Foundation is linked in, nor initialised at start-up;
# - one static PIE: the Swift runtime, libyaml and the C libraries linked in, relocated
#   by its own start-up code with its relocations packed (RELR), so no dynamic loader
#   runs, and it keeps address-space randomisation. lld (in the Swift toolchain) links
#   it; a static PIE must carry no run path, hence --disable-local-rpath.
RELEASE := -c release --product prefs --disable-default-traits --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -static-executable -Xswiftc -use-ld=lld \
	-Xswiftc -Xclang-linker -Xswiftc -static-pie -Xlinker -z -Xlinker pack-relative-relocs
# The scanner behind `prefs schema scan`, beside the prefs binary it goes with. It links
# the Swift toolchain's SwiftSyntax (its host libraries, found from swiftc), so it is a
# program of its own, built where the toolchain has them, in a build folder of its own
# (the static flags of prefs do not apply to it).
SCANNER = $(dir $(PREFS))prefs-scan-swift
SWIFT_HOST := $(shell swiftc=$$(command -v swiftc) && echo "$$(dirname "$$(dirname "$$(readlink -f "$$swiftc")")")/lib/swift/host")
HAS_SWIFT_SYNTAX := $(shell [ -e "$(SWIFT_HOST)/libSwiftSyntax.so" ] || [ -e "$(SWIFT_HOST)/libSwiftSyntax.dylib" ] && echo yes)
# Seconds each fuzz target runs for.
FUZZ_SECONDS ?= 60

.PHONY: all deps test-deps build demo demo-run test test-release docs bench fuzz install install-files uninstall format lint-format clean

all: build

# libyaml (the YAML codec's C library) through Debian's packages when pkg-config lacks it.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists yaml-0.1; then \
		echo "Installing libyaml-dev and pkg-config with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libyaml-dev pkg-config; \
	fi

# groff checks the manual page in the tests (they skip visibly without it).
test-deps: deps
	@if ! command -v groff >/dev/null 2>&1; then \
		echo "Installing groff-base with apt-get"; \
		$(SUDO) apt-get install -y -qq groff-base >/dev/null 2>&1 || echo "groff-base could not be installed"; \
	fi

build: deps
	$(SWIFT) build $(RELEASE)
	@# Foundation API that FoundationEssentials lacks would link all of Foundation back in.
	@if nm $(PREFS) | grep -q ' __CFInitialize$$'; then \
		echo "error: $(PREFS) links CoreFoundation: the CLI uses Foundation API beyond FoundationEssentials" >&2; \
		exit 1; \
	fi
ifeq ($(HAS_SWIFT_SYNTAX),yes)
	$(SWIFT) build -c release --product prefs-scan-swift --scratch-path .build/scanner
	cp .build/scanner/release/prefs-scan-swift $(SCANNER)
else
	@echo "note: the Swift toolchain has no SwiftSyntax in $(SWIFT_HOST): prefs-scan-swift (prefs schema scan) is not built"
endif

# Converts the shipped samples and prints them.
demo: build
	@$(MAKE) --no-print-directory demo-run

# The demo on a built binary (PREFS=...). Its files go to a private folder made by
# mktemp -d and removed at the end: a fixed name in /tmp could be a symlink that
# someone else placed there.
demo-run:
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && trap 'exit 130' INT TERM && \
	echo '$$ prefs convert Samples/UserSettings.plist            # XML plist to YAML' && \
	$(PREFS) convert Samples/UserSettings.plist && \
	echo && \
	echo '$$ prefs convert Samples/UserSettings.yaml --to json' && \
	$(PREFS) convert Samples/UserSettings.yaml --to json && \
	echo && \
	echo '$$ prefs convert Samples/UserSettings.json --to binary -o '"$$out"'/UserSettings.bplist' && \
	$(PREFS) convert Samples/UserSettings.json --to binary -o "$$out/UserSettings.bplist" && \
	echo '$$ prefs textconv '"$$out"'/UserSettings.bplist       # what git diff shows' && \
	$(PREFS) textconv "$$out/UserSettings.bplist" && \
	echo && \
	echo '$$ prefs diff Samples/UserSettings.plist '"$$out"'/UserSettings.bplist && echo same' && \
	$(PREFS) diff Samples/UserSettings.plist "$$out/UserSettings.bplist" && echo same && \
	echo && \
	printf '# The tutorial'"'"'s settings, kept in git\nisAccountPrivate: true   # private by default\n\nringtone: Chimes\nusername: ""\n' \
		> "$$out/settings.yaml" && cp "$$out/settings.yaml" "$$out/before.yaml" && \
	echo '$$ prefs set settings.yaml ringtone Waves          # a commented file: only that line changes' && \
	$(PREFS) set "$$out/settings.yaml" ringtone Waves && \
	{ diff -u "$$out/before.yaml" "$$out/settings.yaml" | tail -n +3 || true; }

test: test-deps
	@# The Python cross-checks use PyYAML, ruamel.yaml and jsonschema when they can be had; they skip visibly otherwise.
	-@python3 -c 'import yaml, ruamel.yaml' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pyyaml ruamel.yaml >/dev/null 2>&1 || true
	-@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check jsonschema >/dev/null 2>&1 || true
	$(SWIFT) test
	@$(MAKE) --no-print-directory docs

# The library's documentation (Sources/PrefsKit/PrefsKit.docc) from the debug build's
# modules, with every warning an error: a broken symbol link or a missing page fails
# `make test`. PrefsKit re-exports the layers, so their public symbols are its own.
DOCS_OUT ?= .build/docs
LAYERS := PrefsModel,PrefsText,PrefsFormats,PrefsDocument,PrefsStore,PrefsOperations
docs:
	@modules="$$($(SWIFT) build --show-bin-path)/Modules" && graphs=.build/symbol-graphs && \
	$(SWIFT) build --target PrefsKit >/dev/null && rm -rf "$$graphs" && mkdir -p "$$graphs" && \
	swift-symbolgraph-extract -module-name PrefsKit -I "$$modules" -I Sources/CYaml \
		-target "$$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)" -output-dir "$$graphs" -minimum-access-level public \
		-experimental-allowed-reexported-modules=$(LAYERS) && \
	docc convert Sources/PrefsKit/PrefsKit.docc --fallback-display-name PrefsKit \
		--fallback-bundle-identifier prefs.PrefsKit --additional-symbol-graph-dir "$$graphs" \
		--output-path $(DOCS_OUT) --warnings-as-errors && echo "docs: $(DOCS_OUT)"

# The command-line tests against the release binary (static, on FoundationEssentials
# alone) rather than the debug one `make test` builds. Not part of `make test`: the
# release build takes minutes.
test-release: build
	PREFS_TEST_BINARY=$(PREFS) $(SWIFT) test --filter prefsTests

# Times prefs against plistlib + PyYAML, plutil and plistutil on a generated 20 MB domain
# and the tutorial's tiny one; the table goes to stdout and bench-out/results.md.
# BASELINE=PATH times an earlier prefs binary alternately with this one, case by case.
# Python runs as its real interpreter (sys.executable), not through a pyenv shim.
bench: build
	@command -v plistutil >/dev/null 2>&1 || { echo "Installing libplist-utils with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libplist-utils; } \
		|| echo "plistutil could not be installed: it is reported as missing"
	-@python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pyyaml >/dev/null 2>&1 || true
	@"$$(python3 -c 'import sys; print(sys.executable)')" Benchmarks/bench.py $(if $(BASELINE),--baseline "$(BASELINE)")

# Runs each libFuzzer target (Fuzz/Targets) for FUZZ_SECONDS; crash inputs are kept in
# .build/fuzz/crashes/ for Tests/Fixtures/fuzz/. Not part of `make test`.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh $(FUZZ_TARGETS)

# Installs the binary, the manual page and the shell completions under PREFIX; the
# manual's FILES section names each of these paths and how each shell loads its file.
install: build
	@$(MAKE) --no-print-directory install-files

# The installation of a built binary (PREFS=...): stripped of its debugging
# information (install -s), then run once to show that it still works.
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -s -m 755 $(PREFS) $(DESTDIR)$(PREFIX)/bin/prefs
	$(DESTDIR)$(PREFIX)/bin/prefs --version >/dev/null
	@if [ -x $(SCANNER) ]; then install -s -m 755 $(SCANNER) $(DESTDIR)$(PREFIX)/bin/prefs-scan-swift; fi
	install -m 644 man/prefs.1 $(DESTDIR)$(PREFIX)/share/man/man1/prefs.1
	$(PREFS) completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/prefs
	$(PREFS) completions zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_prefs
	$(PREFS) completions fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/prefs.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/prefs $(DESTDIR)$(PREFIX)/bin/prefs-scan-swift $(DESTDIR)$(PREFIX)/share/man/man1/prefs.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/prefs \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_prefs \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/prefs.fish

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint-format:
	$(SWIFT) format lint --recursive Package.swift Sources Tests

clean:
	rm -rf .build
