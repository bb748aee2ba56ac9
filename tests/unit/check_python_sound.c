/*
 * The soundness of boxlint_check_python (lib/src/python/analyze.c, check.c): a name stands for
 * its literal only when nothing in the file can change it; references to the SDK that are not
 * direct calls are not-static; identifiers compare as Python compares them (NFKC); the SDK's
 * signatures (what Python raises TypeError for); bytes where the SDK takes str; suppressions
 * that apply to one line, never to errors or not-static, in time linear in their size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_python.h"

/* The start of an update call: its commands value opens at column 51. */
#define T "c.code_interpreter.templates.update('i', commands="

/* A name bound once to a literal, used only as an SDK argument: its value is checked. */
START_TEST(test_name_known) {
  CHECK("S = ['RUN sudo x']\n" T "S)\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 11, 1, 15, "sudo");
  /* an alias of a list that nothing changes: the same list */
  CHECK("A = ['FROM x']\nS = A\n" T "S)\n");
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 1, 7, 1, 11, "FROM");
  /* a string held by another name's literal: strings cannot change */
  CHECK("B = 'RUN sudo x'\nL = [B]\nL.append('x')\n" T "[B])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 10, 1, 14, "sudo");
}
END_TEST

/* Every way the file could change or replace the name makes it not-static, naming why. */
START_TEST(test_name_changed) {
  static const struct { const char *before, *why; } cases[] = {
      {"S = ['RUN x']\ndef f():\n    S.insert(0, 'FROM a')\n", "used as a receiver"},
      {"S = ['RUN x']\nO = S\nO.append('FROM a')\n", "another name also holds"},
      {"S = ['RUN x']\n[S.append('FROM a')]\n", "used as a receiver"},
      {"S = ['RUN x']\nif c: S += ['FROM a']\n", "bound more than once"},
      {"S = ['RUN x']\nglobals()['S'] = ['FROM a']\n", "globals()"},
      {"S = ['RUN x']\nsetattr(m, 'S', 1)\n", "globals()"},
      {"S = ['RUN x']\nfrom m import *\n", "star import"},
      {"S = ['RUN x']\ndef f(S):\n    pass\n", "parameter"},
      {"S = ['RUN x']\nf = lambda S: 0\n", "parameter"},
      {"S = ['RUN x']\nmatch v:\n    case S:\n        pass\n", "match pattern"},
      {"S = ['RUN x']\nS, T2 = 1, 2\n", "bound more than once"},
      {"S = ['RUN x']\nS = ['FROM a']\n", "bound more than once"},
      {"S = ['RUN x']\ndel S\n", "del"},
      {"S = ['RUN x']\ndef g():\n    global S\n", "global or nonlocal"},
      {"S = ['RUN x']\nimport os as S\n", "import"},
      {"S = ['RUN x']\nfor S in y: pass\n", "bound more than once"},
      {"S = ['RUN x']\n(S := 1)\n", "bound more than once"},
      {"S = ['RUN x']\nprint(S)\n", "passed to another call"},
      {"S = ['RUN x']\nimport t\nt.S.append('FROM a')\n", "attribute's name"},
      {"S = ['RUN x']\ngetattr(t, 'S')\n", "string in the file also spells"},
      {"S = ['RUN x']\nimport gc\n", "gc, inspect"},
      {"S = ['RUN x']\nclass K:\n    S = 1\n", "bound more than once"},
      {"S = ['RUN x']\ntry:\n    pass\nexcept E as S:\n    pass\n", "except"},
      {"S = ['RUN x']\n[1 for S in y]\n", "bound more than once"},
      {"if c:\n    S = ['RUN x']\n", "not bound by one module-level"},
      {"", "not bound by one module-level"},
      {"S = ['RUN x'] + B\n", "an expression"},
      {"S = f()\n", "a call"},
      {"\xef\xbc\xb3 = ['FROM a']\nS = ['RUN x']\n", "bound more than once"}, /* fullwidth S */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char src[512];
    int n = snprintf(src, sizeof src, "%s" T "S)\n", cases[i].before);
    py_check(src, (size_t)n, BOXLINT_OK);
    uint32_t line = 1;
    for (const char *p = cases[i].before; *p; p++) line += *p == '\n';
    /* reflection (reflect.c's table) says so at the call too, first */
    size_t at = boxlint_report_diag_count(R) == 2 ? 1 : 0;
    if (at)
      py_diag(0, "not-static", I, NULL, line, 1, line, 53, "reflection or code run from text");
    else
      py_count(1);
    const boxlint_diag *d = py_diag(at, "not-static", I, "commands", line, 51, line, 52,
                                    "commands of templates.update is ");
    ck_assert_msg(strstr(d->message, cases[i].why), "case %zu: \"%s\" lacks \"%s\"", i,
                  d->message, cases[i].why);
  }
}
END_TEST

/* Regression (found by make test under ASan, fixed): the name table grew while an entry was
 * held (an owner looked up after the name), and the owners kept pointers into the old table.
 * Many names, each held by another's literal: every lookup may grow the table. */
START_TEST(bug_name_table_growth) {
  size_t cap = 96 * 1024, l = 0;
  char *src = malloc(cap);
  ck_assert_ptr_nonnull(src);
  l += (size_t)snprintf(src + l, cap - l, "S0 = ['RUN sudo x']\n");
  for (int i = 1; i < 600; i++) /* each new name first read inside its owner's literal */
    l += (size_t)snprintf(src + l, cap - l, "S%d = [S%d, A%d, B%d]\nA%d = 'RUN a'\nB%d = 'RUN b'\n",
                          i, i - 1, i, i, i, i);
  l += (size_t)snprintf(src + l, cap - l, "%sS599)\n", T);
  py_check(src, l, BOXLINT_OK);
  free(src);
  /* S599 holds a list of lists: commands[0] is not a string */
  py_count(1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "invalid-argument-type");
}
END_TEST

/* Regression (found by the thread-safety work, fixed): a user rule's finding kept its rule id
 * pointing into the per-call report, freed after the call (use after free under ASan). */
START_TEST(bug_user_rule_id_in_python) {
  boxlint_config *cfg;
  ck_assert_int_eq(boxlint_config_new(&cfg, NULL), BOXLINT_OK);
  boxlint_user_rule u = {{"no-todo", 7}, BOXLINT_SEVERITY_WARNING, BOXLINT_KW_RUN,
                         {"TODO", 4}, {"a TODO in the image", 19}};
  ck_assert_int_eq(boxlint_config_add_rule(cfg, &u, NULL), BOXLINT_OK);
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = cfg;
  static const char src[] = T "['RUN echo TODO'])\n" T "['RUN echo TODO again'])\n";
  char *buf = malloc(sizeof src - 1);
  ck_assert_ptr_nonnull(buf);
  memcpy(buf, src, sizeof src - 1);
  boxlint_report_clear(R);
  ck_assert_int_eq(boxlint_check_python(R, buf, sizeof src - 1, &o, NULL), BOXLINT_OK);
  free(buf);
  boxlint_config_free(cfg);
  ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
  for (size_t i = 0; i < 2; i++) {
    const boxlint_diag *d = boxlint_report_diag(R, i);
    ck_assert_str_eq(d->rule, "no-todo"); /* read after the config and the check are gone */
    ck_assert_uint_eq(d->line, i + 1);
    ck_assert_uint_eq(d->column, 52 + 10);
  }
}
END_TEST

/* Regression (found in review, fixed): whether a name's holders are clean was asked again for
 * every path through a web of literals holding literals: 30 layers of 30 names took forever.
 * Decided once per name now (the check's timeout is the guard: no time is asserted). */
START_TEST(bug_holder_web) {
  size_t cap = 256 * 1024, l = 0;
  char *src = malloc(cap);
  ck_assert_ptr_nonnull(src);
  l += (size_t)snprintf(src + l, cap - l, "A0_0 = ['RUN sudo x']\n");
  for (int i = 1; i < 30; i++) l += (size_t)snprintf(src + l, cap - l, "A0_%d = 'RUN x'\n", i);
  for (int k = 1; k < 30; k++)
    for (int i = 0; i < 30; i++) {
      l += (size_t)snprintf(src + l, cap - l, "A%d_%d = [", k, i);
      for (int j = 0; j < 30; j++) l += (size_t)snprintf(src + l, cap - l, "A%d_%d, ", k - 1, j);
      l += (size_t)snprintf(src + l, cap - l, "]\n");
    }
  l += (size_t)snprintf(src + l, cap - l, "%sA0_0)\n", T);
  py_check(src, l, BOXLINT_OK);
  free(src);
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 14, 1, 18, "sudo");
}
END_TEST

