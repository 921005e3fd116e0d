# jigbench — `make run` opens the app on its demo data; `make test` runs the tests.
# Every target first installs what a fresh Debian/Ubuntu machine lacks (.ci/deps).

GO      ?= go
TAGS    := migrated_fynedo
# Fyne reads the locale from LANG; "C" makes it log an error at start.
export LANG := en_US.UTF-8
export PATH := $(PATH):/usr/local/go/bin
FUZZTIME ?= 5s

.PHONY: run build test bench vet fuzz smoke deps deps-test clean

run: deps
	$(GO) run -tags $(TAGS) .

build: deps
	$(GO) build -tags $(TAGS) -trimpath -o jigbench .

test: deps-test vet
	$(GO) test -race -tags $(TAGS) ./...
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory smoke

vet:
	$(GO) vet -tags $(TAGS) ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# A few seconds of coverage-guided fuzzing for every parser of outside input.
fuzz:
	@for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$(grep -rl --include='*_test.go' '^func Fuzz' .) | sed 's/func //'); do \
	  pkg=$$(dirname $$(grep -rl --include='*_test.go' "^func $$t(" . | head -1)); \
	  echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
	  $(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s $$pkg >/dev/null || { \
	    $(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; exit 1; }; \
	done

# Starts the real binary in a real window under Xvfb (skipped without Xvfb).
smoke:
	@if command -v Xvfb >/dev/null 2>&1 && command -v xwd >/dev/null 2>&1; then \
	  JIGBENCH_SMOKE=1 $(GO) test -tags $(TAGS) -run '^TestSmokeRealWindow$$' -count=1 ./app/; \
	else echo "smoke: Xvfb or xwd not installed; skipped"; fi

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 5x ./core/...
	$(GO) run -tags $(TAGS) . bench

deps:
	@sh .ci/deps

deps-test:
	@sh .ci/deps test

clean:
	rm -f jigbench
