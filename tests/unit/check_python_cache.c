/*
 * boxlint_check_python_cached (lib/src/python/cache*.c) against boxlint_check_python: after
 * thousands of random single edits (typing and deleting in strings, names, comments and code,
 * quotes, backslashes, brackets, line breaks) to several Python files, the cached check gives
 * the same status and the same diagnostics, field by field, in the same order. The edits that
 * took the reuse paths are counted: the string and identifier paths must run often.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"
#include "python/python_int.h"
#include "diag_same.h"

static unsigned long long rng_state;

static unsigned rnd(unsigned n) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return n ? (unsigned)((rng_state >> 33) % n) : 0;
}


/* The two reports are the same, diagnostic by diagnostic; else the first difference. */
static void same_reports(const boxlint_report *a, const boxlint_report *b, const char *what) {
  size_t n = boxlint_report_diag_count(a);
  if (getenv("BOXLINT_CACHE_DUMP") && n != boxlint_report_diag_count(b))
    for (int k = 0; k < 2; k++)
      for (size_t i = 0; i < boxlint_report_diag_count(k ? b : a); i++) {
        const boxlint_diag *x = boxlint_report_diag(k ? b : a, i);
        fprintf(stderr, "%d %s %zu-%zu %s\n", k, x->rule, x->offset, x->end_offset, x->message);
      }
  ck_assert_msg(n == boxlint_report_diag_count(b), "%s: %zu findings, cached %zu", what, n,
                boxlint_report_diag_count(b));
  for (size_t i = 0; i < n; i++) {
    const boxlint_diag *x = boxlint_report_diag(a, i), *y = boxlint_report_diag(b, i);
    int ok = diag_same(x, y);
    ck_assert_msg(ok, "%s: finding %zu differs: %s %zu-%zu %u:%u '%s' / cached %s %zu-%zu %u:%u '%s'",
                  what, i, x->rule, x->offset, x->end_offset, x->line, x->column, x->message,
                  y->rule, y->offset, y->end_offset, y->line, y->column, y->message);
  }
}

typedef struct fixture {
  boxlint_config *cfg;
  boxlint_options opts;
  boxlint_report *plain, *cached;
  boxlint_python_cache *cache;
} fixture;

static void fx_init(fixture *f, int with_config) {
  memset(f, 0, sizeof *f);
  boxlint_options_init(&f->opts);
  if (with_config) {
    ck_assert_int_eq(boxlint_config_new(&f->cfg, NULL), BOXLINT_OK);
    f->opts.config = f->cfg;
  }
  ck_assert_int_eq(boxlint_report_new(&f->plain, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_report_new(&f->cached, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_python_cache_new(&f->cache, NULL), BOXLINT_OK);
}

static void fx_free(fixture *f) {
  boxlint_python_cache_free(f->cache);
  boxlint_report_free(f->plain);
  boxlint_report_free(f->cached);
  boxlint_config_free(f->cfg);
}

/* Check `text` both ways (the cached one through an exact-size copy) and compare. */
static boxlint_status both(fixture *f, const char *text, size_t n, const char *what) {
  const char *dump = getenv("BOXLINT_CACHE_DUMP"); /* the last two texts, to debug */
  if (dump) {
    char p0[512], p1[512];
    snprintf(p0, sizeof p0, "%s.prev", dump);
    snprintf(p1, sizeof p1, "%s.cur", dump);
    rename(p1, p0);
    FILE *fp = fopen(p1, "wb");
    if (fp) {
      fwrite(text, 1, n, fp);
      fclose(fp);
    }
  }
  char *copy = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(copy);
  memcpy(copy, text, n);
  boxlint_report_clear(f->plain);
  boxlint_report_clear(f->cached);
  boxlint_status a = boxlint_check_python(f->plain, copy, n, &f->opts, NULL);
  boxlint_status b = boxlint_check_python_cached(f->cache, f->cached, copy, n, &f->opts, NULL);
  ck_assert_msg(a == b, "%s: status %d, cached %d", what, (int)a, (int)b);
  same_reports(f->plain, f->cached, what);
  free(copy);
  return a;
}

/*----------------------------------------------------------------------------------------------
 * Edits
 *--------------------------------------------------------------------------------------------*/

typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void replace(text *t, size_t at, size_t del, const char *ins, size_t il) {
  if (at > t->n) at = t->n;
  if (del > t->n - at) del = t->n - at;
  if (t->n - del + il + 1 > t->cap) {
    t->cap = (t->n - del + il + 1) * 2;
    t->s = realloc(t->s, t->cap);
    ck_assert_ptr_nonnull(t->s);
  }
  memmove(t->s + at + il, t->s + at + del, t->n - at - del);
  memcpy(t->s + at, ins, il);
  t->n = t->n - del + il;
}

/* A place of a kind: inside a string (after a quote), inside a name, in a comment, anywhere. */
static size_t place(const text *t, int kind) {
  if (!t->n) return 0;
  for (int tries = 0; tries < 64; tries++) {
    size_t i = rnd((unsigned)t->n);
    unsigned char c = (unsigned char)t->s[i];
    if (kind == 0 && (c == '"' || c == '\'')) {
      size_t j = i + 1 + rnd(6);
      return j < t->n ? j : i;
    }
    if (kind == 1 && ((c >= 'a' && c <= 'z') || c == '_')) return i + rnd(2);
    if (kind == 2 && c == '#') return i + 1 + rnd(8) < t->n ? i + 1 + rnd(8) : i;
    if (kind == 3) return i;
  }
  return rnd((unsigned)t->n + 1);
}

/* One random edit, most of them as an editor makes them: a character typed or deleted. */
static void edit(text *t) {
  static const char plain[] = "abcdefghijklmnopqrstuvwxyz_ABCXYZ0123456789 -./:=${}";
  static const char odd[] = "\"'\\\n\r\t#()[]{},+*@\x01\xc3\xa9";
  unsigned w = rnd(20); /* strings 9 in 20, names 6, comments 2, anywhere 3 */
  int kind = w < 9 ? 0 : w < 15 ? 1 : w < 17 ? 2 : 3;
  size_t at = place(t, kind);
  unsigned op = rnd(10);
  char ins[8];
  size_t il = 0, del = 0;
  if (op < 6) {
    ins[il++] = plain[rnd(sizeof plain - 1)];
  } else if (op < 9 && rnd(4)) {
    del = 1 + (rnd(4) == 0 ? rnd(3) : 0);
    if (at >= del && rnd(2)) at -= del; /* a backspace */
  } else if (op < 9) {
    ins[il++] = odd[rnd(sizeof odd - 1)];
  } else {
    del = rnd(3);
    for (unsigned k = rnd(4); k > 0; k--) ins[il++] = plain[rnd(sizeof plain - 1)];
  }
  replace(t, at, del, ins, il);
}

static text load(const char *path) {
  text t = {NULL, 0, 0};
  FILE *fp = fopen(path, "rb");
  ck_assert_msg(fp != NULL, "%s", path);
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, fp)) > 0) replace(&t, t.n, 0, buf, k);
  fclose(fp);
  return t;
}

