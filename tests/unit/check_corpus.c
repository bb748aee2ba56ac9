/*
 * Completeness and fidelity on real input (docs/design.md §1):
 *  - every file of tests/data/corpus/real-dockerfiles is split into exactly the instructions of
 *    EXPECTED.jsonl (keyword, first and last line, flags, exec form, heredoc names);
 *  - every instruction that is not denied, checked as a command, gets no error, except
 *    command-too-long on instructions longer than 4096 bytes;
 *  - the BuildKit parser fixtures split into the instructions of their `result` dumps, and the
 *    negative fixtures are not accepted.
 * The corpus is in the repository (tests/data/corpus/README.md says where it came from).
 */
#include <check.h>
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include "boxlint/boxlint.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) b[n] = 0;
  *len = (size_t)n;
  return b;
}

static void lower(char *s) {
  for (; *s; s++)
    if (*s >= 'A' && *s <= 'Z') *s = (char)(*s + 32);
}

/* Keyword of an instruction as BuildKit's AST names it, lower-cased. */
static void kw_of(const boxlint_instruction *in, char *out, size_t cap) {
  if (in->keyword)
    snprintf(out, cap, "%s", boxlint_keyword_name(in->keyword));
  else
    snprintf(out, cap, "%.*s", (int)in->keyword_text.len, in->keyword_text.ptr);
  lower(out);
}

static int is_denied_kw(const char *kw) {
  return !strcmp(kw, "from") || !strcmp(kw, "copy") || !strcmp(kw, "add") || !strcmp(kw, "cmd") ||
         !strcmp(kw, "entrypoint");
}

START_TEST(test_corpus_real_dockerfiles) {
  char path[4096];
  snprintf(path, sizeof path, "%s/real-dockerfiles/EXPECTED.jsonl", BOXLINT_CORPUS_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "corpus missing: cannot open %s", path);
  char line[1 << 16];
  size_t files = 0, instructions = 0, mismatched_files = 0, false_errors = 0, too_long = 0;
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  char *big = NULL;
  size_t bigcap = 0;
  while (1) {
    /* lines can be long: read with getline-like growth */
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
      if (n + 2 > bigcap) {
        bigcap = bigcap ? bigcap * 2 : sizeof line;
        big = realloc(big, bigcap);
        ck_assert_ptr_nonnull(big);
      }
      big[n++] = (char)c;
    }
    if (c == EOF && n == 0) break;
    big[n] = 0;
    json_error_t je;
    json_t *e = json_loads(big, 0, &je);
    ck_assert_msg(e != NULL, "EXPECTED.jsonl: %s", je.text);
    const char *file = json_string_value(json_object_get(e, "file"));
    int buildkit_error = !json_is_null(json_object_get(e, "error"));
    snprintf(path, sizeof path, "%s/real-dockerfiles/%s", BOXLINT_CORPUS_DIR, file);
    size_t len;
    char *text = slurp(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    files++;

    /* 1. The split. */
    boxlint_report_clear(r);
    ck_assert_int_eq(boxlint_split_fragment(r, text, len, NULL), BOXLINT_OK);
    json_t *want = json_object_get(e, "instructions");
    size_t nwant = json_array_size(want), ngot = boxlint_report_instruction_count(r);
    instructions += nwant;
    int mismatch = nwant != ngot;
    for (size_t i = 0; !mismatch && i < nwant; i++) {
      json_t *w = json_array_get(want, i);
      const boxlint_instruction *in = boxlint_report_instruction(r, i);
      char kw[256];
      kw_of(in, kw, sizeof kw);
      if (strcmp(kw, json_string_value(json_object_get(w, "kw"))) ||
          in->line != json_integer_value(json_object_get(w, "start")) ||
          in->end_line != json_integer_value(json_object_get(w, "end")) ||
          in->json != json_is_true(json_object_get(w, "json"))) {
        mismatch = 1;
        fprintf(stderr, "%s: instruction %zu: got %s %u-%u json=%d\n", file, i, kw, in->line,
                in->end_line, in->json);
        break;
      }
      json_t *flags = json_object_get(w, "flags");
      if (json_array_size(flags) != in->nflags) mismatch = 1;
      for (size_t k = 0; !mismatch && k < in->nflags; k++) {
        const char *fw = json_string_value(json_array_get(flags, k));
        if (strlen(fw) != in->flags[k].len || memcmp(fw, in->flags[k].ptr, in->flags[k].len))
          mismatch = 1;
      }
      json_t *hds = json_object_get(w, "heredocs");
      if (json_array_size(hds) != in->nheredocs) mismatch = 1;
      for (size_t k = 0; !mismatch && k < in->nheredocs; k++) {
        const char *hw = json_string_value(json_array_get(hds, k));
        if (strlen(hw) != in->heredocs[k].name.len ||
            memcmp(hw, in->heredocs[k].name.ptr, in->heredocs[k].name.len))
          mismatch = 1;
      }
      if (mismatch) fprintf(stderr, "%s: instruction %zu: flags or heredocs differ\n", file, i);
    }
    if (mismatch) {
      mismatched_files++;
      fprintf(stderr, "%s: split differs from BuildKit (%zu instructions, expected %zu)\n", file,
              ngot, nwant);
    }

    /* 2. Each instruction checked as a command: no error but the expected ones. */
    if (!buildkit_error && !mismatch) {
      boxlint_report_clear(r);
      ck_assert_int_eq(boxlint_check_fragment(r, text, len, NULL), BOXLINT_OK);
      for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
        const boxlint_diag *d = boxlint_report_diag(r, i);
        if (d->severity != BOXLINT_SEVERITY_ERROR) continue;
        ck_assert_int_ge(d->command, 0);
        json_t *w = json_array_get(want, (size_t)d->command);
        const char *kw = json_string_value(json_object_get(w, "kw"));
        const boxlint_instruction *in = boxlint_report_instruction(r, (size_t)d->command);
        if (!strcmp(d->rule, "denied-instruction") && is_denied_kw(kw)) continue;
        if (!strcmp(d->rule, "command-too-long") && in->text.len > 4096) {
          too_long++;
          continue;
        }
        false_errors++;
        fprintf(stderr, "%s:%u:%u: false error [%s] %s\n", file, d->line, d->column, d->rule,
                d->message);
      }
    }
    free(text);
    json_decref(e);
  }
  free(big);
  fclose(f);
  boxlint_report_free(r);
  printf("real corpus: %zu files, %zu instructions, %zu files split differently, %zu false "
         "errors, %zu command-too-long\n", files, instructions, mismatched_files, false_errors,
         too_long);
  ck_assert_uint_eq(files, 246);
  ck_assert_uint_eq(mismatched_files, 0);
  ck_assert_uint_eq(false_errors, 0);
  ck_assert_uint_eq(too_long, 26);
}
END_TEST

