#!/usr/bin/env python3
"""The layout holds (ARCHITECTURE.md): calls between the folders of lib/src go one way, so do the
calls between the folders of cli/, and no room is too big to know at a glance.

1. Calls: for every object file of the library in the build tree, `nm` gives the symbols it
   defines and the ones it uses; a use of a symbol that another folder defines is an edge from
   this folder to that one. The edges must be among those ARCHITECTURE.md allows (ALLOWED below,
   lower layers never call upward), which also means they form no circle; a circle is named.
   The command (cli/) the same way, with its own table (CLI_ALLOWED): the edges between its
   folders, and between its files (no circle between two files either); a folder includes of
   another only that folder's one header (<folder>/<folder>.h, its whole interface) and of cli/
   only cli.h (walk/ not even that); and cli/ uses only the library's public API (every
   library symbol it uses is a boxlint_* one declared in lib/include/boxlint/, every library
   header it includes is "boxlint/...").
2. Sizes: no hand-written C file of lib/src or cli/ is over 800 lines, and no function in them is
   over 80 lines (a function: a definition that starts in column 0 and ends at the next `}` in
   column 0; tables are not functions; the re2c lexer's generated automaton is not in the source
   tree, its hand-written actions in the .re file are checked like any other file). The same
   limits hold for the bindings' Python and JavaScript sources (bindings/python/boxlint,
   bindings/python/tests, bindings/node without node_modules) and the playground's JavaScript
   (playground/): Python functions as `ast` sees
   them, JavaScript functions, methods and arrow bodies from the line that opens them to the
   brace that closes them.

Usage: layering_test.py SOURCE_DIR BUILD_DIR [--graph]   (BUILD_DIR: a configured, built tree;
--graph prints the edges between the folders of lib/src and of cli/)
"""
import glob, os, re, subprocess, sys

SRC, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SHOW = "--graph" in sys.argv
MAX_FILE_LINES, MAX_FUNCTION_LINES = 800, 80

# Folder -> the folders it may call (ARCHITECTURE.md). The public entry points of the library
# (lint/) sit on top; report/ at the bottom calls nothing.
ALLOWED = {
    "report": set(),
    "config": {"report"},
    "dockerfile": {"report"},
    "policy": {"report"},
    "warnings": {"report", "config", "dockerfile"},
    "lint": {"report", "config", "dockerfile", "warnings"},
    "python": {"report", "config", "lint", "policy"},
}
# The command's folders, each -> the folders it may call (ARCHITECTURE.md, "The command: cli/").
# walk/ is a library of its own: libc only, no knowledge of the command (not even cli.h).
CLI_ALLOWED = {
    "walk": set(),
    "input": {"walk"},
    "output": {"input"},
    "fix": {"input", "output"},
    "lsp": {"input", "output", "fix"},
    "cmd": {"input", "output", "fix", "lsp"},
}
GENERATED = {"dockerfile_lexer.c.o": "dockerfile", "python_lexer.c.o": "python"}  # objects of generated sources: their folder

fails = []


