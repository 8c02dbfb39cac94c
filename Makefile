# devenv's build, tests and benchmarks. `make help` lists the targets.
GO          ?= go
BINDIR      ?= bin
export CGO_CFLAGS ?= -Wno-deprecated-declarations
# ./test/gpu holds the GPU suite's transcript parser: a unit test, no engine needed.
# ./test/testsum summarises go test -json for CI: closing lines, failures, time per package.
UNIT_PKGS    = $(shell $(GO) list ./... | grep -v '/test$$' | grep -v '/test/') ./test/gpu ./test/testsum
# The integration tier builds only the packages that have a TestIntegration* test:
# linking a test binary for each of the others costs a minute on a 2-core machine.
INTEGRATION_PKGS = $(patsubst %/,%,$(sort $(dir $(shell grep -rl --include='*_test.go' --exclude-dir=test --exclude-dir=.git --exclude-dir=bin '^func TestIntegration' .))))
E2E_TIMEOUT ?= 45m
# End-to-end tests run side by side (t.Parallel, each on its own project and ports);
# they mostly wait on the engine, so more of them than cores.
E2E_PARALLEL ?= 4
# go test -json through testsum: what go test prints, then the time of each package and the slowest tests.
SHELL        = /bin/bash
.SHELLFLAGS  = -o pipefail -c
TESTSUM      = $(GO) run ./test/testsum
# -trimpath as make build, mkrelease and the e2e tests' own builds of devenv: the
# packages compiled for the tests are the ones those builds reuse from the cache.
# -ldflags=-w: test binaries without DWARF link in about half the time (1.7 s of
# CPU less for each of some 70 test binaries); stack traces keep names and lines.
TEST_BUILDFLAGS ?= -trimpath -ldflags=-w
# Each tier's go test -json stream is kept here (start and end of every test), for a timeline.
TESTLOG     ?= $(BINDIR)/testlog
BENCH_E2E_TIMES ?= 10
GOLANGCI_LINT_VERSION ?= v2.15.0
GOLANGCI_LINT ?= $(shell $(GO) env GOPATH)/bin/golangci-lint

.PHONY: help compose-cli build demo test unit integration e2e e2e-gpu e2e-k8s lint lint-tools bench bench-unit bench-e2e cross clean release release-tools actionlint

# What `devenv version` reports (internal/buildinfo); a tree with changes says so.
BUILDINFO    = github.com/devenv-dev/devenv/internal/buildinfo
GIT_COMMIT  := $(shell git rev-parse HEAD 2>/dev/null)
GIT_DIRTY   := $(shell test -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo false || echo true)
GIT_VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BUILD_LDFLAGS = -s -w -X $(BUILDINFO).version=$(GIT_VERSION) -X $(BUILDINFO).commit=$(GIT_COMMIT) -X $(BUILDINFO).dirty=$(GIT_DIRTY) \
	-X $(BUILDINFO).buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
# The release's tools (nfpm, cyclonedx-gomod, minisign; actionlint apart), pinned in internal/tools/go.mod.
TOOLS_DIR    = $(BINDIR)/tools
RELEASE_DIR ?= $(BINDIR)/release
RELEASE_TARGETS ?= all

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

# build links into a scratch directory and copies the programs into place:
# the file the external (cgo) linker writes sits in the page cache as large
# folios that the kernel maps 2 MB at a time, which adds about 12 MB to
# every run's RSS (devenv-core --help: 44 MB as linked, 31 MB copied, on
# this project's CI machine); a copy, like a file unpacked from a release
# archive, does not (BENCHMARKS.md, peak memory).
# devenv and devenv-core are built without cgo (a cgo program starts
# slower and maps more, on every command); devenv-nvml, which reads NVML
# for them, with it (internal/gpu, HelperName).
build: ## build bin/devenv, bin/devenv-core and bin/devenv-nvml, installed side by side (no symbol table or DWARF: stack traces keep their function names)
	@mkdir -p $(BINDIR)/.link
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(BUILD_LDFLAGS)" -o $(BINDIR)/.link/ ./cmd/devenv ./cmd/devenv-core
	$(GO) build -trimpath -ldflags "$(BUILD_LDFLAGS)" -o $(BINDIR)/.link/ ./cmd/devenv-nvml
	@for p in devenv devenv-core devenv-nvml; do cp $(BINDIR)/.link/$$p $(BINDIR)/.$$p.new && mv -f $(BINDIR)/.$$p.new $(BINDIR)/$$p || exit 1; done; rm -rf $(BINDIR)/.link

