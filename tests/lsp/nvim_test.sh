#!/bin/sh
# Neovim's built-in LSP client against `boxlint lsp` (tests/lsp/nvim_test.lua), headless.
# usage: nvim_test.sh BOXLINT SOURCE_DIR    exit 77 (skipped, said loudly) without nvim.
set -u
bin=$1 src=$2
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIPPED: nvim is not installed (make deps installs Debian's neovim); the Neovim client test did not run"
  exit 77
fi
nvim --version | head -n 1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
BOXLINT=$bin DIR=$dir timeout 300 nvim --headless -u NONE -i NONE -n \
  -c "luafile $src/tests/lsp/nvim_test.lua" </dev/null