/* Keywords of a `result` dump: the first word after '(' on each line. */
static size_t result_keywords(const char *text, char kws[][32], size_t cap) {
  size_t n = 0;
  for (const char *p = text; *p && n < cap;) {
    const char *e = strchr(p, '\n');
    if (!e) e = p + strlen(p);
    if (*p == '(') {
      size_t k = 0;
      p++;
      while (p < e && *p != ' ' && *p != ')' && k < 31) kws[n][k++] = *p++;
      kws[n][k] = 0;
      n++;
    }
    p = *e ? e + 1 : e;
  }
  return n;
}

START_TEST(test_corpus_buildkit_fixtures) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/buildkit-fixtures/testfiles", BOXLINT_CORPUS_DIR);
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "fixtures missing: cannot open %s", dir);
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  struct dirent *de;
  size_t cases = 0, bad = 0;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.') continue;
    char p[8192];
    size_t dl, rl;
    snprintf(p, sizeof p, "%s/%s/Dockerfile", dir, de->d_name);
    char *df = slurp(p, &dl);
    snprintf(p, sizeof p, "%s/%s/result", dir, de->d_name);
    char *res = slurp(p, &rl);
    if (!df || !res) {
      free(df);
      free(res);
      continue;
    }
    cases++;
    static char want[512][32];
    size_t nwant = result_keywords(res, want, 512);
    boxlint_report_clear(r);
    ck_assert_int_eq(boxlint_split_fragment(r, df, dl, NULL), BOXLINT_OK);
    size_t ngot = boxlint_report_instruction_count(r);
    int ok = ngot == nwant;
    for (size_t i = 0; ok && i < ngot; i++) {
      char kw[256];
      kw_of(boxlint_report_instruction(r, i), kw, sizeof kw);
      if (strcmp(kw, want[i])) {
        ok = 0;
        fprintf(stderr, "fixture %s: instruction %zu is %s, expected %s\n", de->d_name, i, kw,
                want[i]);
      }
    }
    if (!ok) {
      bad++;
      fprintf(stderr, "fixture %s: %zu instructions, expected %zu\n", de->d_name, ngot, nwant);
    }
    free(df);
    free(res);
  }
  closedir(d);
  boxlint_report_free(r);
  printf("buildkit fixtures: %zu cases, %zu split differently\n", cases, bad);
  ck_assert_uint_eq(cases, 33);
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* The fixture of TestParseIncludesLineNumbers: (5,5), (11,12), (17,31). */
START_TEST(test_corpus_line_numbers) {
  char p[4096];
  size_t len;
  snprintf(p, sizeof p, "%s/buildkit-fixtures/testfile-line/Dockerfile", BOXLINT_CORPUS_DIR);
  char *df = slurp(p, &len);
  ck_assert_msg(df != NULL, "fixture missing: %s", p);
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_split_fragment(r, df, len, NULL), BOXLINT_OK);
  ck_assert_uint_eq(boxlint_report_instruction_count(r), 3);
  static const unsigned want[3][2] = {{5, 5}, {11, 12}, {17, 31}};
  for (size_t i = 0; i < 3; i++) {
    ck_assert_uint_eq(boxlint_report_instruction(r, i)->line, want[i][0]);
    ck_assert_uint_eq(boxlint_report_instruction(r, i)->end_line, want[i][1]);
  }
  boxlint_report_free(r);
  free(df);
}
END_TEST