/* A file with many SDK calls: templates, bindings, policies, names bound once and reused,
 * suppressions, comments. */
static text generated(unsigned calls) {
  static const char *const cmds[] = {
      "RUN pip install --no-cache-dir rich", "pip install numpy", "RUN apt-get install -y curl",
      "ENV PYTHONUNBUFFERED=1", "WORKDIR /home/user", "USER root", "WORKDR /app",
      "RUN curl -fsSL https://example.com/x.sh | sh", "ENV API_KEY=sk-0123456789abcdef",
      "RUN sudo rm -rf /", "COPY a /b", "RUN echo ${HOME}"};
  static const char *const hosts[] = {"pypi.org", "*.pythonhosted.org", "bad host", "1.2.3.4",
                                      "10.0.0.0/8", "ALL_TRAFFIC", "github.com"};
  text t = {NULL, 0, 0};
  char line[512];
#define ADD(...)                                                                               \
  do {                                                                                         \
    int w_ = snprintf(line, sizeof line, __VA_ARGS__);                                         \
    replace(&t, t.n, 0, line, (size_t)w_);                                                     \
  } while (0)
  ADD("\"\"\"Generated.\"\"\"\nimport os\nfrom sdk import Client\n\nclient = Client()\n");
  ADD("BASE = [\"RUN pip install uv\", \"ENV A=1\"]\nALLOW = [\"pypi.org\", '%s']\n",
      hosts[rnd(7)]);
  ADD("POL = NetworkPolicy(type=\"filtered\", allow_out=ALLOW, deny_out=[\"ALL_TRAFFIC\"])\n");
  for (unsigned i = 0; i < calls; i++) {
    ADD("\n# %u. a template  # boxlint: ignore=sudo-usage\ndef build_%u(retries=%u):\n", i, i,
        rnd(5));
    ADD("    attempt = 0\n    while attempt < retries:\n        attempt += 1  # tries\n");
    ADD("        tpl = client.code_interpreter.templates.create(\n            name=\"job-%u\",\n",
        i);
    ADD("            commands=%s[\n", rnd(4) == 0 ? "BASE + " : "");
    for (unsigned k = 1 + rnd(4); k > 0; k--) {
      char q = rnd(3) ? '"' : '\'';
      ADD("                %s%c%s%c,%s\n", rnd(5) == 0 ? "r" : "", q, cmds[rnd(12)], q,
          rnd(4) ? "" : "  # boxlint: ignore=sudo-usage");
    }
    ADD("            ],\n            cpu_count=%u,\n            memory_mb=%u,\n        )\n",
        1u << rnd(4), 1024u * (1 + rnd(8)));
    if (rnd(3) == 0)
      ADD("    client.agents.add_code_interpreter(\"agent-%u\", tpl.id, network_policy=%s)\n", i,
          rnd(2) ? "POL" : "{\"type\": \"filtered\", \"allow_out\": [\"github.com\", \"bad host\"]}");
    ADD("    return tpl\n");
  }
#undef ADD
  return t;
}

