/*
 * Unit tests of boxlint_apply_fixes and boxlint_buffer_free (boxlint/fix.h): the order fixes are
 * taken in, which ones conflict (overlaps, two insertions at one point, touching edits, fixes
 * out of range, NULL entries), the applied flags, the arguments refused, the allocator (used,
 * and failing at every allocation without leaking), inputs never written, and a randomised
 * comparison with a deliberately naive reference implementation written from the header's
 * contract.
 *
 * Decision pinned here: touching is not overlapping. Replacements of [a, b) and [b, c) are both
 * applied, and an insertion at either end of a replaced range is applied with it (before the
 * replacement at its start, after it at its end); only an insertion strictly inside a replaced
 * range, or a second insertion at the same offset, is left out.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxlint/boxlint.h"
#include "failing_alloc.h"
#include "guard_page.h"

/*==============================================================================================
 * Helpers
 *============================================================================================*/

#define FX(o, l, t) ((boxlint_fix){(o), (l), (t), sizeof(t) - 1, "test", BOXLINT_FIX_SAFE})

/* Apply `n` fixes to the string `in`; checks the status is OK, the output is NUL-terminated and
 * its length is right, and returns it (malloc'd copy) for comparison. */
static char *apply(const char *in, const boxlint_fix *const *fx, size_t n, unsigned char *applied) {
  char *out = (char *)1;
  size_t out_len = 12345;
  ck_assert_int_eq(boxlint_apply_fixes(in, strlen(in), fx, n, &out, &out_len, applied, NULL),
                   BOXLINT_OK);
  ck_assert_ptr_nonnull(out);
  ck_assert_uint_eq(strlen(out), out_len);
  char *copy = strdup(out);
  boxlint_buffer_free(out, NULL);
  return copy;
}

#define CHECK_APPLY(in, want, ...)                                                               \
  do {                                                                                           \
    const boxlint_fix *fx_[] = {__VA_ARGS__};                                                    \
    char *got_ = apply((in), fx_, sizeof fx_ / sizeof fx_[0], NULL);                             \
    ck_assert_str_eq(got_, (want));                                                              \
    free(got_);                                                                                  \
  } while (0)

/*==============================================================================================
 * Order and conflicts
 *============================================================================================*/

START_TEST(test_empty_list) {
  char *out = NULL;
  size_t len = 0;
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, NULL, 0, &out, &len, NULL, NULL), BOXLINT_OK);
  ck_assert_uint_eq(len, 3);
  ck_assert_str_eq(out, "abc");
  boxlint_buffer_free(out, NULL);
  /* An empty buffer (NULL, 0) with no fix: an empty, NUL-terminated result. */
  ck_assert_int_eq(boxlint_apply_fixes(NULL, 0, NULL, 0, &out, &len, NULL, NULL), BOXLINT_OK);
  ck_assert_uint_eq(len, 0);
  ck_assert_ptr_nonnull(out);
  ck_assert_int_eq(out[0], 0);
  boxlint_buffer_free(out, NULL);
  /* An insertion into an empty buffer. */
  boxlint_fix f = FX(0, 0, "RUN ");
  const boxlint_fix *p = &f;
  ck_assert_int_eq(boxlint_apply_fixes(NULL, 0, &p, 1, &out, &len, NULL, NULL), BOXLINT_OK);
  ck_assert_str_eq(out, "RUN ");
  boxlint_buffer_free(out, NULL);
  boxlint_buffer_free(NULL, NULL); /* a no-op */
}
END_TEST

START_TEST(test_one_edit) {
  boxlint_fix ins = FX(0, 0, "RUN "), rep = FX(0, 7, "WORKDIR"), del = FX(3, 1, "");
  CHECK_APPLY("pip install x", "RUN pip install x", &ins);
  CHECK_APPLY("WROKDIR /x", "WORKDIR /x", &rep);
  CHECK_APPLY("abc\\", "abc", &del);
  boxlint_fix end = FX(4, 0, "\n"); /* an insertion at the very end */
  CHECK_APPLY("abcd", "abcd\n", &end);
  boxlint_fix all = FX(0, 4, "z"); /* the whole buffer */
  CHECK_APPLY("abcd", "z", &all);
}
END_TEST

