# Thin wrapper around CMake (as cmark does). The real build is CMakeLists.txt.
#   make run    install what is missing, build, lint the bundled example template, say where
#               the built command is
#   make test   install what is missing, build with ASan+UBSan, run every test through ctest
#   make install   the release build installed under PREFIX (default /usr/local): boxlint in
#               PREFIX/bin, the library, headers, pkg-config and CMake files, the man page
#   make playground  the playground page (playground/) with boxlint.wasm, in
#               $(BUILD_DIR)/playground/, to be served by any static file server
#   make build  release build only          make clean   remove build trees
#   make fuzz   build the libFuzzer targets (clang) and run each for FUZZ_SECONDS
#   make coverage  tests + corpus replay with gcc --coverage; line and branch coverage of lib/
SHELL := /bin/bash
BUILD_DIR ?= build/release
PREFIX    ?= /usr/local
TEST_DIR  ?= build/test
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# -Werror in CI (CI=true), plain warnings at a desk.
WERROR    := $(if $(filter true 1 yes,$(CI)),ON,OFF)

# Debian packages the build and the tests need (node and npm, for the Node.js bindings' tests,
# are checked as commands: they may come from another repository than Debian's).
DEB_PACKAGES := build-essential cmake pkg-config re2c libpcre2-dev check libjansson-dev libidn2-dev \
                clang libclang-rt-dev python3 python3-jsonschema git libunistring-dev pre-commit \
                neovim dpkg-dev lintian man-db python3-pip python3-venv python3-setuptools \
                python3-wheel python3-mypy unzip iproute2 nftables dnsmasq-base nginx \
                libnginx-mod-stream curl openssl debootstrap strace \
                lld wasi-libc libclang-rt-14-dev-wasm32 chromium

# Fuzzing (fuzz/, corpus/): new inputs go to FUZZ_WORK, never into the repository's corpus.
FUZZ_DIR     ?= build/fuzz
FUZZ_WORK    ?= $(FUZZ_DIR)/work
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= commands fragment base policy_compile policy_decide config template python python_cached
FUZZ_FLAGS   ?= -rss_limit_mb=2048 -timeout=25 -max_len=8192 -print_final_stats=1
COV_DIR      ?= build/cov
MINROOT_DIR  ?= build/minroot
# Debian's pcre2 and jansson sources, fetched and unpacked by the set-up for the WebAssembly build
# (tools/wasm-sources.sh; cmake/wasm.cmake's BOXLINT_WASM_SOURCES is this directory by default).
WASM_SOURCES ?= build/wasm-sources

.PHONY: all run test build deps clean bench peers fuzz coverage package install playground

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "boxlint: installing missing packages:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@# Microsoft's SARIF validator (npm), run by the tests on every SARIF log they produce.
	@if [ ! -x tests/data/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ] && \
	    command -v npm >/dev/null 2>&1; then \
	  echo "boxlint: installing Microsoft's SARIF Multitool (npm ci --prefix tests/data/sarif)"; \
	  npm ci --prefix tests/data/sarif --no-audit --no-fund >/dev/null || \
	    echo "boxlint: the SARIF Multitool did not install; its checks will say skipped"; \
	fi
	@# Debian's sources of pcre2 and jansson for the WebAssembly build (never fails: without them
	@# that build leaves out user rules, the secret patterns and the command, and says so).
	@tools/wasm-sources.sh $(WASM_SOURCES)
	@# vscode-jsonrpc, the client library of VS Code's extensions, for the boxlint lsp test.
	@if [ ! -d tests/lsp/node_modules/vscode-languageserver-protocol ] && command -v npm >/dev/null 2>&1; then \
	  echo "boxlint: installing vscode-jsonrpc (npm ci --prefix tests/lsp)"; \
	  npm ci --prefix tests/lsp --no-audit --no-fund >/dev/null || \
	    echo "boxlint: vscode-jsonrpc did not install; the lsp_vscode test will say skipped"; \
	fi
	@# Pyodide (CPython 3.14 in Node, offline), the 3.14 oracle of the python_versions test.
	@if [ ! -d tests/oracle/node_modules/pyodide ] && command -v npm >/dev/null 2>&1; then \
	  echo "boxlint: installing pyodide (npm ci --prefix tests/oracle)"; \
	  npm ci --prefix tests/oracle --no-audit --no-fund >/dev/null || \
	    echo "boxlint: pyodide did not install; python_versions will say 3.14 skipped"; \
	fi
	@# puppeteer-core, which drives Debian's chromium headless for the playground test.
	@if [ ! -d tests/playground/node_modules/puppeteer-core ] && command -v npm >/dev/null 2>&1; then \
	  echo "boxlint: installing puppeteer-core (npm ci --prefix tests/playground)"; \
	  npm ci --prefix tests/playground --no-audit --no-fund >/dev/null || \
	    echo "boxlint: puppeteer-core did not install; the playground test will say skipped"; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DBOXLINT_WERROR=$(WERROR)
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The playground (docs/playground.md): the static page and boxlint.wasm in $(BUILD_DIR)/playground/
# (cmake/playground.cmake; BOXLINT_WASM=ON: configure stops when the WebAssembly build's
# packages are missing).
playground: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DBOXLINT_WERROR=$(WERROR) -DBOXLINT_WASM=ON
	cmake --build $(BUILD_DIR) -j $(JOBS) --target playground
	@echo "== the playground is in $(abspath $(BUILD_DIR))/playground/; serve it with any static file server:"
	@echo "   python3 -m http.server 8000 --bind 127.0.0.1 --directory $(BUILD_DIR)/playground"
	@echo "   then open http://127.0.0.1:8000/"

