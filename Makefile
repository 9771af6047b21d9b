# TablePages: `make run` serves on http://localhost:8080, `make test` runs every test.
# Both install what is missing first (Debian packages, needs root or sudo).

# bash with pipefail, so a failing build is not hidden by the `tee` after it.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

SWIFT ?= swift
PORT ?= 8080
HOST ?= 127.0.0.1
APT_PACKAGES := libmicrohttpd-dev libsqlite3-dev pkg-config
TEST_APT_PACKAGES := $(APT_PACKAGES) curl chromium chromium-driver sqlite3 postgresql postgresql-client nginx-light
PYTHON ?= python3
# Pinned: a new schemathesis or hypothesis release must not change what CI runs unannounced, and
# Tests/EndToEnd/test_datasette_api.py compares answers with this Datasette's.
DATASETTE_VERSION := 0.65.5
# dclient 0.4 (Datasette's command-line client): test_datasette_fixtures.py runs it against both servers.
# Tests/EndToEnd/test_datasette_write_api.py compares the write API with Datasette 1.0a41, which it installs
# (with dclient 0.4) into a virtual environment of its own, kept in ~/.cache/tablepages/datasette-1.0a41.
PIP_PACKAGES := selenium==4.51.0 pytest==9.0.3 schemathesis==4.32.5 hypothesis==6.155.2 datasette==$(DATASETTE_VERSION) dclient==0.4

.PHONY: run test container-test build deps test-deps bench bench-datasette clean docs docs-from-dependent api-diff

# A debug build by default: the first page comes minutes sooner than with an optimised build (which
# compiles NIO, GRDB and two copies of BoringSSL with whole-module optimisation), and serves the
# examples well; `make run CONFIGURATION=release` for the speed the benchmarks measure.
CONFIGURATION ?= debug

run: deps
	$(SWIFT) build -c $(CONFIGURATION) --product tablepages
	@echo "Anyone may read; to make changes, open the sign-in link (http://…/-/signin?token=…) the server prints below."
	.build/$(CONFIGURATION)/tablepages serve --host $(HOST) --port $(PORT)

build: deps
	$(SWIFT) build

# A line with the time before each step of `make test`, so that a slow run says where its time went.
STEP = @echo "== make test: $(1) at $$(date +%T)"

test: test-deps
	$(call STEP,build)
	@# Fresh builds show every warning; the project allows none (dependencies' are suppressed by SwiftPM).
	$(SWIFT) build --build-tests 2>&1 | tee .build-warnings.log
	@# README's and the guide's examples are packages of their own over this checkout; the build above
	@# compiled their sources (the root package's Bookshelf and ReadingList targets), and
	@# test_example_package.py and test_reading_list_example.py run them. Loading each package graph
	@# checks its manifest: the products it names exist.
	$(SWIFT) package --package-path Examples/Bookshelf show-dependencies > /dev/null
	$(SWIFT) package --package-path Examples/ReadingList show-dependencies > /dev/null
	@if grep -E '^/.*: warning:' .build-warnings.log; then echo "error: the build has warnings"; exit 1; fi
	@# swift-property-based runs a property's body under try?, so plain propertyCheck passes an
	@# example whose code threw: tests call the wrapper that records the error.
	@if grep -rn 'propertyCheck(' Tests --include='*.swift' | grep -v -e propertyCheckFailingOnThrow -e '^Tests/HostileTextSupport/PropertyCheckFailingOnThrow.swift:'; then \
		echo "error: call propertyCheckFailingOnThrow (Tests/HostileTextSupport), not propertyCheck"; exit 1; fi
	$(call STEP,documentation)
	@# Every public declaration of the library modules has a /// summary; the checker is tested too.
	scripts/check-doc-coverage
	$(PYTHON) -m pytest -q Tests/DocCoverage
	$(DOCS)
	$(call STEP,Swift tests)
	@# One test at a time: the in-process servers' handlers share Swift's cooperative pool with the
	@# tests, and CPU-heavy property tests running beside them starve it on a 2-core machine.
	$(SWIFT) test --skip-build --no-parallel
	$(call STEP,end-to-end tests)
	$(PYTHON) -m pytest -q --durations=15 Tests/EndToEnd
	$(call STEP,done)

# The DocC archives of the libraries, combined so that each links to the modules it builds on
# (docc comes with the Swift toolchain; the plugin is a package dependency). Written to
# .build/plugins/Swift-DocC/outputs/. A link DocC cannot resolve fails it: write ``/OtherModule/Symbol``
# for another module's symbol, and `Name` in code voice for an internal one.
DOC_TARGETS := Escaping TableKit MicroHTTP TableStore TableStorePostgres TablePages TablePagesDatabase TablePagesPostgres
DOCS = $(SWIFT) package generate-documentation --enable-experimental-combined-documentation --warnings-as-errors $(DOC_TARGETS:%=--target %)

docs: deps
	$(DOCS)

# README's "The API reference": a package that depends on this checkout builds TablePages' reference
# with the DocC plugin and serves it (in .build/dependent-docs; the first run compiles the dependencies
# again there, later ones only what changed). CI runs it after `make test`.
docs-from-dependent: deps
	scripts/check-docs-from-dependent

# The public API changes since the last release that break a program written against it; CHANGELOG.md's
# "Migrating from" section must show each one with code before and after. It exits non-zero when it
# lists any. The first run builds the release in a scratch folder (15 minutes on a busy 2-core machine)
# and keeps its API in .build/api-baseline; later runs only build this checkout and compare (26 s).
# `make api-diff API_BASELINE=<tag>` compares with another release.
API_BASELINE ?= v0.1.0
api-diff: deps
	$(SWIFT) package diagnose-api-breaking-changes $(API_BASELINE) --baseline-dir .build/api-baseline

# Builds docker/Dockerfile with podman and checks the running image (docker/container-test.sh),
# then runs docker/compose.yaml with it: PostgreSQL, two instances, nginx (docker/compose-test.sh).
container-test:
	docker/container-test.sh
	docker/compose-test.sh

deps:
	@.ci/install-packages $(APT_PACKAGES)

test-deps:
	@.ci/install-packages $(TEST_APT_PACKAGES)
	@$(PYTHON) -c "import selenium, pytest, schemathesis, datasette, dclient; assert datasette.__version__ == '$(DATASETTE_VERSION)'" 2>/dev/null || $(PYTHON) -m pip install -q $(PIP_PACKAGES)
	@# axe-core 4.12 for the accessibility journeys: only its axe.min.js is used, so not its Playwright.
	@$(PYTHON) -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('axe_playwright_python') is None)" \
		|| $(PYTHON) -m pip install -q --no-deps axe-playwright-python==0.1.8

bench: deps
	@.ci/install-packages wrk curl sqlite3
	Benchmarks/http.sh
	$(MAKE) bench-datasette BENCH_SKIP_BUILD=1

# TablePages against Datasette (from PyPI, into a venv) on one 1,000,000-row file; about 3 minutes.
bench-datasette: deps
	@.ci/install-packages wrk curl sqlite3 bc python3-venv
	BENCH_SKIP_BUILD=$(BENCH_SKIP_BUILD) Benchmarks/datasette.sh

clean:
	rm -rf .build .build-warnings.log Examples/Bookshelf/.build Examples/ReadingList/.build