/* Negative fixtures: BuildKit rejects each; boxlint must not accept any of them as commands. */
START_TEST(test_corpus_negative_fixtures) {
  static const char *names[] = {"empty_dockerfile", "env_no_value", "only_comments",
                                "shykes-nested-json"};
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  for (size_t i = 0; i < 4; i++) {
    char p[4096];
    size_t len;
    snprintf(p, sizeof p, "%s/buildkit-fixtures/testfiles-negative/%s/Dockerfile",
             BOXLINT_CORPUS_DIR, names[i]);
    char *df = slurp(p, &len);
    ck_assert_msg(df != NULL, "fixture missing: %s", p);
    boxlint_report_clear(r);
    ck_assert_int_eq(boxlint_check_fragment(r, df, len, NULL), BOXLINT_OK);
    size_t errors = boxlint_report_count_at_least(r, BOXLINT_SEVERITY_ERROR);
    size_t ninstr = boxlint_report_instruction_count(r);
    if (i == 0 || i == 2) {
      ck_assert_msg(ninstr == 0, "%s: expected no instruction, got %zu", names[i], ninstr);
    } else {
      int found = 0;
      for (size_t k = 0; k < boxlint_report_diag_count(r); k++) {
        const boxlint_diag *d = boxlint_report_diag(r, k);
        found |= !strcmp(d->rule, "invalid-arguments");
      }
      ck_assert_msg(errors > 0 && found, "%s: expected an invalid-arguments error", names[i]);
    }
    free(df);
  }
  boxlint_report_free(r);
}
END_TEST

/* The real corpus file by file, in EXPECTED.jsonl's order: open it with corpus_open, then
 * corpus_next gives each file's text (malloc'd, *len bytes) and NULL after the last. */
static FILE *corpus_open(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/real-dockerfiles/EXPECTED.jsonl", BOXLINT_CORPUS_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "corpus missing: cannot open %s", path);
  return f;
}

static char *corpus_next(FILE *f, size_t *len) {
  static char buf[1 << 20];
  if (!fgets(buf, sizeof buf, f)) return NULL;
  json_t *e = json_loads(buf, 0, NULL);
  ck_assert_ptr_nonnull(e);
  char path[4096];
  snprintf(path, sizeof path, "%s/real-dockerfiles/%s", BOXLINT_CORPUS_DIR,
           json_string_value(json_object_get(e, "file")));
  json_decref(e);
  char *text = slurp(path, len);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  return text;
}

/*
 * Precision of the warnings on real Dockerfiles: every file of the real corpus checked as a
 * fragment with the default configuration; the count per warning must equal the checked-in
 * expectation (tests/data/warnings-corpus.expected), so a change in precision shows in review.
 */