# Debian packages (cmake/package.cmake): boxlint, libboxlint0, libboxlint-dev in $(PKG_DIR); then
# the Python wheel and the npm tarball, self-contained (BOXLINT_STATIC_DEPS), beside them; then
# the playground's static site as boxlint-playground-VERSION.tar.gz (cmake/playground.cmake).
PKG_DIR ?= build/package
package: deps
	cmake -S . -B $(PKG_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	      -DBOXLINT_DEB_DOCS=ON -DBOXLINT_BUILD_TESTS=OFF -DBOXLINT_BUILD_BENCH=OFF \
	      -DBOXLINT_WERROR=$(WERROR) -DBOXLINT_WASM=ON \
	      "-DCMAKE_C_FLAGS=$$(dpkg-buildflags --get CFLAGS) $$(dpkg-buildflags --get CPPFLAGS)" \
	      "-DCMAKE_EXE_LINKER_FLAGS=$$(dpkg-buildflags --get LDFLAGS)" \
	      "-DCMAKE_SHARED_LINKER_FLAGS=$$(dpkg-buildflags --get LDFLAGS)"
	cmake --build $(PKG_DIR) -j $(JOBS)
	cd $(PKG_DIR) && cpack -G DEB
	@# The wheel and the npm package beside the .deb files: each builds the self-contained library
	@# and command (BOXLINT_STATIC_DEPS) in a CMake tree of its own under $(PKG_DIR).
	rm -f $(PKG_DIR)/boxlint-*.whl $(PKG_DIR)/boxlint-*.tgz
	BOXLINT_WHEEL_BUILD_DIR=$(abspath $(PKG_DIR))/wheel-cmake /usr/bin/python3 -m pip wheel \
	  --no-build-isolation --no-deps --no-index -q -w $(PKG_DIR) ./bindings/python
	cd bindings/node && BOXLINT_NPM_BUILD_DIR=$(abspath $(PKG_DIR))/npm-cmake \
	  npm pack --pack-destination $(abspath $(PKG_DIR))
	rm -f $(PKG_DIR)/boxlint-playground-*.tar.gz
	cmake --build $(PKG_DIR) -j $(JOBS) --target playground
	@ls -l $(PKG_DIR)/*.deb $(PKG_DIR)/boxlint-*.whl $(PKG_DIR)/boxlint-*.tgz $(PKG_DIR)/boxlint-playground-*.tar.gz

run: build
	@echo "== boxlint examples/template.json"
	@$(BUILD_DIR)/cli/boxlint examples/template.json; echo "exit code $$? (0: the template is accepted)"
	@echo "== boxlint examples/bad-template.json"
	@$(BUILD_DIR)/cli/boxlint examples/bad-template.json; echo "exit code $$? (1: findings)"
	@echo "== boxlint examples/quickstart.py (the platform's Quick Start, as SDK calls)"
	@$(BUILD_DIR)/cli/boxlint examples/quickstart.py; echo "exit code $$? (0: warnings only)"
	@echo "== the command is built at $(abspath $(BUILD_DIR))/cli/boxlint"
	@echo "   make install puts it on PATH: $(PREFIX)/bin/boxlint (make install PREFIX=DIR for another)"

# The release build installed under PREFIX (cmake --install: every component).
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)
	@echo "== installed $(PREFIX)/bin/boxlint"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "   $(PREFIX)/bin is not on PATH: add it (export PATH=\"$(PREFIX)/bin:\$$PATH\")";; esac

# The minroot test's Debian root is downloaded here, in the set-up, never by a test.
test: deps package
	tools/minroot.sh $(MINROOT_DIR)
	cmake -S . -B $(TEST_DIR) -DCMAKE_BUILD_TYPE=Debug -DBOXLINT_SANITIZER=address,undefined \
	      -DBOXLINT_WERROR=$(WERROR) -DBOXLINT_PACKAGE_DIR=$(abspath $(PKG_DIR)) \
	      -DBOXLINT_MINROOT_DIR=$(abspath $(MINROOT_DIR))
	cmake --build $(TEST_DIR) -j $(JOBS)
	cd $(TEST_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 CK_FORK=no \
	  ctest --output-on-failure -j $(JOBS)

fuzz: deps
	cmake -S . -B $(FUZZ_DIR) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	      -DBOXLINT_BUILD_FUZZERS=ON -DBOXLINT_BUILD_TESTS=OFF -DBOXLINT_BUILD_CLI=OFF \
	      -DBOXLINT_BUILD_BENCH=OFF -DBOXLINT_INSTALL=OFF \
	      -DBOXLINT_SANITIZER=address,undefined -DBOXLINT_WERROR=$(WERROR)
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_WORK)/$$t $(FUZZ_WORK)/artifacts; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS)s"; \
	  $(FUZZ_DIR)/fuzz/$${t}_fuzzer $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	    -dict=fuzz/$$t.dict -artifact_prefix=$(FUZZ_WORK)/artifacts/$$t- \
	    $(FUZZ_WORK)/$$t corpus/$$t; \
	done

# Tests and corpus replay built with gcc --coverage; gcovr (Debian) reports lib/. The lexer's
# re2c actions count as lib/src/dockerfile_lexer.re (#line), its generated automaton as
# $(COV_DIR)/lib/dockerfile_lexer.c, reported on its own.
coverage: deps
	@dpkg-query -W -f='$${Status}' gcovr 2>/dev/null | grep -q 'install ok installed' || { \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends gcovr; }
	cmake -S . -B $(COV_DIR) -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug \
	      -DCMAKE_C_FLAGS="--coverage -O0" -DCMAKE_EXE_LINKER_FLAGS=--coverage \
	      -DCMAKE_SHARED_LINKER_FLAGS=--coverage -DBOXLINT_BUILD_BENCH=OFF -DBOXLINT_WERROR=$(WERROR)
	cmake --build $(COV_DIR) -j $(JOBS)
	find $(COV_DIR) -name '*.gcda' -delete
	# install_consumers links the installed static library without --coverage: not here.
	cd $(COV_DIR) && CK_FORK=no ctest --output-on-failure -j $(JOBS) -E '^install_consumers$$'
	gcovr -r . $(COV_DIR) --exclude-unreachable-branches --json $(COV_DIR)/coverage.json
	@echo "== coverage of the hand-written library (lib/): lines"
	@gcovr -a $(COV_DIR)/coverage.json --filter lib/ --txt
	@echo "== coverage of the hand-written library (lib/): branches"
	@gcovr -a $(COV_DIR)/coverage.json --filter lib/ --txt --branches
	@echo "== summary, hand-written library (lib/src, lib/include)"
	@gcovr -a $(COV_DIR)/coverage.json --filter lib/ --print-summary --txt $(COV_DIR)/coverage-summary.txt
	@echo "== summary, generated lexer ($(COV_DIR)/lib/dockerfile_lexer.c)"
	@gcovr -a $(COV_DIR)/coverage.json --filter '$(COV_DIR)/lib/' --print-summary --txt $(COV_DIR)/coverage-summary.txt

# Benchmarks (not tests): boxlint against a ceiling in the same run, then against the peers.
bench: build
	@for p in hyperfine time; do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
	  grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing || true; fi
	$(BUILD_DIR)/bench/bench_check
	$(BUILD_DIR)/bench/bench_policy
	bench/cli.sh $(BUILD_DIR)
	python3 bench/python_scale.py $(BUILD_DIR)/cli/boxlint
	python3 bench/python_stdlib.py $(BUILD_DIR)/bench/bench_python $(if $(BENCH_BEFORE),--before $(BENCH_BEFORE))
	python3 bench/scale.py $(BUILD_DIR)/cli/boxlint
	python3 bench/lsp_edit.py $(BUILD_DIR)/cli/boxlint
	python3 bench/jobs.py $(BUILD_DIR)/cli/boxlint

peers: build
	bench/peers/run.sh $(BUILD_DIR)

clean:
	rm -rf build