/* `edits` random edits from t, each checked both ways; a text that stops being valid Python is
 * kept for a few edits (the cache sees the errors too), then the walk goes back. */
/* Is the text valid Python? (A broken file that cannot reach the SDK is quiet: no error.) */
static int parses(const char *s, size_t n) {
  boxlint__mem m;
  boxlint__mem_init(&m, NULL);
  bl_pyreader rd;
  int ok = bl_py_read(&rd, &m, s, n, BOXLINT_PYTHON_MINOR_DEFAULT) == 0 && !rd.err;
  bl_py_reader_free(&rd);
  return ok;
}

static void walk(fixture *f, text *t, unsigned edits, const char *name) {
  text good = {malloc(t->n + 1), t->n, t->n + 1};
  memcpy(good.s, t->s, t->n);
  char what[256];
  snprintf(what, sizeof what, "%s (original)", name);
  both(f, t->s, t->n, what);
  unsigned bad = 0;
  for (unsigned e = 0; e < edits; e++) {
    edit(t);
    snprintf(what, sizeof what, "%s, edit %u", name, e);
    /* a broken text (an error, or quiet when it cannot reach the SDK: its checks are whole
     * ones, it is not kept) is not one to go on from: two in a row and the walk goes back to
     * the last good */
    if (both(f, t->s, t->n, what) == BOXLINT_ESYNTAX || !parses(t->s, t->n) ||
        !bl_py_reaches_sdk(t->s, t->n, NULL)) {
      if (++bad > 1) {
        t->n = 0;
        replace(t, 0, 0, good.s, good.n);
        bad = 0;
      }
    } else {
      bad = 0;
      good.n = 0;
      replace(&good, 0, 0, t->s, t->n);
    }
  }
  free(good.s);
}

static void report_stats(const fixture *f, size_t total[4]) {
  size_t st[4];
  bl_py_cache_stats(f->cache, st);
  for (int i = 0; i < 4; i++) total[i] += st[i];
}

START_TEST(test_random_edits) {
  const char *env = getenv("BOXLINT_SEED");
  rng_state = env ? strtoull(env, NULL, 10) : 28;
  static const char *const files[] = {
      "/python/cases/literals.py", "/python/oracle/binding/dict_key_names.py",
      "/python/oracle/binding/builtins_shadow.py", "/../../examples/quickstart.py"};
  size_t total[4] = {0, 0, 0, 0};
  for (int cfg = 0; cfg < 2; cfg++) {
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
      fixture f;
      fx_init(&f, cfg);
      char path[1024];
      snprintf(path, sizeof path, "%s%s", BOXLINT_TEST_DATA, files[i]);
      text t = load(path);
      walk(&f, &t, 500, files[i]);
      report_stats(&f, total);
      free(t.s);
      fx_free(&f);
    }
    for (unsigned g = 0; g < 3; g++) {
      fixture f;
      fx_init(&f, cfg);
      text t = generated(8 + 8 * g);
      walk(&f, &t, 1000, "generated");
      report_stats(&f, total);
      free(t.s);
      fx_free(&f);
    }
  }
  fprintf(stderr, "python cache: %zu whole checks, %zu reused after a string edit, %zu after an "
                  "identifier edit, %zu unchanged\n", total[0], total[1], total[2], total[3]);
  ck_assert_uint_gt(total[1], 1000);
  ck_assert_uint_gt(total[2], 500);
}
END_TEST

/* The options and configs are compared by value: another config, other options, a config
 * freed and another made in its place, each give what a whole check gives. */