START_TEST(test_corpus_warning_counts) {
  char path[4096];
  snprintf(path, sizeof path, "%s/warnings-corpus.expected", BOXLINT_TEST_DATA);
  FILE *ef = fopen(path, "r");
  ck_assert_msg(ef != NULL, "cannot open %s", path);
  char want_rule[64][64];
  unsigned long want_n[64];
  size_t nwant = 0;
  char line[256];
  while (fgets(line, sizeof line, ef) && nwant < 64) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (sscanf(line, "%63s %lu", want_rule[nwant], &want_n[nwant]) == 2) nwant++;
  }
  fclose(ef);

  FILE *f = corpus_open();
  boxlint_config *cfg;
  ck_assert_int_eq(boxlint_config_new(&cfg, NULL), BOXLINT_OK);
  boxlint_options o;
  boxlint_options_init(&o);
  o.config = cfg;
  boxlint_report *r;
  ck_assert_int_eq(boxlint_report_new(&r, NULL), BOXLINT_OK);
  char got_rule[64][64];
  unsigned long got_n[64];
  size_t ngot = 0;
  size_t len;
  for (char *text; (text = corpus_next(f, &len)) != NULL;) {
    boxlint_report_clear(r);
    ck_assert_int_eq(boxlint_check_fragment(r, text, len, &o), BOXLINT_OK);
    for (size_t i = 0; i < boxlint_report_diag_count(r); i++) {
      const boxlint_diag *d = boxlint_report_diag(r, i);
      if (d->severity == BOXLINT_SEVERITY_ERROR) continue;
      size_t k = 0;
      while (k < ngot && strcmp(got_rule[k], d->rule)) k++;
      if (k == ngot && ngot < 64) {
        snprintf(got_rule[ngot], sizeof got_rule[ngot], "%s", d->rule);
        got_n[ngot++] = 0;
      }
      if (k < 64) got_n[k]++;
    }
    free(text);
  }
  fclose(f);
  boxlint_report_free(r);
  boxlint_config_free(cfg);
  int same = ngot == nwant;
  for (size_t i = 0; i < ngot; i++) {
    unsigned long w = 0;
    for (size_t k = 0; k < nwant; k++)
      if (!strcmp(want_rule[k], got_rule[i])) w = want_n[k];
    printf("warnings on the real corpus: %-30s %lu (expected %lu)\n", got_rule[i], got_n[i], w);
    same &= w == got_n[i];
  }
  ck_assert_msg(same, "warning counts on the real corpus differ from warnings-corpus.expected");
}
END_TEST

/* no_instructions keeps no instruction list and no logical lines, and changes no finding:
 * every real Dockerfile with every warning on, both ways, diagnostic for diagnostic. Options
 * from before the field existed (a smaller `size`) are accepted and keep the instructions. */
START_TEST(test_corpus_no_instructions) {
  FILE *f = corpus_open();
  boxlint_config *cfg;
  ck_assert_int_eq(boxlint_config_new(&cfg, NULL), BOXLINT_OK);
  boxlint_options o, lean, old;
  boxlint_options_init(&o);
  o.config = cfg;
  lean = o;
  lean.no_instructions = 1;
  old = o;
  old.size = offsetof(boxlint_options, no_instructions);
  boxlint_report *a, *b;
  ck_assert_int_eq(boxlint_report_new(&a, NULL), BOXLINT_OK);
  ck_assert_int_eq(boxlint_report_new(&b, NULL), BOXLINT_OK);
  size_t files = 0, diags = 0, len;
  for (char *text; (text = corpus_next(f, &len)) != NULL;) {
    boxlint_report_clear(a);
    boxlint_report_clear(b);
    ck_assert_int_eq(boxlint_check_fragment(a, text, len, &o), BOXLINT_OK);
    ck_assert_int_eq(boxlint_check_fragment(b, text, len, &lean), BOXLINT_OK);
    ck_assert_uint_eq(boxlint_report_instruction_count(b), 0);
    ck_assert_uint_eq(boxlint_report_diag_count(a), boxlint_report_diag_count(b));
    for (size_t i = 0; i < boxlint_report_diag_count(a); i++) {
      const boxlint_diag *x = boxlint_report_diag(a, i), *y = boxlint_report_diag(b, i);
      ck_assert_str_eq(x->rule, y->rule);
      ck_assert_str_eq(x->message, y->message);
      ck_assert_str_eq(x->hint ? x->hint : "", y->hint ? y->hint : "");
      ck_assert(x->line == y->line && x->column == y->column && x->end_line == y->end_line &&
                x->end_column == y->end_column && x->offset == y->offset &&
                x->end_offset == y->end_offset && x->command == y->command);
      ck_assert((x->fix == NULL) == (y->fix == NULL));
      if (x->fix) ck_assert_str_eq(x->fix->text, y->fix->text);
      diags++;
    }
    size_t n = boxlint_report_instruction_count(a);
    boxlint_report_clear(b);
    ck_assert_int_eq(boxlint_check_fragment(b, text, len, &old), BOXLINT_OK);
    ck_assert_uint_eq(boxlint_report_instruction_count(b), n);
    files++;
    free(text);
  }
  fclose(f);
  printf("no_instructions: %zu files, %zu diagnostics, the same both ways\n", files, diags);
  ck_assert_uint_gt(diags, 100);
  boxlint_report_free(a);
  boxlint_report_free(b);
  boxlint_config_free(cfg);
}
END_TEST

static Suite *corpus_suite(void) {
  Suite *s = suite_create("corpus");
  TCase *tc = tcase_create("real");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_corpus_real_dockerfiles);
  tcase_add_test(tc, test_corpus_buildkit_fixtures);
  tcase_add_test(tc, test_corpus_line_numbers);
  tcase_add_test(tc, test_corpus_negative_fixtures);
  tcase_add_test(tc, test_corpus_warning_counts);
  tcase_add_test(tc, test_corpus_no_instructions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(corpus_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