def nm(path, *flags):
    out = subprocess.run(["nm", *flags, path], capture_output=True, text=True, check=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            syms.add(parts[-1])
    return syms


# ---- 1. calls between folders -----------------------------------------------------------------
objdir = os.path.join(BUILD, "lib", "CMakeFiles", "boxlint_obj.dir")
objects = {}
# The objects of the sources in the tree now (a build tree may hold stale ones of moved files).
for c in sorted(glob.glob(os.path.join(SRC, "lib", "src", "**", "*.c"), recursive=True)):
    rel = os.path.join("src", os.path.relpath(c, os.path.join(SRC, "lib", "src"))) + ".o"
    parts = rel.split(os.sep)
    if len(parts) < 3:
        fails.append(("source outside a folder of lib/src", rel[:-2]))
        continue
    if not os.path.exists(os.path.join(objdir, rel)):
        fails.append(("no object file (build the tree first)", rel))
        continue
    objects[rel] = parts[1]
for name, folder in GENERATED.items():
    if os.path.exists(os.path.join(objdir, name)):
        objects[name] = folder
    else:
        fails.append(("no object file (build the tree first)", name))
if not objects:
    print("FAIL no object files under", objdir, "(build the tree first)")
    sys.exit(1)

defined_in = {}
uses = {}
for rel, folder in objects.items():
    path = os.path.join(objdir, rel)
    for s in nm(path, "--defined-only", "-g"):
        defined_in.setdefault(s, set()).add(folder)
    uses[rel] = nm(path, "-u")

edges = {}
for rel, folder in objects.items():
    for s in uses[rel]:
        for target in defined_in.get(s, ()):
            if target != folder:
                edges.setdefault((folder, target), set()).add((rel, s))

folders = sorted(set(objects.values()))
for f in folders:
    if f not in ALLOWED:
        fails.append(("folder not in ARCHITECTURE.md's table", f))
for (a, b), why in sorted(edges.items()):
    if b not in ALLOWED.get(a, set()):
        rel, s = sorted(why)[0]
        fails.append(("call against the direction", f"{a} -> {b}", f"{rel} uses {s}",
                      f"({len(why)} uses in all)"))


def find_cycle(edges, folders):
    graph = {f: sorted({b for (a, b) in edges if a == f}) for f in folders}
    state, stack = {}, []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for g in graph[f]:
            if state.get(g) == 1:
                return stack[stack.index(g):] + [g]
            if g not in state:
                c = visit(g)
                if c:
                    return c
        stack.pop()
        state[f] = 2
        return None

    for f in folders:
        if f not in state:
            c = visit(f)
            if c:
                return c
    return None


cycle = find_cycle(edges, folders)
if cycle:
    fails.append(("circle between folders", " -> ".join(cycle)))
if SHOW or fails:
    for (a, b), why in sorted(edges.items()):
        print(f"{a:>10} -> {b:<10} {len(why):4d} uses")

# ---- 1b. the command: calls and includes between the folders of cli/ ---------------------------
cli_src = os.path.join(SRC, "cli")
# the command's objects; walk/ is built as a library of its own (boxlint_walk)
cli_objdirs = [os.path.join(BUILD, "cli", "CMakeFiles", d)
               for d in ("boxlint_cli.dir", "boxlint_walk.dir")]
cli_objpath = {}
cli_objects = {}  # "input/kind.c.o" -> "input"
for c in sorted(glob.glob(os.path.join(cli_src, "**", "*.c"), recursive=True)):
    rel = os.path.relpath(c, cli_src) + ".o"
    parts = rel.split(os.sep)
    if len(parts) != 2:
        fails.append(("cli source outside a folder of cli/", rel[:-2]))
        continue
    if parts[0] not in CLI_ALLOWED:
        fails.append(("cli folder not in ARCHITECTURE.md's table", parts[0]))
    found = [os.path.join(d, rel) for d in cli_objdirs if os.path.exists(os.path.join(d, rel))]
    if not found:
        fails.append(("no object file (build the tree first)", "cli/" + rel))
        continue
    # the newest: a build tree may keep a stale object of a file that moved to another target
    cli_objects[rel], cli_objpath[rel] = parts[0], max(found, key=os.path.getmtime)
cli_defined, cli_uses = {}, {}
for rel in cli_objects:
    path = cli_objpath[rel]
    for sym in nm(path, "--defined-only", "-g"):
        cli_defined.setdefault(sym, set()).add(rel)
    cli_uses[rel] = nm(path, "-u")
cli_edges, file_edges = {}, {}
for rel, folder in cli_objects.items():
    for sym in cli_uses[rel]:
        for target in cli_defined.get(sym, ()):
            if target != rel:
                file_edges.setdefault((rel[:-2], target[:-2]), set()).add(sym)
            if cli_objects[target] != folder:
                cli_edges.setdefault((folder, cli_objects[target]), set()).add((rel, sym))
        # the library: its public API only
        if sym in defined_in and not sym.startswith("boxlint_"):
            fails.append(("cli uses the library's internals", "cli/" + rel[:-2], sym))
        if folder == "walk" and (sym in defined_in or sym.startswith("json_")):
            fails.append(("walk/ uses more than libc", "cli/" + rel[:-2], sym))
for (a, b), why in sorted(cli_edges.items()):
    if b not in CLI_ALLOWED.get(a, set()):
        rel, sym = sorted(why)[0]
        fails.append(("cli call against the direction", f"{a} -> {b}", f"cli/{rel[:-2]} uses {sym}",
                      f"({len(why)} uses in all)"))
cli_folders = sorted(set(cli_objects.values()))
cycle = find_cycle(cli_edges, cli_folders)
if cycle:
    fails.append(("circle between cli folders", " -> ".join(cycle)))
cycle = find_cycle(file_edges, sorted({r[:-2] for r in cli_objects}))
if cycle:
    fails.append(("circle between cli files", " -> ".join(cycle)))

# Includes: of another folder only its one header, of cli/ only cli.h; the library's public ones.
include_re = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
public = set(os.listdir(os.path.join(SRC, "lib", "include", "boxlint")))
for path in sorted(glob.glob(os.path.join(cli_src, "**", "*.[ch]"), recursive=True)):
    rel = os.path.relpath(path, cli_src)
    folder = rel.split(os.sep)[0] if os.sep in rel else None
    for inc in include_re.findall(open(path, encoding="utf-8").read()):
        parts = inc.split("/")
        if parts[0] == "boxlint":
            ok = len(parts) == 2 and parts[1] in public
        elif inc == "cli.h":
            ok = folder != "walk"
        elif len(parts) == 2 and parts[0] == folder:
            ok = os.path.exists(os.path.join(cli_src, inc))
        elif len(parts) == 2 and parts[0] in CLI_ALLOWED:
            ok = parts[1] == parts[0] + ".h" and (folder is None or parts[0] in CLI_ALLOWED[folder])
        else:
            ok = False
        if not ok:
            fails.append(("cli include against the layout", "cli/" + rel, inc))
if SHOW or fails:
    for (a, b), why in sorted(cli_edges.items()):
        print(f"{'cli/' + a:>10} -> {'cli/' + b:<10} {len(why):4d} uses")

# ---- 2. sizes ----------------------------------------------------------------------------------
sources = sorted(glob.glob(os.path.join(SRC, "lib", "src", "**", "*.[ch]"), recursive=True) +
                 glob.glob(os.path.join(SRC, "lib", "src", "**", "*.re"), recursive=True) +
                 glob.glob(os.path.join(SRC, "cli", "**", "*.[ch]"), recursive=True))
start_re = re.compile(r"^[A-Za-z_][\w \t\*,]*\b(\w+)\s*\([^;]*$")
nfunctions = 0
for path in sources:
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    rel = os.path.relpath(path, SRC)
    if len(lines) - 1 > MAX_FILE_LINES:
        fails.append(("file over %d lines" % MAX_FILE_LINES, rel, len(lines) - 1))
    if not path.endswith(".c") and not path.endswith(".re"):
        continue
    i = 0
    while i < len(lines):
        m = start_re.match(lines[i])
        if m and not lines[i].startswith(("typedef", "struct", "enum", "union", "static const", "const ")):
            # the signature may span lines; the body opens with '{' at the end of one of them
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{"):
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                n = k - i + 1
                nfunctions += 1
                # re2c's own blocks: the automaton is generated, like a table
                lexer = path.endswith(".re") and any("/*!re2c" in x for x in lines[i:k])
                if n > MAX_FUNCTION_LINES and not lexer:
                    fails.append(("function over %d lines" % MAX_FUNCTION_LINES,
                                  f"{rel}:{i + 1}", m.group(1), n))
                i = k
        i += 1

# The bindings' hand-written sources, and the playground's: the same limits. Python functions as its own parser
# sees them (ast: first to last line of each def), JavaScript functions by their braces (a line
# that opens a `function`, a method or an arrow body, to the line that closes it).
import ast

JS_OPEN = re.compile(r"(\bfunction\b[^{]*|=>\s*|^\s*(?:async\s+|static\s+|get\s+|set\s+)*"
                     r"[A-Za-z_$][\w$]*\s*\([^)]*\)\s*)\{\s*(//.*)?$")
nbind_files = nbind_functions = 0
for base, exts in ((os.path.join(SRC, "bindings", "python", "boxlint"), (".py",)),
                   (os.path.join(SRC, "bindings", "python", "tests"), (".py",)),
                   (os.path.join(SRC, "bindings", "node"), (".js",)),
                   (os.path.join(SRC, "playground"), (".js",))):
    for d, dirs, names in os.walk(base):
        dirs[:] = [x for x in dirs if x not in ("node_modules", "prebuilds", "build")]
        for n in sorted(names):
            if not n.endswith(exts):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, SRC)
            text = open(path, encoding="utf-8").read()
            lines = text.split("\n")
            nbind_files += 1
            if len(lines) - 1 > MAX_FILE_LINES:
                fails.append(("file over %d lines" % MAX_FILE_LINES, rel, len(lines) - 1))
            if n.endswith(".py"):
                for node in ast.walk(ast.parse(text)):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        nbind_functions += 1
                        size = node.end_lineno - node.lineno + 1
                        if size > MAX_FUNCTION_LINES:
                            fails.append(("function over %d lines" % MAX_FUNCTION_LINES,
                                          f"{rel}:{node.lineno}", node.name, size))
                continue
            for i, line in enumerate(lines):
                if not JS_OPEN.search(line):
                    continue
                depth, k = 0, i
                for k in range(i, len(lines)):
                    depth += lines[k].count("{") - lines[k].count("}")
                    if depth <= 0:
                        break
                nbind_functions += 1
                if k - i + 1 > MAX_FUNCTION_LINES:
                    fails.append(("function over %d lines" % MAX_FUNCTION_LINES,
                                  f"{rel}:{i + 1}", line.strip()[:40], k - i + 1))

for f in fails:
    print("FAIL", *f)
print(f"layering: bindings/: {nbind_files} files and {nbind_functions} functions measured")
print(f"layering: {len(objects)} objects in {len(folders)} folders, {len(edges)} edges between "
      f"folders, {len(sources)} files and {nfunctions} functions measured")
print(f"layering: cli/: {len(cli_objects)} objects in {len(cli_folders)} folders, {len(cli_edges)} "
      f"edges between folders, {len(file_edges)} between files")
print(f"layering: {0 if fails else 1} passed, {1 if fails else 0} failed")
sys.exit(1 if fails else 0)
