# Thin wrapper around CMake (as cmark does). The real build is CMakeLists.txt.
#   make run    install what is missing, build, lint the bundled example template
#   make test   install what is missing, build with ASan+UBSan, run every test through ctest
#   make build  release build only          make clean   remove build trees
SHELL := /bin/bash
BUILD_DIR ?= build/release
TEST_DIR  ?= build/test
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# -Werror in CI (CI=true), plain warnings at a desk.
WERROR    := $(if $(filter true 1 yes,$(CI)),ON,OFF)

# Debian packages the build and the tests need.
DEB_PACKAGES := build-essential cmake pkg-config re2c libpcre2-dev check libjansson-dev \
                clang libclang-rt-dev python3

.PHONY: all run test build deps clean

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "boxlint: installing missing packages:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DBOXLINT_WERROR=$(WERROR)
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@echo "== boxlint examples/template.json"
	-$(BUILD_DIR)/cli/boxlint examples/template.json
	@echo "== boxlint examples/bad-template.json (exit code 1 expected)"
	-$(BUILD_DIR)/cli/boxlint examples/bad-template.json

test: deps
	cmake -S . -B $(TEST_DIR) -DCMAKE_BUILD_TYPE=Debug -DBOXLINT_SANITIZER=address,undefined \
	      -DBOXLINT_WERROR=$(WERROR)
	cmake --build $(TEST_DIR) -j $(JOBS)
	cd $(TEST_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 CK_FORK=no \
	  ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf build