START_TEST(test_several_reverse_order) {
  /* Given last first: applied by offset all the same, with offsets of the original buffer. */
  boxlint_fix a = FX(0, 1, "A"), b = FX(2, 1, "BB"), c = FX(4, 1, ""), d = FX(6, 0, "!");
  unsigned char ap[4];
  const boxlint_fix *fx[] = {&d, &c, &b, &a};
  char *got = apply("a-b-c-", fx, 4, ap);
  ck_assert_str_eq(got, "A-BB--!");
  free(got);
  for (int i = 0; i < 4; i++) ck_assert_int_eq(ap[i], 1);
}
END_TEST

START_TEST(test_overlaps) {
  /* [2,5) and [4,6): the first by offset wins, whatever the input order. */
  boxlint_fix a = FX(2, 3, "X"), b = FX(4, 2, "Y");
  unsigned char ap[2];
  const boxlint_fix *fx[] = {&b, &a};
  char *got = apply("0123456", fx, 2, ap);
  ck_assert_str_eq(got, "01X56");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 1);
  /* Same start, both replacements: the first in input order wins. */
  boxlint_fix c = FX(1, 2, "C"), d = FX(1, 1, "D");
  const boxlint_fix *fx2[] = {&c, &d};
  got = apply("0123", fx2, 2, ap);
  ck_assert_str_eq(got, "0C3");
  free(got);
  ck_assert_int_eq(ap[0], 1);
  ck_assert_int_eq(ap[1], 0);
  /* One range inside another. */
  boxlint_fix outer = FX(0, 4, "O"), inner = FX(1, 1, "I");
  const boxlint_fix *fx3[] = {&inner, &outer};
  got = apply("0123", fx3, 2, ap);
  ck_assert_str_eq(got, "O");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 1);
  /* An insertion strictly inside a replaced range is left out. */
  boxlint_fix ins = FX(2, 0, "+");
  const boxlint_fix *fx4[] = {&ins, &outer};
  got = apply("0123", fx4, 2, ap);
  ck_assert_str_eq(got, "O");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 1);
}
END_TEST

/*==============================================================================================
 * Safe and unsafe fixes: every producer of a fix in the library, and what it is marked
 *============================================================================================*/

/* The one finding of `rule` in `r`, checked: position, message, fix text and safety. */
static void expect_fix(const boxlint_report *r, const char *rule, uint32_t line, uint32_t col,
                       const char *message, const char *text, boxlint_fix_safety safety) {
  const boxlint_diag *d = NULL;
  for (size_t i = 0; i < boxlint_report_diag_count(r); i++)
    if (!strcmp(boxlint_report_diag(r, i)->rule, rule)) {
      ck_assert_msg(!d, "two %s findings", rule);
      d = boxlint_report_diag(r, i);
    }
  ck_assert_msg(d != NULL, "no %s finding", rule);
  ck_assert_uint_eq(d->line, line);
  ck_assert_uint_eq(d->column, col);
  ck_assert_str_eq(d->message, message);
  ck_assert_ptr_nonnull(d->fix);
  ck_assert_str_eq(d->fix->text, text);
  ck_assert_int_eq(d->fix->safety, safety);
}

START_TEST(test_safety_dockerfile) {
  boxlint_report *r = NULL;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  /* safe: the template is rejected as written; the line becomes the command it reads as */
  const char *frag = "pip install x\n";
  ck_assert_int_eq(boxlint_check_fragment(r, frag, strlen(frag), NULL), BOXLINT_OK);
  expect_fix(r, "unknown-instruction", 1, 1, "unknown instruction: pip", "RUN ",
             BOXLINT_FIX_SAFE);
  boxlint_report_clear(r);
  frag = "RUN a\nWROKDIR /x\n";
  ck_assert_int_eq(boxlint_check_fragment(r, frag, strlen(frag), NULL), BOXLINT_OK);
  expect_fix(r, "unknown-instruction", 2, 1, "unknown instruction: WROKDIR", "WORKDIR",
             BOXLINT_FIX_SAFE);
  boxlint_report_clear(r);
  /* safe: the trailing escape would join the next command onto this one */
  boxlint_span cmd = {"RUN a \\", 7};
  ck_assert_int_eq(boxlint_check_commands(r, &cmd, 1, NULL), BOXLINT_OK);
  expect_fix(r, "dangling-continuation", 1, 7,
             "the command ends inside a line continuation: BuildKit would join the next command "
             "onto this instruction",
             "", BOXLINT_FIX_SAFE);
  boxlint_report_clear(r);
  /* safe: the base's own instructions are unchanged by a final newline */
  boxlint_base_info bi;
  ck_assert_int_eq(boxlint_check_base(&bi, r, "RUN a", 5), BOXLINT_OK);
  expect_fix(r, "base-not-appendable", 1, 6,
             "the base does not end with a newline: the first command would be joined onto its "
             "last line",
             "\n", BOXLINT_FIX_SAFE);
  boxlint_report_free(r);
}
END_TEST