# make demo's project directory (default: devenv-demo/devenv-demo in the user cache directory).
DEMO_DIR ?=
demo: build ## no network, NGC key or GPU needed: start local stand-in mirrors and bring the starter up in a demo project outside this checkout (prints where, and what is a stand-in)
	$(GO) build -trimpath -o $(BINDIR)/devenv-demo ./test/standin/cmd/devenv-demo
	$(BINDIR)/devenv-demo -devenv $(abspath $(BINDIR))/devenv $(if $(DEMO_DIR),-dir $(DEMO_DIR))

# make test runs the end-to-end tier beside the unit and integration tiers: the
# e2e tests mostly wait on the engine, the unit tests on the CPU. It first
# compiles the tree once (go build), so the tiers do not each compile the same
# packages at once from a cold cache. Beside them it prepares what the e2e
# tests wait for: the Debian stand-ins (debootstrap waits on the network and
# the disk) and the release's tools compiled into the build cache.
# The e2e tier's output is kept in $(TESTLOG)/e2e.out and printed when it ends.
test: ## unit and integration tests, with the end-to-end tests against the real Docker engine beside them; each tier runs even when another failed, and the last lines say which failed
	@mkdir -p $(TESTLOG); ( $(GO) run $(TEST_BUILDFLAGS) ./test/standin/cmd/standin-prepare; s=$$?; \
		(cd internal/tools && $(GO) build tool) && (cd internal/tools/actionlint && $(GO) build tool) && exit $$s ) > $(TESTLOG)/prepare.log 2>&1 & prep=$$!; \
	$(GO) build $(TEST_BUILDFLAGS) ./... || echo "make test: go build ./... failed (above); the tiers run anyway and say what they cannot build"; \
	$(MAKE) --no-print-directory e2e > $(TESTLOG)/e2e.out 2>&1 & e2e=$$!; \
	echo "make test: the e2e tier runs beside the unit and integration tiers; its output follows when it ends ($(TESTLOG)/e2e.out)"; \
	failed=; for tier in unit integration; do $(MAKE) --no-print-directory $$tier || failed="$$failed $$tier"; done; \
	wait $$e2e || failed="$$failed e2e"; echo "== the e2e tier:"; cat $(TESTLOG)/e2e.out; \
	wait $$prep || { echo "make test: preparing the e2e tier beside the unit tests failed (the e2e tests did it again or said why):"; cat $(TESTLOG)/prepare.log; }; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed (each tier's own summary is above)"; exit 1; fi; echo "make test: unit, integration and e2e passed"

unit: ## unit tests: no Docker engine, no cross builds (-short skips TestIntegration*)
	mkdir -p $(TESTLOG)
	$(GO) test $(TEST_BUILDFLAGS) -short -count=1 -json $(UNIT_PKGS) | tee $(TESTLOG)/unit.json | $(TESTSUM)

integration: ## the packages' TestIntegration* tests against the real Docker engine
	mkdir -p $(TESTLOG)
	$(GO) test $(TEST_BUILDFLAGS) -count=1 -json -run '^TestIntegration' $(INTEGRATION_PKGS) | tee $(TESTLOG)/integration.json | $(TESTSUM)

# The e2e tests compare devenv with the Compose CLI of the SDK devenv links:
# DEVENV_TEST_COMPOSE when set, else bin/docker-compose, built here (make
# compose-cli, about a minute) when it is missing or of another version. A
# machine's own docker-compose may be v1, which most comparisons cannot use.
E2E_COMPOSE = $(or $(DEVENV_TEST_COMPOSE),$(abspath $(BINDIR))/docker-compose)

e2e: ## end-to-end tests: the built binary against the real Docker engine (and the Compose CLI of the pinned SDK, built into bin/ unless DEVENV_TEST_COMPOSE names one)
	mkdir -p $(TESTLOG)
	@if [ -z "$(DEVENV_TEST_COMPOSE)" ] && [ "$$($(BINDIR)/docker-compose version --short 2>/dev/null)" != "$(COMPOSE_VERSION:v%=%)" ]; then \
		echo "make e2e: building the Compose CLI $(COMPOSE_VERSION) that the comparisons run (bin/docker-compose)"; $(MAKE) --no-print-directory compose-cli; fi
	DEVENV_TEST_COMPOSE=$(E2E_COMPOSE) $(GO) test $(TEST_BUILDFLAGS) -count=1 -json -timeout $(E2E_TIMEOUT) -parallel $(E2E_PARALLEL) ./test/... | tee $(TESTLOG)/e2e.json | $(TESTSUM)

e2e-gpu: ## GPU suite on a machine with an NVIDIA driver: real engine, real GPUs (skips, saying why, elsewhere)
	$(GO) test -count=1 ./test/gpu/
	test/gpu/run.sh

# The Kubernetes rig (test/k8s): kube-apiserver and kubectl of one pinned release in one
# binary, and etcd, built from internal/tools/k8s (modules of their own, not devenv's go.mod)
# into the test cache once per pinned version. A cold build takes about 20 minutes on 2
# cores, so make test leaves it out.
K8S_E2E_TIMEOUT ?= 60m

e2e-k8s: ## the exports against a real kube-apiserver with the Spark Operator's CRD (test/k8s; not in make test: its cold build takes about 20 min)
	$(GO) test $(TEST_BUILDFLAGS) -tags k8s -count=1 -v -timeout $(K8S_E2E_TIMEOUT) -run '^TestK8s' ./test/

lint: ## gofmt, go vet and golangci-lint (.golangci.yml; make lint-tools installs the pinned version)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@$(GOLANGCI_LINT) version 2>/dev/null | grep -q 'version $(GOLANGCI_LINT_VERSION:v%=%) ' || \
		{ echo "golangci-lint $(GOLANGCI_LINT_VERSION) is not at $(GOLANGCI_LINT): run make lint-tools"; exit 1; }
	$(GOLANGCI_LINT) run --allow-serial-runners ./...

lint-tools: ## install the pinned golangci-lint with go install (needs only the Go module proxy)
	$(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)

bench: bench-unit bench-e2e ## every benchmark (figures go into BENCHMARKS.md)

bench-unit: ## Go benchmarks of the packages (no Docker needed)
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(UNIT_PKGS)

bench-e2e: build ## whole processes: devenv vs Docker Compose (no-op up, ps, down, up from nothing), build with nothing changed, rebuilds with real-size artifacts against their floors
	@command -v /usr/bin/time >/dev/null || { echo "bench-e2e needs GNU time: apt-get install time"; exit 1; }
	$(GO) test -run '^$$' -bench 'UpVsCompose|BuildNoChange' -benchtime $(BENCH_E2E_TIMES)x -timeout 40m ./test/
	$(GO) test -v -run '^$$' -bench 'RebuildRealSizes' -benchtime 1x -timeout 40m ./test/

CROSS_TARGETS = linux/arm64 darwin/arm64 windows/amd64 linux/amd64

COMPOSE_VERSION = $(shell $(GO) list -m -f '{{.Version}}' github.com/docker/compose/v5)

compose-cli: ## build the Compose CLI of the pinned SDK as bin/docker-compose (e2e tests use it with DEVENV_TEST_COMPOSE=bin/docker-compose)
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	printf 'module composecli\n\ngo 1.26\n\nrequire github.com/docker/compose/v5 $(COMPOSE_VERSION)\n' > $$tmp/go.mod; \
	printf '//go:build tools\npackage tools\n\nimport _ "github.com/docker/compose/v5/cmd"\n' > $$tmp/tools.go; \
	out=$$(pwd)/$(BINDIR)/docker-compose; cd $$tmp && $(GO) mod tidy && \
	$(GO) build -trimpath -ldflags "-X github.com/docker/compose/v5/internal.Version=$(COMPOSE_VERSION)" -o $$out github.com/docker/compose/v5/cmd

cross: ## check devenv builds, and vets, without cgo for linux/arm64, darwin, windows (slow: CI and before a release)
	@set -e; for t in $(CROSS_TARGETS); do \
		echo "== $$t (CGO_ENABLED=0)"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/devenv; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/devenv-core; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/devenv-nvml; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet ./internal/gpu/... ./internal/jobs ./internal/filelock ./envs/reconcile ./compose; \
	done

release-tools: ## build the release's pinned tools into bin/tools (internal/tools/go.mod and internal/tools/actionlint/go.mod)
	cd internal/tools && $(GO) build -o $(abspath $(TOOLS_DIR))/ tool
	cd internal/tools/actionlint && $(GO) build -o $(abspath $(TOOLS_DIR))/ tool

release: release-tools ## snapshot release into bin/release: archives, .deb/.rpm, checksums.txt, SBOMs, minisign signatures, Homebrew formula, Scoop manifest (RELEASE_TARGETS=linux/amd64 for one)
	$(GO) run ./internal/release/mkrelease -out $(RELEASE_DIR) -tools $(TOOLS_DIR) -targets $(RELEASE_TARGETS)
	cd $(RELEASE_DIR) && sha256sum -c --quiet checksums.txt && $(abspath $(TOOLS_DIR))/minisign -Vm checksums.txt -p minisign.pub

actionlint: release-tools ## lint the GitHub Actions workflows with the pinned actionlint
	$(TOOLS_DIR)/actionlint .github/workflows/*.yml

clean: ## remove build outputs
	rm -rf bin