/* A builtin's name bound at module level: a function called before the binding runs reads the
 * builtin, so the name is never known. */
START_TEST(test_builtin_names) {
  CHECK("list = ['RUN sudo x']\n" T "list)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 2, 51, 2, 55, "a builtin's name");
  CHECK("lst = ['RUN sudo x']\n" T "lst)\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 13, 1, 17, "sudo");
}
END_TEST

/* Policies: a dict bound to a name and changed, keys that are not string literals. */
START_TEST(test_policy_names) {
  CHECK("P = {'type': 'filtered', 'allow_out': ['a.com'], 'deny_out': ['ALL_TRAFFIC']}\n"
        "P['deny_out'] = []\n"
        "c.agents.add_code_interpreter('a', template_id='t', network_policy=P)\n");
  py_count(1);
  py_diag(0, "not-static", I, "network_policy", 3, 68, 3, 69, "is a name whose value is "
          "subscripted");
  CHECK("K = 'type'\nc.agents.add_code_interpreter('a', template_id='t', network_policy={K: 1})\n");
  py_count(1);
  py_diag(0, "not-static", I, "network_policy", 2, 68, 2, 74, "a dict whose keys are not all "
          "string literals");
  CHECK("c.agents.add_code_interpreter('a', template_id='t', network_policy={'ty' 'pe': 'open', "
        "**E})\n");
  py_count(1);
  py_diag(0, "not-static", I, "network_policy", 1, 68, 1, 92, "network_policy of "
          "add_code_interpreter is unpacking");
  /* a list bound once and only passed to the SDK: its entries are checked */
  CHECK("A = ['pypi.org', 'pypi.org']\n"
        "p = NetworkPolicy(type='filtered', allow_out=A, deny_out=['ALL_TRAFFIC'])\n");
  py_count(1);
  py_diag(0, "duplicate-entry", W, "allow_out[1]", 1, 18, 1, 28, "pypi.org");
}
END_TEST

/* NFKC: a look-alike that Python reads as `create`, `commands` or a bound name is that name. */
START_TEST(test_nfkc) {
  /* c.code_interpreter.templates.ｃｒｅａｔｅ(name='n', ｃｏｍｍａｎｄｓ=['FROM a'], ...) */
  CHECK("c.code_interpreter.templates.\xef\xbd\x83\xef\xbd\x92\xef\xbd\x85\xef\xbd\x81\xef\xbd\x94"
        "\xef\xbd\x85(name='n', \xef\xbd\x83\xef\xbd\x8f\xef\xbd\x8d\xef\xbd\x8d\xef\xbd\x81\xef\xbd"
        "\x8e\xef\xbd\x84\xef\xbd\x93=['FROM a'], cpu_count=2, memory_mb=4096)\n");
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 1, 58, 1, 62, "FROM");
  /* 𝐒 (mathematical bold S) is S to Python: the list is changed through it */
  CHECK("S = ['RUN x']\n\xf0\x9d\x90\x92.append('FROM a')\n" T "S)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 3, 51, 3, 52, "used as a receiver");
}
END_TEST

/* References to the SDK that are not direct calls, and receivers that are not the SDK. */
START_TEST(test_references) {
  static const struct { const char *src; uint32_t line, col, end_line, end_col; const char *why; } cases[] = {
      {"t = c.code_interpreter.templates\nkeep(t)\nt.create(name='x', commands=['FROM a'], "
       "cpu_count=2, memory_mb=4096)\n", 1, 5, 1, 23, "a reference to code_interpreter"},
      {"getattr(c.code_interpreter.templates, 'create')(name='x')\n", 1, 1, 1, 48,
       "a member of the SDK looked up by its name"},
      {"getattr(c, 'code_interpreter').templates.create(name='x')\n", 1, 1, 1, 41,
       "templates reached through an expression"},
      {"functools.partial(c.agents.add_code_interpreter, 'a')(template_id='t')\n", 1, 19, 1, 48,
       "an SDK function used other than by a direct call"},
      {"from budai import NetworkPolicy as NP\nNP(type='open')\n", 1, 19, 1, 38,
       "imported under another name"},
      {"exec(\"c.code_interpreter.templates.create(name='x')\")\n", 1, 1, 1, 54, "exec"},
      {"c.code_interpreter.templates.create.__call__(name='x')\n", 1, 1, 1, 36,
       "a method of templates used other than by a direct call"},
      {"f = c.agents.add_code_interpreter\n", 1, 5, 1, 34, "an SDK function used other"},
      {"x = NetworkPolicy\n", 1, 5, 1, 18, "an SDK function used other"},
      {"d = vars(client)\nd['code_' + 'interpreter'].templates.create(name='x')\nimport budai\n", 1, 5, 1, 9,
       "attributes reached by their text"},
      {"x = client.__getattribute__('code_interpreter')\n", 1, 5, 1, 28,
       "attributes reached by their text"},
      {"k = 'code_\\x69nterpreter'\n", 1, 5, 1, 26, "a string spelling a name of the SDK"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    py_check(cases[i].src, strlen(cases[i].src), BOXLINT_OK);
    size_t at = 0, n = boxlint_report_diag_count(R); /* the reference's own finding */
    while (at < n && boxlint_report_diag(R, at)->column != cases[i].col) at++;
    if (at == n) py_dump();
    ck_assert_uint_lt(at, n);
    py_diag(at, "not-static", I, NULL, cases[i].line, cases[i].col, cases[i].end_line,
            cases[i].end_col, cases[i].why);
  }
  /* a call through a reference is said so at the call too */
  CHECK("t = c.code_interpreter.templates\nkeep(t)\nt.create(name='x')\n");
  py_count(2);
  py_diag(1, "not-static", I, NULL, 3, 1, 3, 19, "a call on a receiver that may be the SDK's");
  CHECK("make = functools.partial(c.code_interpreter.templates.create, name='x')\nmake()\n");
  py_count(2);
  py_diag(1, "not-static", I, NULL, 2, 1, 2, 7, "a call on a receiver that may be the SDK's");
  /* a call inside an f-string's field */
  CHECK("x = f\"{c.code_interpreter.templates.update('i', commands=['FROM a'])}\"\n");
  py_count(1);
  py_diag(0, "not-static", I, "the arguments", 1, 8, 1, 69, "inside an f-string");
  /* plainly not the SDK: not checked */
  CHECK("class Site:\n    templates = None\nsite = Site()\n"
        "site.templates.create(name='x', commands=['FROM a'], cpu_count=2, memory_mb=4096)\n");
  py_count(0);
  /* the documented calls that take no template are not references */
  CHECK("c.code_interpreter.templates.get('x')\nc.code_interpreter.templates.delete('x')\n");
  py_count(0);
}
END_TEST

/* Names bound to the SDK's objects are followed: their calls are checked as direct calls, with
 * no not-static; a name used any other way keeps its reference. */
#define OK_ARGS "cpu_count=2, memory_mb=4096)\n"
START_TEST(test_aliases_followed) {
  CHECK("ci = c.code_interpreter\nci.templates.create(name='a', commands=['FROM x'], " OK_ARGS);
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 2, 42, 2, 46, "FROM is not allowed");
  CHECK("templates = c.code_interpreter.templates\ntemplates.create(name='a', commands=['FROM x'], "
        OK_ARGS);
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 2, 39, 2, 43, "FROM is not allowed");
  CHECK("create = c.code_interpreter.templates.create\ncreate(name='a', commands=['FROM x'], "
        OK_ARGS);
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 2, 29, 2, 33, "FROM is not allowed");
  /* a chain of them, in a function */
  CHECK("def main(c):\n    ci = c.code_interpreter\n    t = ci.templates\n    up = t.update\n"
        "    up('i', commands=['FROM x'])\n");
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 5, 24, 5, 28, "FROM is not allowed");
  /* functools.partial of one: its arguments first, the call's keywords win */
  CHECK("from functools import partial\ncreate = c.code_interpreter.templates.create\n"
        "p = partial(create, name='Bad Name', cpu_count=2)\np(commands=['FROM x'], memory_mb=4096)\n");
  py_count(2);
  py_diag(0, "invalid-name", E, "name", 3, 26, 3, 36, "\"Bad Name\"");
  py_diag(1, "denied-instruction", E, "commands[0]", 4, 14, 4, 18, "FROM is not allowed");
  CHECK("import functools\nfunctools.partial(c.code_interpreter.templates.create, name='a', "
        "cpu_count=2)(commands=['FROM x'], memory_mb=4096)\n");
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[0]", 2, 90, 2, 94, "FROM is not allowed");
  CHECK("from functools import partial\ncreate = c.code_interpreter.templates.create\n"
        "p = partial(create, name='y')\np(name='a', commands=['RUN x'], " OK_ARGS);
  py_count(0);
  /* failing: the name is bound another way too, passed away, or a parameter elsewhere */
  CHECK("ci = c.code_interpreter\nci = other\nci.templates.create(name='a', commands=['FROM x'], "
        OK_ARGS);
  py_count(2);
  py_diag(0, "not-static", I, NULL, 1, 6, 1, 24, "a reference to code_interpreter");
  py_diag(1, "not-static", I, NULL, 3, 1, 3, 80, "a call on a receiver that may be the SDK's");
  CHECK("ci = c.code_interpreter\ndef f(ci):\n    pass\nci.templates.create(name='a', "
        "commands=['FROM x'], " OK_ARGS);
  py_count(2);
  py_diag(0, "not-static", I, NULL, 1, 6, 1, 24, "a reference to code_interpreter");
  CHECK("t = c.code_interpreter.templates\nt.extra = 1\nt.create(name='a', commands=['FROM x'], "
        OK_ARGS);
  py_count(2);
  py_diag(0, "not-static", I, NULL, 1, 5, 1, 23, "a reference to code_interpreter");
  /* a builtin's name is never followed: other scopes read the builtin */
  CHECK("def f():\n    open = c.code_interpreter.templates.create\n    open(name='a')\n");
  py_count(2);
  py_diag(0, "not-static", I, NULL, 2, 12, 2, 47, "a method of templates used other");
  /* an unrelated method of another receiver says nothing, even beside a reference */
  CHECK("t = c.code_interpreter.templates\nkeep(t)\nc.files.create(name='x')\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 1, 5, 1, 23, "a reference to code_interpreter");
}
END_TEST