START_TEST(test_safety_template_and_policy) {
  boxlint_report *r = NULL;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  /* unsafe: the slug is a name its author did not write, and code elsewhere uses the name */
  boxlint_span cmd = {"RUN a", 5};
  boxlint_template t;
  memset(&t, 0, sizeof t);
  t.name = (boxlint_span){"My Tpl", 6};
  t.has_name = 1;
  t.commands = &cmd;
  t.ncommands = 1;
  t.has_commands = 1;
  t.cpu_count = (boxlint_number){1, 1, 2, NULL};
  t.memory_mb = (boxlint_number){1, 1, 1024, NULL};
  ck_assert_int_eq(boxlint_check_template(r, &t, NULL), BOXLINT_OK);
  expect_fix(r, "invalid-name", 0, 0,
             "template name \"My Tpl\" may only hold a-z, 0-9, '-' and '_'", "my-tpl",
             BOXLINT_FIX_UNSAFE);
  boxlint_report_clear(r);
  /* unsafe: ALL_TRAFFIC turns egress from allow-all into deny-all but allow_out; safe: the
   * A-label is the name browsers look up, the same destination */
  boxlint_span allow[] = {{"pypi.org", 8}, {"b\xc3\xbc" "cher.de", 10}};
  boxlint_policy_spec spec = {{"filtered", 8}, allow, 1, NULL, 0};
  boxlint_policy *p = NULL;
  ck_assert_int_eq(boxlint_policy_new(&p, r, &spec, NULL, NULL), BOXLINT_OK);
  boxlint_policy_free(p);
  expect_fix(r, "allow-without-effect", 0, 0,
             "allow_out[0]: 'pypi.org' has no effect: no deny_out entry overlaps it, and "
             "destinations matched by neither list are allowed",
             "ALL_TRAFFIC", BOXLINT_FIX_UNSAFE);
  boxlint_report_clear(r);
  spec.n_allow = 2;
  ck_assert_int_eq(boxlint_policy_new(&p, r, &spec, NULL, NULL), BOXLINT_ESYNTAX);
  expect_fix(r, "invalid-policy-entry", 0, 0,
             "allow_out[1]: 'b\xc3\xbc" "cher.de' is not ASCII; its A-label is 'xn--bcher-kva.de'",
             "xn--bcher-kva.de", BOXLINT_FIX_SAFE);
  boxlint_report_free(r);
}
END_TEST

START_TEST(test_safety_python) {
  /* Python carries each fix into the file with the safety it had */
  const char *py = "from budai import BudClient\n"
                   "client = BudClient()\n"
                   "client.agents.add_code_interpreter(\n"
                   "    \"prm_abc\", template_id=\"t\", version=1, lifespan_seconds=1200,\n"
                   "    network_policy={\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], "
                   "\"deny_out\": []},\n)\n"
                   "client.code_interpreter.templates.create(name=\"t\", "
                   "commands=[\"pip install x\"], cpu_count=2, memory_mb=1024)\n";
  boxlint_report *r = NULL;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_check_python(r, py, strlen(py), NULL, NULL), BOXLINT_OK);
  expect_fix(r, "allow-without-effect", 5, 55,
             "allow_out[0]: 'pypi.org' has no effect: no deny_out entry overlaps it, and "
             "destinations matched by neither list are allowed",
             "\"ALL_TRAFFIC\"", BOXLINT_FIX_UNSAFE);
  expect_fix(r, "unknown-instruction", 7, 63, "unknown instruction: pip", "RUN ",
             BOXLINT_FIX_SAFE);
  boxlint_report_free(r);
}
END_TEST

START_TEST(test_safety_not_filtered_by_apply) {
  /* boxlint_apply_fixes applies what it is given, unsafe or not: choosing is the caller's */
  boxlint_fix u = FX(0, 0, "x");
  u.safety = BOXLINT_FIX_UNSAFE;
  CHECK_APPLY("ab", "xab", &u);
}
END_TEST

