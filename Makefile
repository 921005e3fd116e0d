# jigbench — `make run` opens the app on its demo data; `make test` runs the tests.
# Every target first installs what a fresh Debian/Ubuntu machine lacks (.ci/deps).

GO      ?= go
TAGS    := migrated_fynedo
# Fyne reads the locale from LANG; "C" makes it log an error at start.
export LANG := en_US.UTF-8
export PATH := $(PATH):/usr/local/go/bin
FUZZTIME ?= 5s

.PHONY: run build test bench vet fuzz smoke store-postgres deps deps-test clean package package-windows package-darwin

# Packaging runs the fyne tool at a pinned version through `go run` (nothing is
# installed). It builds in the folder it packages, drops generated files there and
# bumps Build in that folder's FyneApp.toml, so it works on a copy of the sources in
# a temporary folder and only the result lands in dist/.
FYNE_TOOL := fyne.io/tools/cmd/fyne@v1.7.4
VERSION   := $(shell sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
STAGE_SOURCES = tar --exclude=./.git --exclude=./dist --exclude='*.test' --exclude=./jigbench \
	  --exclude=./jigbench.exe -cf - . | tar -C "$$stage" -xf -

run: deps
	$(GO) run -tags $(TAGS) .

build: deps
	$(GO) build -tags $(TAGS) -trimpath -o jigbench .

test: deps-test vet
	$(GO) test -race -timeout 40m -tags $(TAGS) -skip '^TestPostgres' ./...
	# The race detector slows the solver and the scene painters about tenfold, so under it
	# their heaviest tests shrink or skip (raceEnabled); here they run whole, without it.
	$(GO) test -timeout 20m -tags $(TAGS) -count=1 ./core/solve ./core/render/demo
	$(MAKE) --no-print-directory store-postgres
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory smoke

vet:
	$(GO) vet -tags $(TAGS) ./...
	# core/ is pure Go and the app is packaged for Windows and macOS too: it and its
	# tests must build there (the GUI needs those systems' cgo toolchains; core does not).
	GOOS=windows $(GO) vet ./core/...
	GOOS=darwin $(GO) vet ./core/...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# A few seconds of coverage-guided fuzzing for every parser of outside input.
# A failing input is saved under <package>/testdata/fuzz/<target>, and fails
# this run and every later one; the log's head (the panic's message, without
# the progress lines) and its tail (where the input went) are printed. Go
# 1.26's fuzzing coordinator can also stop a run that found nothing with
# "context deadline exceeded" right at -fuzztime (a race of its own deadline
# against the workers, go.dev/issue/75804, fixed in Go 1.27): a failure that
# wrote no input and says just that is reported as such and does not fail
# the build.
fuzz:
	@log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$(grep -rl --include='*_test.go' '^func Fuzz' .) | sed 's/func //'); do \
	  pkg=$$(dirname $$(grep -rl --include='*_test.go' "^func $$t(" . | head -1)); \
	  corpus="$$pkg/testdata/fuzz/$$t"; before=$$(ls "$$corpus" 2>/dev/null | wc -l); \
	  echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
	  $(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s $$pkg >"$$log" 2>&1 || { \
	    if [ "$$(ls "$$corpus" 2>/dev/null | wc -l)" = "$$before" ] && grep -q 'context deadline exceeded' "$$log"; then \
	      echo "fuzz $$pkg $$t: stopped by the Go fuzzing deadline race (go.dev/issue/75804); no failing input was found"; \
	    else grep -v '^fuzz: elapsed' "$$log" | head -n 40; echo "[…]"; tail -n 8 "$$log"; exit 1; fi; }; \
	done

# The ratings store against a real PostgreSQL: the tests start a throwaway
# server from Debian's packages (initdb in a temporary folder, 127.0.0.1
# only, stopped at the end; skipped, saying why, without them). Verbose, so
# the log shows the server's start lines. The store suite's other tests run
# on it too, as the "postgres" half of each, in the run above.
store-postgres:
	$(GO) test -race -tags $(TAGS) -count=1 -v -run '^TestPostgres' ./core/vigor/
	$(GO) test -race -tags $(TAGS) -count=1 -v -run '^TestRatePostgres' ./ui/

# Starts the real binary in a real window under Xvfb (skipped without Xvfb).
smoke:
# TestRateRealWindow rates a split by keyboard (xdotool) and checks the database.
	@if command -v Xvfb >/dev/null 2>&1 && command -v xwd >/dev/null 2>&1; then \
	  command -v xdotool >/dev/null 2>&1 || echo "smoke: xdotool not installed; the real-window Rate test is skipped"; \
	  JIGBENCH_SMOKE=1 $(GO) test -tags $(TAGS) -run '^(TestSmokeRealWindow|TestRateRealWindow)$$' -count=1 ./app/; \
	else echo "smoke: Xvfb or xwd not installed; skipped"; fi

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 5x ./core/...
	$(GO) run -tags $(TAGS) . bench

# The Linux archive: usr/local/bin/jigbench, the icon, the desktop entry and an
# install Makefile, built with -tags release,migrated_fynedo (the fyne tool adds
# migrated_fynedo because FyneApp.toml sets [Migrations] fyneDo = true).
package:
	@sh .ci/deps package
	@set -e; stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; $(STAGE_SOURCES); \
	  arch=$$($(GO) env GOARCH); out=dist/jigbench-$(VERSION)-linux-$$arch.tar.xz; \
	  echo "fyne package -os linux (in $$stage)"; \
	  (cd "$$stage" && $(GO) run $(FYNE_TOOL) package -os linux --release); \
	  mkdir -p dist; mv "$$stage/jigbench.tar.xz" "$$out"; echo "$$out"

# A Windows build cross-compiled with mingw-w64 (icon and manifest embedded in the .exe).
# `go run -exec env …` hands the cross-compiler to the fyne tool only, not to the
# build of the tool itself.
package-windows:
	@if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 && ! sh .ci/deps windows; then \
	  echo "package-windows: skipped: the mingw-w64 C cross-compiler (x86_64-w64-mingw32-gcc) is not installed and could not be installed here; on Debian/Ubuntu: apt-get install gcc-mingw-w64-x86-64"; \
	  exit 0; fi; \
	set -e; sh .ci/deps; stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; $(STAGE_SOURCES); \
	  out=dist/jigbench-$(VERSION)-windows-amd64.exe; echo "fyne package -os windows (in $$stage)"; \
	  (cd "$$stage" && $(GO) run -exec 'env GOARCH=amd64 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++' \
	    $(FYNE_TOOL) package -os windows --release); \
	  mkdir -p dist; mv "$$stage/jigbench.exe" "$$out"; echo "$$out"

# On a Mac (Xcode command line tools + Go): dist/jigbench.app. Cannot be built elsewhere.
package-darwin:
	@test "$$(uname -s)" = Darwin || { echo "package-darwin: run this on a Mac (see README, Packaging)"; exit 1; }
	@set -e; stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; $(STAGE_SOURCES); \
	  (cd "$$stage" && $(GO) run $(FYNE_TOOL) package -os darwin --release); \
	  mkdir -p dist; rm -rf dist/jigbench.app; mv "$$stage/jigbench.app" dist/; echo dist/jigbench.app

deps:
	@sh .ci/deps

deps-test:
	@sh .ci/deps test

clean:
	rm -f jigbench
	rm -rf dist