/* Reads are not mutations: a slice, an index, len, `in`, iteration and unpacking leave a
 * module-level list known (its elements immutable); a store through a subscript does not. */
START_TEST(test_reads_not_mutations) {
  CHECK("S = ['RUN a', 'FROM b']\nfirst = S[:1]\nn = len(S)\nok = 'RUN a' in S\n"
        "for x in S:\n    print(x)\na, b = S\ny = [z for z in S]\n" T "S)\n");
  py_count(1);
  py_diag(0, "denied-instruction", E, "commands[1]", 1, 16, 1, 20, "FROM is not allowed");
  /* failing: a subscript store, len rebound, an element that is itself a list */
  CHECK("S = ['RUN a', 'FROM b']\nS[0] = 'RUN c'\n" T "S)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 3, 51, 3, 52, "");
  CHECK("S = ['RUN a', 'FROM b']\nn = len(S)\ndef len(x):\n    x.append('RUN z')\n" T "S)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 5, 51, 5, 52, "");
  CHECK("L = ['x']\nS = [L]\nS[0].append('y')\n" T "S)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 4, 51, 4, 52, "");
}
END_TEST

/* NetworkPolicy or add_code_interpreter bound by the file (a class, a parameter, a match
 * capture) is not surely the SDK's: its calls are checked and said not-static once; the
 * SDK's import alone says nothing. */
START_TEST(test_shadowed_sdk_names) {
  CHECK("from budai import NetworkPolicy\np = NetworkPolicy(type='open')\n");
  py_count(0);
  CHECK("class NetworkPolicy(dict):\n    pass\np = NetworkPolicy(type='open')\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 3, 5, 3, 31, "NetworkPolicy is bound by the file at line 1");
  CHECK("from budai import NetworkPolicy\ndef f(NetworkPolicy):\n    return NetworkPolicy(type='x')\n");
  py_count(2);
  py_diag(0, "not-static", I, NULL, 3, 12, 3, 35, "NetworkPolicy is bound by the file at line 2");
  py_diag(1, "invalid-policy-type", E, "type", 3, 31, 3, 34, "type 'x'");
  CHECK("from budai import NetworkPolicy\nmatch v:\n    case NetworkPolicy:\n        pass\n"
        "p = NetworkPolicy(type='open')\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 5, 5, 5, 31, "bound by the file at line 3");
  CHECK("def add_code_interpreter(**kw):\n    pass\n"
        "add_code_interpreter(agent_id='a', template_id='t', version=1)\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 3, 1, 3, 63, "add_code_interpreter is bound by the file");
}
END_TEST

/* Reflection and code run from text (reflect.c's one table), as a name, an alias of one, an
 * attribute, an imported name or module, in a file that reaches the SDK: every call is said
 * not-static once, its literal arguments still checked; nothing without it. */
START_TEST(test_reflection_table) {
  static const char *const pre[] = {
      "look = getattr\n", "import timeit\n", "from operator import attrgetter as ag\n",
      "len.__self__.x = 1\n", "f.__code__ = g.__code__\n", "import importlib\n",
      "import ctypes\n", "import pickle\n", "from typing import get_type_hints\n",
      "sys.settrace(None)\n", "sys._getframe()\n", "k = type.__dict__\n",
      "b = __builtins__\n", "from types import FunctionType\n", "import marshal\n",
      "from inspect import get_annotations\n", "import code\n", "breakpoint\n",
  };
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++) {
    char src[512];
    int n = snprintf(src, sizeof src, "%sc.code_interpreter.templates.create(name='a', "
                     "commands=['FROM x'], cpu_count=2, memory_mb=4096)\n", pre[i]);
    py_check(src, (size_t)n, BOXLINT_OK);
    /* the call's own (a reference at the reflection may come before it) */
    size_t nd = boxlint_report_diag_count(R), at = 0;
    while (at < nd && boxlint_report_diag(R, at)->line != 2) at++;
    if (nd != at + 2) py_dump();
    ck_assert_uint_eq(nd, at + 2);
    py_diag(at, "not-static", I, NULL, 2, 1, 2, 96, "reflection or code run from text in the file");
    py_diag(at + 1, "denied-instruction", E, "commands[0]", 2, 58, 2, 62, "FROM is not allowed");
  }
  /* no SDK call to mark: the reflection itself, once (the calls may be in the text) */
  CHECK("import timeit\nimport budai\ntimeit.timeit('budai.x()')\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 1, 8, 1, 14, "reflection or code run from text: the SDK");
  CHECK("import budai\nlen.__self__.exec('y')\n");
  py_count(1);
  py_diag(0, "not-static", I, NULL, 2, 1, 2, 18, "reflection or code run from text");
  CHECK("import timeit\ntimeit.timeit('x()')\n"); /* out of the SDK's reach: nothing */
  py_count(0);
  /* the implicit names __doc__ and __annotations__ read */
  CHECK("'FROM x'\nc.code_interpreter.templates.create(name='a', commands=[__doc__], "
        "cpu_count=2, memory_mb=4096)\n");
  py_diag(0, "not-static", I, NULL, 2, 1, 2, 95, "(__doc__ at line 2)");
  CHECK("x: 'FROM x' = 1\nc.code_interpreter.templates.create(name='a', commands=__annotations__, "
        "cpu_count=2, memory_mb=4096)\n");
  py_diag(0, "not-static", I, NULL, 2, 1, 2, 101, "(__annotations__ at line 2)");
  /* a private name in a class is the mangled one: `__S` in Builder changes _Builder__S */
  CHECK("_Builder__S = ['RUN x']\nclass Builder:\n    def f(self):\n        __S.append('FROM a')\n"
        T "_Builder__S)\n");
  py_count(1);
  py_diag(0, "not-static", I, "commands", 5, 51, 5, 62, "a class's private name (mangled)");
  CHECK("_Builder__S = ['RUN x']\nclass Builder:\n    def f(self):\n        return len(__T)\n"
        T "_Builder__S)\n");
  py_count(0);
  /* passing: none of them; a dunder that reads a plain string */
  CHECK("n = f.__name__\nc.code_interpreter.templates.create(name='a', commands=['RUN x'], "
        "cpu_count=2, memory_mb=4096)\n");
  py_count(0);
  /* a file that cannot reach the SDK says nothing of them */
  CHECK("import importlib\nk = type.__dict__\nexec('x')\n");
  py_count(0);
}
END_TEST

/* What the SDK's signatures do not take is an error, as Python raises TypeError. */
START_TEST(test_signatures) {
  CHECK("c.code_interpreter.templates.create(name='n', commands=[], cpu_count=2, memory_mb=4096, "
        "network_policy={})\n");
  py_count(1);
  const boxlint_diag *d = py_diag(0, "unknown-argument", E, NULL, 1, 89, 1, 103,
                                  "templates.create() got an unexpected keyword argument "
                                  "'network_policy'");
  ck_assert_str_eq(d->hint, "'network_policy' is an argument of agents.add_code_interpreter, "
                            "not of templates.create");
  CHECK(T "[], comands=[])\n");
  py_count(1);
  d = py_diag(0, "unknown-argument", E, NULL, 1, 55, 1, 62, "'comands'");
  ck_assert_str_eq(d->hint, "did you mean \"commands\"?");
  CHECK("c.code_interpreter.templates.update('i', [], 3)\n");
  py_count(1);
  py_diag(0, "unknown-argument", E, NULL, 1, 46, 1, 47, "takes 2 positional arguments but 3 "
          "were given");
  CHECK("c.code_interpreter.templates.update('i')\n");
  py_count(1);
  py_diag(0, "missing-field", E, NULL, 1, 30, 1, 36, "missing the required argument 'commands'");
  CHECK("c.agents.add_code_interpreter(template_id='t')\n");
  py_count(1);
  py_diag(0, "missing-field", E, NULL, 1, 10, 1, 30, "'agent_id'");
  CHECK("NetworkPolicy(kind='open')\n");
  py_count(1);
  py_diag(0, "unknown-argument", E, NULL, 1, 15, 1, 19, "NetworkPolicy() got an unexpected");
  /* the right arguments: nothing */
  CHECK("c.code_interpreter.templates.update(template_id='i', commands=[])\n"
        "c.agents.add_code_interpreter('a', 't', 1, 1200, None)\n");
  py_count(0);
}
END_TEST

/* bytes where the SDK takes str. */
START_TEST(test_bytes) {
  CHECK(T "[b'RUN x'])\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "commands[0]", 1, 52, 1, 60, "commands[0] must be a "
          "string, not bytes");
  CHECK("c.code_interpreter.templates.update(b'i', commands=[])\n");
  py_count(1);
  py_diag(0, "invalid-argument-type", E, "name", 1, 37, 1, 41, "not bytes");
}
END_TEST

/* Suppressions: a trailing comment is about its own line, a comment alone about the next;
 * errors and not-static cannot be silenced. */
START_TEST(test_suppressions) {
  CHECK(T "['RUN sudo a'])  # boxlint: ignore=sudo-usage\n" T "['RUN sudo b'])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 2, 57, 2, 61, "sudo");
  CHECK("# boxlint: ignore=sudo-usage\n" T "['RUN sudo a'])\n" T "['RUN sudo b'])\n");
  py_count(1);
  py_diag(0, "sudo-usage", W, "commands[0]", 3, 57, 3, 61, "sudo");
  CHECK(T "X)  # boxlint: ignore=not-static\n");
  py_count(2);
  py_diag(0, "not-static", I, "commands", 1, 51, 1, 52, "commands of templates.update");
  py_diag(1, "unused-suppression", W, NULL, 1, 73, 1, 83, "not-static cannot be suppressed");
  CHECK(T "['FROM a'])  # boxlint: ignore=denied-instruction\n");
  py_count(2);
  py_diag(0, "denied-instruction", E, "commands[0]", 1, 53, 1, 57, "FROM");
  py_diag(1, "unused-suppression", W, NULL, 1, 82, 1, 100, "is an error and cannot be suppressed");
}
END_TEST

/* A comment with 80,000 rule ids: past the documented limit (256), it silences nothing and says
 * so once; at the limit, duplicates and unknown ids are each reported. Linear either way (no
 * time is asserted: the quadratic version took 18 s). */
START_TEST(test_suppression_many_ids) {
  size_t n = 80000, cap = n * 12 + 200;
  char *src = malloc(cap);
  ck_assert_ptr_nonnull(src);
  size_t l = (size_t)snprintf(src, cap, "%s['RUN sudo a'])  # boxlint: ignore=", T);
  for (size_t i = 0; i < n; i++) l += (size_t)snprintf(src + l, cap - l, "r%zu,", i);
  l += (size_t)snprintf(src + l, cap - l, "sudo-usage\n");
  py_check(src, l, BOXLINT_OK);
  py_count(2);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 57, 1, 61, "sudo");
  py_diag(1, "unused-suppression", W, NULL, 1, 86, 1, (uint32_t)l, "lists 80001 "
          "rule ids, more than the 256 it may");
  /* 256: the duplicates and unknown ids are reported, sudo-usage silenced */
  l = (size_t)snprintf(src, cap, "%s['RUN sudo a'])  # boxlint: ignore=sudo-usage", T);
  for (size_t i = 0; i < 255; i++) l += (size_t)snprintf(src + l, cap - l, ",x");
  l += (size_t)snprintf(src + l, cap - l, "\n");
  py_check(src, l, BOXLINT_OK);
  free(src);
  py_count(255);
  py_diag(0, "unused-suppression", W, NULL, 1, 97, 1, 98, "the suppression of x suppresses");
}
END_TEST

/* An SDK call's result keeps its arguments (a template handle its commands, a NetworkPolicy its
 * lists): a list passed to one is known only while nothing can change it through the result. */
#define MK "tpl = c.code_interpreter.templates.create(name='a', commands=S, cpu_count=2, " \
           "memory_mb=4096)\n"
START_TEST(test_sdk_results_keep_arguments) {
  /* the handle's plain fields and wait_until_ready(): the list is still known */
  CHECK("S = ['RUN sudo x']\n" MK "tpl.wait_until_ready()\nprint(tpl.id, tpl.status)\n" T "S)\n");
  py_count(2);
  py_diag(0, "sudo-usage", W, "commands[0]", 1, 11, 1, 15, "sudo");
  py_diag(1, "sudo-usage", W, "commands[0]", 1, 11, 1, 15, "sudo");
  /* the list changed through the handle */
  CHECK("S = ['RUN x']\n" MK "tpl.commands.insert(0, 'FROM a')\n" T "S)\n");
  py_count(2);
  py_diag(0, "not-static", I, "commands", 2, 62, 2, 63, "another name also holds");
  py_diag(1, "not-static", I, "commands", 4, 51, 4, 52, "another name also holds");
  /* through the handle that wait_until_ready() returns */
  CHECK("S = ['RUN x']\n" MK "tpl.wait_until_ready().commands.append('FROM a')\n" T "S)\n");
  py_count(2);
  py_diag(1, "not-static", I, "commands", 4, 51, 4, 52, "another name also holds");
  /* a result kept where boxlint does not follow it */
  CHECK("def f():\n    t = c.code_interpreter.templates.create(name='a', commands=S, cpu_count=2, "
        "memory_mb=4096)\n    t.commands.append('FROM a')\nS = ['RUN x']\n" T "S)\n");
  py_count(2);
  py_diag(0, "not-static", I, "commands", 2, 64, 2, 65, "an SDK call's result keeps");
  py_diag(1, "not-static", I, "commands", 5, 51, 5, 52, "an SDK call's result keeps");
  /* a policy's list, changed through the NetworkPolicy */
  CHECK("A = ['pypi.org']\nP = NetworkPolicy(type='filtered', allow_out=A, deny_out=['ALL_TRAFFIC'])\n"
        "P.allow_out.append('300.1.1.1')\n"
        "c.agents.add_code_interpreter('a', 't', network_policy=NetworkPolicy(type='filtered', "
        "allow_out=A, deny_out=['ALL_TRAFFIC']))\n");
  ck_assert_uint_eq(boxlint_report_diag_count(R), 2);
  for (size_t i = 0; i < 2; i++)
    ck_assert_str_eq(boxlint_report_diag(R, i)->rule, "not-static");
}
END_TEST

Suite *python_sound_suite(void) {
  Suite *s = suite_create("check_python_sound");
  TCase *tc = tcase_create("sound");
  tcase_add_checked_fixture(tc, py_setup, py_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_name_known);
  tcase_add_test(tc, test_name_changed);
  tcase_add_test(tc, bug_name_table_growth);
  tcase_add_test(tc, bug_user_rule_id_in_python);
  tcase_add_test(tc, bug_holder_web);
  tcase_add_test(tc, test_builtin_names);
  tcase_add_test(tc, test_policy_names);
  tcase_add_test(tc, test_sdk_results_keep_arguments);
  tcase_add_test(tc, test_nfkc);
  tcase_add_test(tc, test_references);
  tcase_add_test(tc, test_aliases_followed);
  tcase_add_test(tc, test_reads_not_mutations);
  tcase_add_test(tc, test_shadowed_sdk_names);
  tcase_add_test(tc, test_reflection_table);
  tcase_add_test(tc, test_signatures);
  tcase_add_test(tc, test_bytes);
  tcase_add_test(tc, test_suppressions);
  tcase_add_test(tc, test_suppression_many_ids);
  suite_add_tcase(s, tc);
  return s;
}