START_TEST(test_two_insertions_one_point) {
  /* Their order would be a guess: only the first in input order is applied; the other waits
   * for the next run. */
  boxlint_fix a = FX(1, 0, "A"), b = FX(1, 0, "B"), c = FX(1, 0, "A");
  unsigned char ap[3];
  const boxlint_fix *fx[] = {&b, &a, &c};
  char *got = apply("xy", fx, 3, ap);
  ck_assert_str_eq(got, "xBy");
  free(got);
  ck_assert_int_eq(ap[0], 1);
  ck_assert_int_eq(ap[1], 0);
  ck_assert_int_eq(ap[2], 0); /* even an identical one */
}
END_TEST

START_TEST(test_adjacent) {
  /* Touching is not overlapping: [0,2) then [2,4) are both applied. */
  boxlint_fix a = FX(0, 2, "A"), b = FX(2, 2, "B");
  unsigned char ap[2];
  const boxlint_fix *fx[] = {&b, &a};
  char *got = apply("0123", fx, 2, ap);
  ck_assert_str_eq(got, "AB");
  free(got);
  ck_assert_int_eq(ap[0], 1);
  ck_assert_int_eq(ap[1], 1);
  /* An insertion at the start of a replacement goes before it, whatever the input order; one
   * at its end goes after it. */
  boxlint_fix r = FX(1, 2, "R"), s = FX(1, 0, "<"), e = FX(3, 0, ">");
  const boxlint_fix *fx2[] = {&r, &e, &s};
  unsigned char ap3[3];
  got = apply("0123", fx2, 3, ap3);
  ck_assert_str_eq(got, "0<R>3");
  free(got);
  for (int i = 0; i < 3; i++) ck_assert_int_eq(ap3[i], 1);
  /* A deletion followed by an insertion where it ended. */
  boxlint_fix del = FX(0, 2, ""), ins = FX(2, 0, "I");
  CHECK_APPLY("0123", "I23", &ins, &del);
}
END_TEST

START_TEST(test_out_of_range) {
  boxlint_fix past = FX(4, 0, "x"), longer = FX(2, 3, "y"), huge = FX(1, SIZE_MAX, "z"),
              far = FX(SIZE_MAX, 1, "w"), ok = FX(3, 0, "!");
  unsigned char ap[5];
  const boxlint_fix *fx[] = {&past, &longer, &huge, &far, &ok};
  char *got = apply("abc", fx, 5, ap);
  ck_assert_str_eq(got, "abc!");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 0);
  ck_assert_int_eq(ap[2], 0);
  ck_assert_int_eq(ap[3], 0);
  ck_assert_int_eq(ap[4], 1);
  /* A replacement text missing with a length: not applied; missing and empty: a deletion. */
  boxlint_fix notext = {0, 1, NULL, 2, "bad", BOXLINT_FIX_SAFE},
              deletion = {1, 1, NULL, 0, "delete", BOXLINT_FIX_SAFE};
  const boxlint_fix *fx2[] = {&notext, &deletion};
  got = apply("abc", fx2, 2, ap);
  ck_assert_str_eq(got, "ac");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 1);
}
END_TEST

START_TEST(test_null_entries) {
  boxlint_fix a = FX(0, 1, "A");
  unsigned char ap[3] = {7, 7, 7};
  const boxlint_fix *fx[] = {NULL, &a, NULL};
  char *got = apply("abc", fx, 3, ap);
  ck_assert_str_eq(got, "Abc");
  free(got);
  ck_assert_int_eq(ap[0], 0);
  ck_assert_int_eq(ap[1], 1);
  ck_assert_int_eq(ap[2], 0);
}
END_TEST

START_TEST(test_einval) {
  boxlint_fix a = FX(0, 1, "A");
  const boxlint_fix *fx[] = {&a};
  char *out = (char *)1;
  size_t len = 9;
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, fx, 1, NULL, &len, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_uint_eq(len, 0);
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, fx, 1, &out, NULL, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(out);
  ck_assert_int_eq(boxlint_apply_fixes(NULL, 3, fx, 1, &out, &len, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(out);
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, NULL, 1, &out, &len, NULL, NULL), BOXLINT_EINVAL);
  ck_assert_ptr_null(out);
}
END_TEST

/* The input and the fix array are never written: the buffer is read-only memory ending at an
 * unreadable page, the array and the fixes are compared before and after. */