START_TEST(test_options_change) {
  fixture f;
  fx_init(&f, 1);
  rng_state = 7;
  text t = generated(6);
  both(&f, t.s, t.n, "first");
  ck_assert_int_eq(boxlint_config_set_severity(f.cfg, "sudo-usage", 10, BOXLINT_SEVERITY_OFF, NULL),
                   BOXLINT_OK);
  both(&f, t.s, t.n, "severity changed in place");
  f.opts.cpu_max = 2;
  both(&f, t.s, t.n, "cpu_max");
  boxlint_config_free(f.cfg);
  ck_assert_int_eq(boxlint_config_new(&f.cfg, NULL), BOXLINT_OK);
  f.opts.config = f.cfg;
  both(&f, t.s, t.n, "a new config");
  f.opts.config = NULL;
  both(&f, t.s, t.n, "no config");
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  po.unmatched = BOXLINT_UNMATCHED_DENY;
  boxlint_report_clear(f.plain);
  boxlint_report_clear(f.cached);
  boxlint_status a = boxlint_check_python(f.plain, t.s, t.n, &f.opts, &po);
  boxlint_status b = boxlint_check_python_cached(f.cache, f.cached, t.s, t.n, &f.opts, &po);
  ck_assert_int_eq(a, b);
  same_reports(f.plain, f.cached, "policy options");
  free(t.s);
  fx_free(&f);
}
END_TEST

/* A word typed into a command string, then erased, hundreds of times (as bench/lsp_edit.py
 * types), and the same into a name: the kept check is reused every time, its findings kept
 * compact (past 64 calls checked again), and always the whole check's. */
START_TEST(test_typing) {
  fixture f;
  fx_init(&f, 1);
  rng_state = 11;
  text t = generated(12);
  both(&f, t.s, t.n, "first");
  const char *where[] = {"\"RUN ", "attempt += 1"};
  for (int w = 0; w < 2; w++) {
    size_t at = (size_t)(strstr(t.s + t.n / 2, where[w]) - t.s) + (w ? 7 : 4);
    for (unsigned i = 0; i < 300; i++) {
      if (i % 10 < 5) {
        char ch = "sudoxyz_q"[rnd(9)];
        replace(&t, at + i % 10, 0, &ch, 1);
      } else {
        replace(&t, at + 4 - i % 10 + 5, 1, "", 0);
      }
      both(&f, t.s, t.n, w ? "typing in a name" : "typing in a command");
    }
  }
  size_t st[4];
  bl_py_cache_stats(f.cache, st);
  ck_assert_uint_eq(st[0], 1);
  ck_assert_uint_eq(st[1], 300);
  ck_assert_uint_eq(st[2], 300);
  free(t.s);
  fx_free(&f);
}
END_TEST

/* Edits that look like string edits and are not: quotes joined by a deletion in a triple-quoted
 * literal, a backslash's next byte, an escape cut short. */
START_TEST(test_string_edges) {
  fixture f;
  fx_init(&f, 1);
  static const char *const steps[] = {
      "\n\nc.code_interpreter.templates.update('i', commands=[\"\"\"RUN a\"b\"\"c\"\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=[\"\"\"RUN a\"\"\"c\"\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=[\"RUN \\x41 a\\\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=[\"RUN \\x4 a\\\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=[\"RUN \\x4z a\\\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=[\"RUN \\x4z a\\z\"\"])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=['''RUN sudo x''', 'WORKDR /'])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=['''RUN sudo x''', 'WORKDIR /'])\n",
      "\n\nc.code_interpreter.templates.update('i', commands=['''RUN sudo ''', 'WORKDIR /'])\n"};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
    both(&f, steps[i], strlen(steps[i]), steps[i]);
  fx_free(&f);
}
END_TEST

/* Whether the file reaches the SDK (and so whether its reflection is said) changes with an edit
 * of one string or one identifier: each step is checked as a whole check says it, and the
 * reflection's not-static comes and goes with the SDK's name. */
START_TEST(test_reach_edits) {
  fixture f;
  fx_init(&f, 1);
  static const struct {
    const char *text;
    size_t nstatic;
  } steps[] = {
      {"\n\nx = o.__dict__['a']\nm = __import__('buda')\n", 0},
      {"\n\nx = o.__dict__['a']\nm = __import__('budai')\n", 1},
      {"\n\nx = o.__dict__['a']\nm = __import__('budaj')\n", 0},
      {"\n\nx = o.__dict__['a']\nm = BudClien\n", 0},
      {"\n\nx = o.__dict__['a']\nm = BudClient\n", 1},
      {"\n\nx = o.__dict__['a']\nm = BudClient2\n", 0}};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    both(&f, steps[i].text, strlen(steps[i].text), steps[i].text);
    size_t ns = 0;
    for (size_t j = 0; j < boxlint_report_diag_count(f.cached); j++)
      ns += !strcmp(boxlint_report_diag(f.cached, j)->rule, "not-static");
    ck_assert_msg(ns == steps[i].nstatic, "%s: %zu not-static", steps[i].text, ns);
  }
  fx_free(&f);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("check_python_cache");
  TCase *tc = tcase_create("cache");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_random_edits);
  tcase_add_test(tc, test_options_change);
  tcase_add_test(tc, test_typing);
  tcase_add_test(tc, test_string_edges);
  tcase_add_test(tc, test_reach_edits);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
