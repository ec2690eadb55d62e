# The README's two commands, and the rest of the developer loop.
#   make run    bootstrap, configure, build (Release), open the GUI
#   make test   bootstrap, configure, build (Debug, address + undefined sanitizers), run every test
#               beside a neighbour (a demo with a deployment, a server on 127.0.0.1:30000);
#               a skipped test fails
.DEFAULT_GOAL := help
SHELL := /bin/bash

# CI turns warnings into errors; locally they stay warnings unless you ask.
export FLASHDECK_WERROR ?= $(if $(CI),ON,OFF)
# ccache hashes paths relative to the checkout, so a fresh clone (as CI makes) reuses the cache.
export CCACHE_BASEDIR ?= $(CURDIR)

# resources/translations/data-texts.h is generated (scripts/data-texts.cmake) and read by lupdate only.
SOURCES = $(filter-out resources/translations/%,$(shell git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' 2>/dev/null || find app backend ui tests -name '*.cpp' -o -name '*.h'))

.PHONY: help bootstrap run test test-asan bench soak fuzz package package-check format format-check screenshots build-% clean

help:
	@echo "make run          build (Release) and open Flashdeck"
	@echo "make test         build (Debug, address + undefined sanitizers) and run the whole test suite"
	@echo "make test-asan    the same as make test (one instrumented build runs every test)"
	@echo "make fuzz         every libFuzzer target for FUZZ_SECONDS (60) each, from its seeds"
	@echo "make package      build the Debian package into build/package/package/"
	@echo "make package-check  build it, validate it, install it, run it, remove it (root or sudo)"
	@echo "make screenshots  save a PNG of every page to docs/screenshots/"
	@echo "make format       apply .clang-format;  make format-check  verify it"

bootstrap:
	@scripts/bootstrap

build-%: bootstrap
	@cmake --preset $* >/dev/null
	@cmake --build --preset $*

run: bootstrap
	@cmake --preset release >/dev/null
	@cmake --build --preset release --target flashdeck
	build/release/bin/flashdeck --demo $(ARGS)

# One instrumented configuration runs every test once (the dev preset: Debug + ASan + UBSan),
# next to a demo with a deployment and a listener on 127.0.0.1:30000 (tests/support/neighbours):
# the suite must not care what else runs on the machine.
test: build-dev
	@tests/support/neighbours build/dev scripts/run-tests dev

test-asan: test

bench: bootstrap
	@cmake --preset release >/dev/null
	@cmake --build --preset release --target bench_ssh bench_metrics bench_logs bench_logtriage bench_startlog bench_logstream bench_chat bench_fleet bench_promfleet bench_startup flashdeck_simhost
	@build/release/tests/bench/bench_ssh
	@build/release/tests/bench/bench_metrics
	@build/release/tests/bench/bench_logs
	@build/release/tests/bench/bench_logtriage
	@build/release/tests/bench/bench_startlog
	@build/release/tests/bench/bench_logstream
	@build/release/tests/bench/bench_chat
	@build/release/tests/bench/bench_fleet
	@build/release/tests/bench/bench_promfleet
	@build/release/tests/bench/bench_startup

# Issue 9's load run: 20 chats + log follow + live metrics on one simulated host, RSS sampled.
SOAK_SECONDS ?= 600
soak: bootstrap
	@cmake --preset release >/dev/null
	@cmake --build --preset release --target flashdeck flashdeck_simhost
	@SOAK_SECONDS=$(SOAK_SECONDS) tests/bench/soak build/release

FUZZ_SECONDS ?= 60
fuzz: bootstrap
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz --target flashdeck_fuzzers
	@scripts/fuzz $(FUZZ_SECONDS)

package: bootstrap
	@cmake --preset package >/dev/null
	@cmake --build --preset package
	@cd build/package && cpack --config CPackConfig.cmake >/dev/null
	@ls build/package/package/*.deb

package-check: package
	@scripts/package-check build/package/package/flashdeck_*.deb

# The pictures only: leaks are make test's to find (it runs these tests with LeakSanitizer on). In
# the screenshot path Qt Charts 6.4 leaves its chart titles' text documents behind (ChartTitle::
# setGeometry, seen on every run), which would stop the target before its last picture.
SHOT_ENV = QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 FLASHDECK_SCREENSHOT_DIR=$(CURDIR)/docs/screenshots

screenshots: build-dev
	@mkdir -p docs/screenshots
	$(SHOT_ENV) build/dev/tests/ui/tst_mainwindow everyPage_opensAndIsCaptured >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_sshdialogs >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_fleetpage >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_logspage >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_deploypage >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_exposepanel >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_playgroundpage >/dev/null
	$(SHOT_ENV) build/dev/tests/ui/tst_translation chinese_everyPageFits_andIsCaptured >/dev/null
	@ls docs/screenshots/*.png docs/screenshots/zh_CN/*.png

format:
	@clang-format -i $(SOURCES)

format-check:
	@scripts/bootstrap
	@clang-format --dry-run --Werror $(SOURCES) && echo "format-check: ok"

clean:
	rm -rf build