START_TEST(test_inputs_not_written) {
  static const char src[] = "WROKDIR /x";
  guarded g = guard(src, sizeof src - 1);
  boxlint_fix a = FX(0, 7, "WORKDIR"), b = FX(10, 0, "\n"), c = FX(9, 1, "y");
  const boxlint_fix *fx[] = {&b, &c, &a};
  const boxlint_fix *before[3];
  memcpy(before, fx, sizeof fx);
  boxlint_fix copies[3] = {a, b, c};
  char *out;
  size_t len;
  ck_assert_int_eq(boxlint_apply_fixes(g.p, sizeof src - 1, fx, 3, &out, &len, NULL, NULL),
                   BOXLINT_OK);
  ck_assert_str_eq(out, "WORKDIR /y\n");
  boxlint_buffer_free(out, NULL);
  ck_assert(!memcmp(before, fx, sizeof fx));
  ck_assert(!memcmp(&copies[0], &a, sizeof a) && !memcmp(&copies[1], &b, sizeof b) &&
            !memcmp(&copies[2], &c, sizeof c));
  unguard(&g);
}
END_TEST

/*==============================================================================================
 * The allocator
 *============================================================================================*/

START_TEST(test_allocator_used) {
  failer f = {.left = -1};
  boxlint_alloc a = failer_alloc(&f);
  boxlint_fix x = FX(0, 1, "X"), y = FX(2, 0, "Y");
  const boxlint_fix *fx[] = {&y, &x};
  char *out;
  size_t len;
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, fx, 2, &out, &len, NULL, &a), BOXLINT_OK);
  ck_assert_str_eq(out, "XbYc");
  ck_assert_int_ge(f.calls, 1); /* the output at least comes from the allocator */
  ck_assert_int_ge(f.live, 1);
  boxlint_buffer_free(out, &a);
  ck_assert_int_eq(f.live, 0);
}
END_TEST

START_TEST(test_allocator_fails) {
  boxlint_fix x = FX(0, 1, "X"), y = FX(2, 0, "Y"), z = FX(2, 0, "Z");
  const boxlint_fix *fx[] = {&y, &x, &z};
  int succeeded = 0;
  for (long k = 0; k < 10 && !succeeded; k++) {
    failer f = {.left = k};
    boxlint_alloc a = failer_alloc(&f);
    char *out = (char *)1;
    size_t len = 5;
    unsigned char ap[3] = {9, 9, 9};
    boxlint_status st = boxlint_apply_fixes("abc", 3, fx, 3, &out, &len, ap, &a);
    if (st == BOXLINT_OK) {
      succeeded = 1;
      ck_assert_int_ge(k, 1); /* the first allocation failing cannot have gone unnoticed */
      ck_assert_str_eq(out, "XbYc");
      ck_assert_int_eq(ap[0], 1);
      ck_assert_int_eq(ap[1], 1);
      ck_assert_int_eq(ap[2], 0);
      boxlint_buffer_free(out, &a);
    } else {
      ck_assert_int_eq(st, BOXLINT_ENOMEM);
      ck_assert_ptr_null(out);
      ck_assert_uint_eq(len, 0);
      for (int i = 0; i < 3; i++) ck_assert_int_eq(ap[i], 0); /* nothing claimed applied */
    }
    ck_assert_int_eq(f.live, 0);
  }
  ck_assert(succeeded);
  /* With no fix at all, the output's allocation failing is still ENOMEM. */
  failer f = {.left = 0};
  boxlint_alloc a = failer_alloc(&f);
  char *out;
  size_t len;
  ck_assert_int_eq(boxlint_apply_fixes("abc", 3, NULL, 0, &out, &len, NULL, &a), BOXLINT_ENOMEM);
  ck_assert_ptr_null(out);
  ck_assert_int_eq(f.live, 0);
}
END_TEST

/*==============================================================================================
 * Against a reference implementation
 *============================================================================================*/

/* Written from the header's words, not from fix.c: order the fixes (offset; insertions first;
 * input order) with an insertion sort, take each one that does not conflict with any taken
 * before (pairwise test), then apply the taken ones from the last to the first on a copy. */
static int ref_conflict(const boxlint_fix *t, const boxlint_fix *f) {
  size_t te = t->offset + t->length, fe = f->offset + f->length;
  if (t->length && f->length) return f->offset < te && t->offset < fe;
  if (!t->length && !f->length) return t->offset == f->offset;
  if (!f->length) return t->offset < f->offset && f->offset < te; /* f inside t */
  return f->offset < t->offset && t->offset < fe;                 /* t inside f */
}

static int ref_before(const boxlint_fix *a, size_t ia, const boxlint_fix *b, size_t ib) {
  if (a->offset != b->offset) return a->offset < b->offset;
  if ((a->length == 0) != (b->length == 0)) return a->length == 0;
  return ia < ib;
}

static size_t ref_apply(const char *in, size_t len, const boxlint_fix *const *fx, size_t n,
                        char *out, unsigned char *ap) {
  size_t order[16], no = 0;
  for (size_t i = 0; i < n; i++) {
    ap[i] = 0;
    const boxlint_fix *f = fx[i];
    if (!f || f->offset > len || f->offset + f->length > len || (!f->text && f->text_len))
      continue;
    size_t j = no++;
    while (j > 0 && ref_before(f, i, fx[order[j - 1]], order[j - 1])) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  size_t taken[16], nt = 0;
  for (size_t i = 0; i < no; i++) {
    int ok = 1;
    for (size_t j = 0; j < nt && ok; j++) ok = !ref_conflict(fx[taken[j]], fx[order[i]]);
    if (ok) taken[nt++] = order[i];
  }
  memcpy(out, in, len);
  size_t cur = len;
  for (size_t k = nt; k-- > 0;) {
    const boxlint_fix *f = fx[taken[k]];
    memmove(out + f->offset + f->text_len, out + f->offset + f->length,
            cur - f->offset - f->length);
    memcpy(out + f->offset, f->text, f->text_len);
    cur = cur - f->length + f->text_len;
    ap[taken[k]] = 1;
  }
  return cur;
}

static uint64_t rng(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

START_TEST(test_against_reference) {
  static const char *const texts[] = {"", "a", "BC", "xyz", "\n", "RUN "};
  uint64_t s = 0x9E3779B97F4A7C15u;
  char in[16], ref[256];
  for (int iter = 0; iter < 200000; iter++) {
    size_t len = (size_t)(rng(&s) % 12);
    for (size_t i = 0; i < len; i++) in[i] = (char)('a' + rng(&s) % 26);
    size_t n = (size_t)(rng(&s) % 9);
    boxlint_fix fixes[16];
    const boxlint_fix *fx[16];
    for (size_t i = 0; i < n; i++) {
      const char *t = texts[rng(&s) % 6];
      fixes[i].offset = (size_t)(rng(&s) % (len + 3));
      fixes[i].length = (size_t)(rng(&s) % 5 == 0 ? rng(&s) % 5 : rng(&s) % 2);
      fixes[i].text = t;
      fixes[i].text_len = strlen(t);
      fixes[i].description = "random";
      fx[i] = rng(&s) % 10 == 0 ? NULL : &fixes[i];
    }
    unsigned char ap[16], rap[16];
    size_t rlen = ref_apply(in, len, fx, n, ref, rap);
    char *out;
    size_t out_len;
    ck_assert_int_eq(boxlint_apply_fixes(len ? in : NULL, len, fx, n, &out, &out_len, ap, NULL),
                     BOXLINT_OK);
    ck_assert_msg(out_len == rlen && !memcmp(out, ref, rlen) && out[out_len] == 0,
                  "iteration %d: got '%.*s', reference '%.*s'", iter, (int)out_len, out,
                  (int)rlen, ref);
    ck_assert_msg(!memcmp(ap, rap, n), "iteration %d: applied flags differ", iter);
    boxlint_buffer_free(out, NULL);
  }
}
END_TEST

/*==============================================================================================
 * Runner
 *============================================================================================*/

static Suite *fix_suite(void) {
  Suite *s = suite_create("fix");
  TCase *tc = tcase_create("apply");
  tcase_add_test(tc, test_empty_list);
  tcase_add_test(tc, test_one_edit);
  tcase_add_test(tc, test_several_reverse_order);
  tcase_add_test(tc, test_overlaps);
  tcase_add_test(tc, test_two_insertions_one_point);
  tcase_add_test(tc, test_safety_dockerfile);
  tcase_add_test(tc, test_safety_template_and_policy);
  tcase_add_test(tc, test_safety_python);
  tcase_add_test(tc, test_safety_not_filtered_by_apply);
  tcase_add_test(tc, test_adjacent);
  tcase_add_test(tc, test_out_of_range);
  tcase_add_test(tc, test_null_entries);
  tcase_add_test(tc, test_einval);
  tcase_add_test(tc, test_inputs_not_written);
  suite_add_tcase(s, tc);

  tc = tcase_create("alloc");
  tcase_add_test(tc, test_allocator_used);
  tcase_add_test(tc, test_allocator_fails);
  suite_add_tcase(s, tc);

  tc = tcase_create("reference");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_against_reference);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(fix_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
