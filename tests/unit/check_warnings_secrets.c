/* The check_warnings suite, part secrets (secrets, explain_examples). Helpers: check_warnings.h. */
#include "check_warnings.h"
#include "random_text.h"
#include "warnings/warnings_int.h"

/*==============================================================================================
 * docs/design.md §2.3: secret-in-command
 *============================================================================================*/

START_TEST(test_secret_url) {
  CMD("RUN pip install --no-cache-dir --index-url=https://user:s3cretPass@pypi.example.com/simple pkg");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 57, 1, 67, "password in a URL");
  ck_assert(contains(d->message, "****"));
  ck_assert_ptr_nonnull(d->hint);
  NO_LEAK("s3cretPass");
  TOTAL(1);
  CMD("RUN git clone https://alice:hunter22@git.example.com/r.git /opt/r");
  EXPECT("secret-in-command", W, 0, 1, 29, 1, 37, "password in a URL");
  NO_LEAK("hunter22");
  TOTAL(1);
  CMD("RUN pip install --no-cache-dir --index-url \\\n  https://u:pa55word@host.example/simple x");
  EXPECT("secret-in-command", W, 0, 2, 13, 2, 21, "URL");
  NO_LEAK("pa55word");
  TOTAL(1);
}
END_TEST

/* The scan for candidates looks at blocks of 16 and 32 bytes (with the byte before and the two
 * after each offset): each kind of secret at every offset of two blocks, after blanks and after
 * a non-ASCII word in the same block, is found at its column, and only it. */
START_TEST(test_secret_every_offset) {
  static const struct { const char *text, *what; size_t from, len; } kinds[] = {
      {"password=hunter22abc", "credential", 9, 11},
      {"AKIAIOSFODNN7EXAMPLE", "AWS access key id", 0, 20},
      {"https://alice:hunter22@git.example.com/r", "password in a URL", 14, 8},
      {"TOKEN: zzzz9999", "credential", 7, 8},
  };
  char cmd[160];
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    for (int nonascii = 0; nonascii < 2; nonascii++) {
      for (size_t pad = 0; pad < 40; pad++) {
        /* "RUN echo " (9 bytes), "\xc3\xa9 " (an e with an accent: 2 bytes, 1 column) or
         * "e ", `pad` spaces, the secret, " done" */
        int n = snprintf(cmd, sizeof cmd, "RUN echo %s%*s%s done", nonascii ? "\xc3\xa9 " : "e ",
                         (int)pad, "", kinds[k].text);
        boxlint_span sp = {cmd, (size_t)n};
        run_spans(&sp, 1);
        uint32_t col = (uint32_t)(12 + pad + kinds[k].from);
        if (boxlint_report_diag_count(R) != 1) dump_report();
        ck_assert_uint_eq(boxlint_report_diag_count(R), 1);
        EXPECT("secret-in-command", W, 0, 1, col, 1, col + (uint32_t)kinds[k].len, kinds[k].what);
      }
    }
  }
}
END_TEST

/* The scans for candidates (SSE2, and AVX2 where the processor has it) propose a superset of
 * the offsets where a pattern can start: on random texts rich in the patterns' starts, in both
 * cases, across block ends, with non-ASCII bytes near them, the offsets where bl_warn_secrets
 * would try a pattern are the same by either scan as by trying every offset. */
START_TEST(test_secret_scans_agree) {
  static const char *const pieces[] = {
      "a", "A", "g", "G", "p", "P", "s", "S", "t", "T", "x", "X", "k", "K", "i", "I", "c", "C",
      "h", "l", "o", "O", "e", "E", "w", "d", "-", ":", "/", "@", "_", "=", " ", " ", "\n",
      "\t", "1", "z", "\r", "\xc3\xa9", "\xe2\x84\xaa", "\xc5\xbf", "ghp_", "github_pat_",
      "glpat-", "xoxb-", "sk-", "AKIA", "ASIA", "-----BEGIN ", "PaSs", "pwd", "SEC", "tok", "api",
      "Acc", "://u:p@h", "https://", "pat", "apt", "git"};
  static char text[4096];
  static size_t want[4096], got[4096];
  uint64_t seed = 0x5ec2e75ca115ull;
  size_t tried = 0;
  for (int round = 0; round < 20000; round++) {
    size_t n = rt_text(&seed, text, rt_next(&seed, 90), pieces, sizeof pieces / sizeof pieces[0]);
    int ascii = 1;
    for (size_t i = 0; i < n; i++) ascii &= (unsigned char)text[i] < 0x80;
    size_t s = n ? rt_next(&seed, (uint32_t)(n < 4 ? n : 4)) : 0;
    size_t nw = bl_secret_starts(text, s, n, 0, 0, want, 4096);
    tried += nw;
    for (int scan = 1; scan <= 2; scan++) {
      for (int known = 0; known <= ascii; known++) { /* the input known to be ASCII, or not */
        size_t ng = bl_secret_starts(text, s, n, known, scan, got, 4096);
        if (ng != nw || memcmp(got, want, nw * sizeof want[0]))
          ck_abort_msg("scan %d (ascii %d) found %zu starts, every offset %zu, in \"%.*s\" from %zu",
                       scan, known, ng, nw, (int)n, text, s);
      }
    }
  }
  ck_assert_uint_gt(tried, 20000); /* the texts held starts to find */
}
END_TEST

/* What decides, before PCRE2 runs, that a pattern cannot match (a URL without user:password@,
 * an ENV name without a secret's word) decides only that: the cases either side of it. */
START_TEST(test_secret_prefilters) {
  CMD("RUN curl -fsS http://localhost:8888/ https://a:b@ https://user@host/ https://:pw@h/");
  TOTAL(0); /* a port, no host after '@', no password, no user */
  CMD("RUN curl -fsS https://u:pw@h/x");
  EXPECT("secret-in-command", W, 0, 1, 25, 1, 27, "password in a URL");
  TOTAL(1);
  CMD("ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 LANG=C.UTF-8");
  TOTAL(0);
  CMD("ENV GH_AUTH=abcdef123456");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 25, "GH_AUTH");
  TOTAL(1);
  CMD("ENV DB_CREDENTIALS=abcdef123456");
  EXPECT("secret-in-command", W, 0, 1, 20, 1, 32, "DB_CREDENTIALS");
  TOTAL(1);
  /* U+212A (Kelvin sign) folds to k under PCRE2's caseless matching: the name is PCRE2's to
   * decide, as before. */
  CMD("ENV MY_TO\xe2\x84\xaa" "EN=abcdef123456");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 26, "is set to a literal value");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_tokens) {
  CMD("RUN echo " AWS " > /tmp/id");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 10, 1, 30, "AWS access key id");
  ck_assert(contains(d->message, "****"));
  NO_LEAK(AWS);
  NO_LEAK("IOSFODNN7EXAMPLE");
  TOTAL(1);

  CMD("RUN git clone https://" GHP "@github.com/o/r");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 63, "GitHub token");
  NO_LEAK(GHP);
  NO_LEAK("abcdefghijklmnopqrstuvwxyz0123456789");
  TOTAL(1);

  /* token in a URL's password: one report, not one per pattern */
  CMD("RUN git clone https://x-access-token:" GHP "@github.com/o/r");
  EXPECT("secret-in-command", W, 0, 1, 38, 1, 78, "GitHub token");
  NO_LEAK(GHP);
  TOTAL(1);

  CMD("RUN echo glpat-abcdefghij0123456789xy");
  EXPECT("secret-in-command", W, 0, 1, 10, 1, 38, "GitLab token");
  NO_LEAK("glpat-abcdefghij0123456789xy");
  NO_LEAK("abcdefghij0123456789xy");

  CMD("RUN curl -H 'Authorization: Bearer xoxb-1234567890-abcdefghij' https://slack.com/api/x");
  EXPECT("secret-in-command", W, 0, 1, 36, 1, 62, "Slack token");
  NO_LEAK("xoxb-1234567890-abcdefghij");
  NO_LEAK("1234567890-abcdefghij");
  TOTAL(1);
}
END_TEST

/* The assignment keywords are matched without regard to case, Unicode case folding included
 * (U+017F folds to s): a quick pre-check before PCRE2 must not drop these. */
START_TEST(test_secret_assignment_case_folding) {
  CMD("RUN echo PaSsWoRd=hunter22abc");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 30, "credential");
  NO_LEAK("hunter22abc");
  TOTAL(1);
  CMD("RUN echo pa\xc5\xbf\xc5\xbfword=hunter22abc");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 30, "credential");
  NO_LEAK("hunter22abc");
  TOTAL(1);
  CMD("RUN echo api-KEY: zzzz9999");
  EXPECT("secret-in-command", W, 0, 1, 19, 1, 27, "credential");
  TOTAL(1);
  CMD("RUN echo passage=hunter22abc tokenizer apiary accent"); /* near misses */
  TOTAL(0);
}
END_TEST

START_TEST(test_secret_private_key_heredoc) {
  CMD("RUN cat <<EOF > /root/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n"
      "MIIEpAIBAAKCAQEAsecretKeyMaterial\n-----END RSA PRIVATE KEY-----\nEOF");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 2, 1, 2, 32, "private key");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("MIIEpAIBAAKCAQEAsecretKeyMaterial");
  TOTAL(1);
  /* In a heredoc script too (the body is scanned whether data or script). */
  CMD("RUN <<EOF\nexport AWS_ACCESS_KEY_ID=" AWS "\nEOF");
  EXPECT("secret-in-command", W, 0, 2, 26, 2, 46, "AWS");
  NO_LEAK(AWS);
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_assignments) {
  CMD("RUN mysql --password=hunter2secret -e 'select 1'");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "credential");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("hunter2secret");
  TOTAL(1);
  CMD("RUN echo \"api_key: abcd1234efgh\" > /etc/app.yaml");
  EXPECT("secret-in-command", W, 0, 1, 20, 1, 32, "credential");
  NO_LEAK("abcd1234efgh");
  CMD("LABEL token=abcd1234efgh");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 25, "credential");
  NO_LEAK("abcd1234efgh");
}
END_TEST

START_TEST(test_secret_env_arg) {
  CMD("ENV API_TOKEN=abcdef123456");
  const boxlint_diag *d = EXPECT("secret-in-command", W, 0, 1, 15, 1, 27, "ENV API_TOKEN");
  ck_assert(contains(d->message, "****"));
  NO_LEAK("abcdef123456");
  TOTAL(1);
  CMD("ARG DB_PASSWORD=letmein99");
  EXPECT("secret-in-command", W, 0, 1, 17, 1, 26, "ARG DB_PASSWORD");
  NO_LEAK("letmein99");
  CMD("ENV AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 40, "AWS_SECRET_ACCESS_KEY");
  NO_LEAK("wJalrXUtnFEMI");
  CMD("ENV DEBUG=1 HF_TOKEN=\"hf_abcdefgh\"");
  EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "HF_TOKEN");
  NO_LEAK("hf_abcdefgh");
  TOTAL(1);
  /* One report per secret: ENV GITHUB_TOKEN=ghp_... is one finding, not name + token. */
  CMD("ENV GITHUB_TOKEN=" GHP);
  EXPECT("secret-in-command", W, 0, 1, 18, 1, 58, "GITHUB_TOKEN");
  NO_LEAK(GHP);
  TOTAL(1);
  CMD("ARG GITHUB_TOKEN=" GHP);
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  NO_LEAK(GHP);
  CMD("RUN export GITHUB_TOKEN=" GHP " && git clone https://github.com/o/r");
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  EXPECT("secret-in-command", W, 0, 1, 25, 1, 65, "GitHub token");
  NO_LEAK(GHP);
}
END_TEST

START_TEST(test_secret_not_fired) {
  static const boxlint_span ok[] = {
      SP("ARG TOKEN"),
      SP("ARG GITHUB_TOKEN"),
      SP("ENV TOKEN=$TOKEN"),
      SP("ENV API_TOKEN=${API_TOKEN}"),
      SP("ENV TOKEN=\"$TOKEN\""),
      SP("ENV GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D"),
      SP("ENV TOKENIZERS_PARALLELISM=false"),
      SP("ENV JUPYTER_TOKEN="),
      SP("RUN git clone https://git@github.com/o/r /opt/r"),
      SP("RUN pip install --no-cache-dir --index-url https://__token__@pypi.example.com/simple x"),
      SP("RUN curl -fsSLo /x https://host.example:8443/path/x"),
      SP("RUN mysql password=$PASSWORD"),
      SP("RUN mysql --password=\"${DB_PASSWORD}\" -e 'select 1'"),
      SP("RUN jupyter lab --ServerApp.token='' --generate-config"),
      SP("RUN echo hello"),
      SP("RUN --mount=type=secret,id=gh,env=GITHUB_TOKEN git clone https://github.com/o/r"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  NONE("secret-in-command");
  TOTAL(0);
}
END_TEST

/* Issue 12, point 5: a value that says where a secret is (a path, a variable, nothing) is not
 * one. Each near miss stands next to a true positive that still warns, at its position. */
START_TEST(test_secret_location_names) {
  /* *_FILE, *_PATH, *_DIR, *_FILENAME, *_DIRECTORY (any case): the value is where the secret is. */
  CMD("ARG TOKEN_FILE=/run/secrets/t"); /* the issue's own example */
  TOTAL(0);
  CMD("ENV PASSWORD_FILE=/run/secrets/db");
  TOTAL(0);
  CMD("ENV password_file=secrets.txt");
  TOTAL(0);
  CMD("ENV SECRET_PATH=/etc/x");
  TOTAL(0);
  CMD("ENV TOKEN_FILENAME=token.txt");
  TOTAL(0);
  CMD("ENV PRIVATE_KEY_DIR=~/.ssh");
  TOTAL(0);
  CMD("ENV API_KEY_Directory=keys");
  TOTAL(0);
  CMD("ARG PASSWORD_FILE");
  TOTAL(0);
  CMD("ENV PASSWORD=hunter2");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 21, "ENV PASSWORD is set to a literal value");
  NO_LEAK("hunter2");
  TOTAL(1);
  /* The suffix ends the name: the content of a token file is the secret. */
  CMD("ENV TOKEN_FILE_CONTENT=abc123def456");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 36, "ENV TOKEN_FILE_CONTENT is set to a literal");
  TOTAL(1);
  /* A location that holds a secret anyway is reported as what it holds. */
  CMD("ENV TOKEN_FILE=" GHP);
  EXPECT("secret-in-command", W, 0, 1, 16, 1, 56, "a GitHub token");
  NO_LEAK(GHP);
  TOTAL(1);

  /* *_URL and *_URI without credentials; with them, the credential is reported, not the URL. */
  CMD("ENV AUTH_URL=https://auth.example.com/oauth");
  TOTAL(0);
  CMD("ENV TOKEN_URL=https://login.example.com/token");
  TOTAL(0);
  CMD("ENV AUTH_URL=https://u:p4ssw0rd@auth.example.com/oauth");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 32, "a password in a URL");
  NO_LEAK("p4ssw0rd");
  TOTAL(1);
  CMD("ENV TOKEN_URL=https://h.example/x?access_token=abcd1234efgh");
  EXPECT("secret-in-command", W, 0, 1, 48, 1, 60, "a credential assigned literally");
  NO_LEAK("abcd1234efgh");
  TOTAL(1);

  /* The same names in RUN, LABEL and heredoc bodies (the assignment pattern). */
  CMD("RUN export TOKEN_FILE=/run/secrets/t && make");
  TOTAL(0);
  CMD("RUN echo \"password_file: /run/secrets/db\" > /etc/app.yaml");
  TOTAL(0);
  CMD("RUN export TOKEN_FILE=" GHP " && make");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 63, "a GitHub token");
  TOTAL(1);
  CMD("RUN echo \"password: hunter2xyz\" > /etc/app.yaml");
  EXPECT("secret-in-command", W, 0, 1, 21, 1, 31, "a credential assigned literally");
  NO_LEAK("hunter2xyz");
  TOTAL(1);
  CMD("RUN cat <<EOF > /etc/app.env\nDB_PASSWORD_FILE=/run/secrets/db\nAPI_TOKEN=${API_TOKEN}\n"
      "DB_PASSWORD=hunter2xyz\nEOF");
  EXPECT("secret-in-command", W, 0, 4, 13, 4, 23, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_path_values) {
  /* Absolute, ./, ../, ~/ and ~user/ paths. */
  static const boxlint_span ok[] = {
      SP("ENV API_TOKEN=/run/secrets/api"),
      SP("ENV API_TOKEN=\"/run/secrets/api\""),
      SP("ENV API_KEY=./keys/api"),
      SP("ENV API_KEY=../keys/api"),
      SP("ENV PRIVATE_KEY=~/.ssh/id_ed25519"),
      SP("ENV PRIVATE_KEY=~app/.ssh/id_ed25519"),
      SP("ENV TOKEN=/home/${USER}/.config/token"),
      /* Google's client libraries read a key file from this variable: a path by definition. */
      SP("ENV GOOGLE_APPLICATION_CREDENTIALS=/run/secrets/gcp.json"),
      SP("ENV PASSWORD /run/secrets/x"),
      SP("RUN echo password=/run/secrets/pw > /etc/app.conf"),
      SP("RUN mysql --password-file=/run/secrets/db -e 'select 1'"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* Not paths: relative without ./, a literal after the path, and base64 (which holds '/':
   * one AWS secret key in 64 starts with it) with '+', "//" or a random run of letters and
   * digits. */
  CMD("ENV API_KEY=keys/api");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 21, "ENV API_KEY is set to a literal value");
  TOTAL(1);
  CMD("ENV PASSWORD /run/secrets/x hunter2");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 36, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("ENV AWS_SECRET_ACCESS_KEY=/K7MDENG+bPxRfiCYEXAMPLEKEY");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 54, "ENV AWS_SECRET_ACCESS_KEY is set to a literal");
  NO_LEAK("K7MDENG");
  TOTAL(1);
  CMD("ENV AWS_SECRET_ACCESS_KEY=/wJalrXUtnFEMI/K7MDENGbPxRfiCY9EXAMPLEKEY");
  EXPECT("secret-in-command", W, 0, 1, 27, 1, 68, "ENV AWS_SECRET_ACCESS_KEY is set to a literal");
  TOTAL(1);
  CMD("ENV PASSWORD=//evil");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 20, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("ENV PRIVATE_KEY=~Zq9!x");
  EXPECT("secret-in-command", W, 0, 1, 17, 1, 23, "ENV PRIVATE_KEY is set to a literal value");
  TOTAL(1);
  CMD("ENV GOOGLE_CREDENTIALS=eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0");
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 59, "ENV GOOGLE_CREDENTIALS is set to a literal");
  TOTAL(1);
}
END_TEST

START_TEST(test_secret_variables_and_empty) {
  static const boxlint_span ok[] = {
      SP("ARG GITHUB_TOKEN"),
      SP("ENV API_KEY=$API_KEY"),
      SP("ENV TOKEN=${TOKEN:-}"),
      SP("ENV TOKEN=${TOKEN-}"),
      SP("ENV AUTH_TOKEN=\"$AUTH_TOKEN\""),
      SP("ENV AUTH_TOKEN=\"${AUTH_TOKEN}\""),
      SP("ENV NPM_TOKEN=${NPM_TOKEN:?required}"),
      SP("ENV TOKEN=${TOKEN:-/run/secrets/t}"),
      SP("ENV TOKEN=${TOKEN:-${GH_TOKEN}}"),
      SP("ENV PASSWORD=\"\""),
      SP("ENV PASSWORD=''"),
      SP("RUN --mount=type=secret,id=token cat /run/secrets/token"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* A default is what the image gets: templates are built without build arguments. */
  CMD("ENV TOKEN=${TOKEN:-abc12345}");
  EXPECT("secret-in-command", W, 0, 1, 11, 1, 29, "ENV TOKEN defaults to a literal value");
  NO_LEAK("abc12345");
  TOTAL(1);
  CMD("ARG TOKEN=\"${TOKEN:-${GH_TOKEN:-abc12345}}\"");
  EXPECT("secret-in-command", W, 0, 1, 11, 1, 44, "ARG TOKEN defaults to a literal value");
  NO_LEAK("abc12345");
  TOTAL(1);
  CMD("ENV PASSWORD=\"hunter2\"");
  EXPECT("secret-in-command", W, 0, 1, 14, 1, 23, "ENV PASSWORD is set to a literal value");
  TOTAL(1);
  CMD("RUN --mount=type=secret,id=token TOKEN=abcd1234efgh make");
  EXPECT("secret-in-command", W, 0, 1, 40, 1, 52, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

/* The real corpus (tests/data/corpus/real-dockerfiles): no secret-in-command hit. Its near
 * misses, from moby__buildkit/vendor__github.com__tonistiigi__go-actions-cache__Dockerfile
 * lines 16-25: ARGs without values and secret mounts that name a secret by its id. */
START_TEST(test_secret_corpus_near_misses) {
  FRAG("ARG ACTIONS_CACHE_URL\n"
       "ARG ACTIONS_RESULTS_URL\n"
       "RUN --mount=target=. \\\n"
       "    --mount=target=/go/pkg/mod,type=cache \\\n"
       "    --mount=target=/root/.cache,type=cache \\\n"
       "    --mount=type=secret,id=GITHUB_TOKEN,env=GITHUB_TOKEN \\\n"
       "    --mount=type=secret,id=ACTIONS_RUNTIME_TOKEN,env=ACTIONS_RUNTIME_TOKEN \\\n"
       "    CGO_ENABLED=0 xx-go test -v -coverprofile=/tmp/coverage.txt -covermode=atomic "
       "${TESTFLAGS} ./...\n");
  NONE("secret-in-command");
  EXPECT("run-mount-context", W, 2, 3, 5, 3, 21, "build context");
  TOTAL(1);
  /* The same RUN with the token written in. */
  FRAG("RUN --mount=type=secret,id=GITHUB_TOKEN,env=GITHUB_TOKEN \\\n"
       "    ACTIONS_RUNTIME_TOKEN=abcd1234efgh xx-go test ./...\n");
  EXPECT("secret-in-command", W, 0, 2, 27, 2, 39, "a credential assigned literally");
  TOTAL(1);
}
END_TEST

/* Placeholders are reported: `changeme` is a password that takes effect, and `your-token` or
 * <your-token> is where the author is about to paste the real one; the rule's advice (pass it
 * at run time) is what they need then. No form tells a placeholder from a weak secret. */
START_TEST(test_secret_placeholders) {
  /* The platform's sandbox guide ("Packages and connecting to Buddy") tells users to write
   * export BUDDY_TOKEN="your-personal-access-token", export
   * ANTHROPIC_API_KEY="your-anthropic-key", here written as template commands. */
  CMD("RUN export BUDDY_TOKEN=\"your-personal-access-token\"");
  EXPECT("secret-in-command", W, 0, 1, 25, 1, 51, "a credential assigned literally");
  TOTAL(1);
  CMD("RUN export ANTHROPIC_API_KEY=\"your-anthropic-key\"");
  EXPECT("secret-in-command", W, 0, 1, 31, 1, 49, "a credential assigned literally");
  TOTAL(1);
  /* The same guide: export BUDDY_WORKSPACE="your-workspace" (not a secret name). */
  CMD("RUN export BUDDY_WORKSPACE=\"your-workspace\"");
  TOTAL(0);
  CMD("ENV POSTGRES_PASSWORD=changeme");
  EXPECT("secret-in-command", W, 0, 1, 23, 1, 31, "ENV POSTGRES_PASSWORD is set to a literal");
  TOTAL(1);
  CMD("ENV API_KEY=<your-token>");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 25, "ENV API_KEY is set to a literal value");
  TOTAL(1);
  /* Real secrets stay reported, whatever the name. */
  CMD("ENV API_KEY=sk-live-abc123def456ghi789");
  EXPECT("secret-in-command", W, 0, 1, 13, 1, 39, "ENV API_KEY is set to a literal value");
  NO_LEAK("abc123def456ghi789");
  TOTAL(1);
}
END_TEST

/*==============================================================================================
 * The good examples of `boxlint explain` (rules.c): each lints clean of its own rule, and none
 * is a secret-in-command. Each is read as what it shows: Dockerfile text (a fragment, and a
 * command when it is one instruction), a base (FROM ...), a template or a NetworkPolicy in the
 * explain texts' JSON-like notation, or prose (checked for secrets only).
 *============================================================================================*/

static const char *ex_ws(const char *p) {
  while (*p == ' ' || *p == '\n') p++;
  return p;
}

/* A JSON string without escapes (as the examples write them) at p; NULL if there is none. */
static const char *ex_string(const char *p, boxlint_span *out) {
  const char *e = *p == '"' ? strchr(p + 1, '"') : NULL;
  if (!e) return NULL;
  *out = (boxlint_span){p + 1, (size_t)(e - p - 1)};
  return e + 1;
}

/* A JSON array of such strings at p: at most `cap` into out, their number in *n. */
static const char *ex_strings(const char *p, boxlint_span *out, size_t cap, size_t *n) {
  *n = 0;
  if (*p != '[') return NULL;
  for (p = ex_ws(p + 1); p && *p == '"'; p = p ? ex_ws(p) : NULL) {
    boxlint_span v;
    p = ex_string(p, &v);
    if (p && *n < cap) out[(*n)++] = v;
    if (p && *p == ',') p = ex_ws(p + 1);
  }
  return p && *p == ']' ? p + 1 : NULL;
}

/* A template: a flat object of "name", "commands", "cpu_count", "memory_mb" and unknown keys. */
static int ex_template(const char *p, boxlint_template *t, boxlint_span *extra, size_t cap) {
  memset(t, 0, sizeof *t);
  t->extra_fields = extra;
  for (p = ex_ws(p + 1); p && *p == '"';) {
    boxlint_span k, v, list[8];
    size_t n = 0;
    p = ex_string(p, &k);
    ck_assert_ptr_nonnull(p);
    p = ex_ws(ex_ws(p) + 1); /* after ':' */
    int is = 0;
#define KEY(lit) (k.len == sizeof(lit) - 1 && !memcmp(k.ptr, lit, k.len))
    if (*p == '"') {
      p = ex_string(p, &v);
      if ((is = KEY("name"))) t->name = v, t->has_name = 1;
    } else if (*p == '[') {
      p = ex_strings(p, list, 8, &n);
      if ((is = KEY("commands"))) t->has_commands = 1; /* the examples' lists are empty */
    } else {
      char *end;
      long long x = strtoll(p, &end, 10);
      boxlint_number num = {1, 1, x, NULL};
      if ((is = KEY("cpu_count"))) t->cpu_count = num;
      if (KEY("memory_mb")) t->memory_mb = num, is = 1;
      p = end;
    }
#undef KEY
    if (!is && t->nextra_fields < cap) extra[t->nextra_fields++] = k;
    p = p ? ex_ws(p) : NULL;
    if (p && *p == ',') p = ex_ws(p + 1);
  }
  return p && *p == '}';
}

/* A policy: {"type": ..., "allow_out": [...], "deny_out": [...]}, or allow_out [...],
 * deny_out [...] (filtered), or a bare list of entries (allowed, with ALL_TRAFFIC denied). */
static void ex_policy(const char *p, boxlint_policy_spec *sp, boxlint_span *allow,
                      boxlint_span *deny, size_t cap) {
  static const boxlint_span all = SP("ALL_TRAFFIC");
  memset(sp, 0, sizeof *sp);
  sp->type = S("filtered");
  sp->allow_out = allow;
  sp->deny_out = deny;
  if (*p == '[') {
    ck_assert_ptr_nonnull(ex_strings(p, allow, cap, &sp->n_allow));
    deny[0] = all;
    sp->n_deny = 1;
    return;
  }
  const char *t = strstr(p, "\"type\"");
  if (t) ck_assert_ptr_nonnull(ex_string(ex_ws(ex_ws(t + 6) + 1), &sp->type));
  const char *a = strstr(p, "allow_out"), *d = strstr(p, "deny_out");
  if (a) ck_assert_ptr_nonnull(ex_strings(strchr(a, '['), allow, cap, &sp->n_allow));
  if (d) ck_assert_ptr_nonnull(ex_strings(strchr(d, '['), deny, cap, &sp->n_deny));
}

static int is_policy_example(const char *g) {
  return g[0] == '[' || strstr(g, "allow_out") || strstr(g, "deny_out") ||
         (g[0] == '{' && strstr(g, "\"type\""));
}

/* No diagnostic of `rule` in the report (with the example in the message). */
static void ex_clean(const char *rule, const char *how, const char *good) {
  if (count_rule(rule)) dump_report();
  ck_assert_msg(count_rule(rule) == 0, "explain %s: the good example (%s) \"%s\" has %s", rule,
                how, good, rule);
}

static void ex_check_policy(const boxlint_rule_info *ri) {
  boxlint_policy_spec sp;
  boxlint_span allow[8], deny[8];
  ex_policy(ri->good, &sp, allow, deny, 8);
  boxlint_policy_options po;
  boxlint_policy_options_init(&po);
  if (strstr(ri->bad, "--unmatched deny")) po.unmatched = BOXLINT_UNMATCHED_DENY;
  if (!strncmp(ri->summary, "E2B:", 4)) po.compat = BOXLINT_COMPAT_E2B;
  boxlint_policy *pol = NULL;
  boxlint_report_clear(R);
  boxlint_status st = boxlint_policy_new(&pol, R, &sp, &po, NULL);
  ck_assert(st == BOXLINT_OK || st == BOXLINT_ESYNTAX);
  boxlint_policy_free(pol);
  ex_clean(ri->id, "a NetworkPolicy", ri->good);
}

static void ex_check_text(const boxlint_rule_info *ri) {
  const char *g = ri->good;
  size_t n = strlen(g);
  if (!strncmp(g, "FROM ", 5)) { /* a base: templates never hold FROM */
    boxlint_base_info bi;
    boxlint_report_clear(R);
    ck_assert_int_eq(boxlint_check_base(&bi, R, g, n), BOXLINT_OK);
    ex_clean(ri->id, "a base", g);
    return;
  }
  run_frag(g, n);
  ex_clean(ri->id, "a fragment", g);
  NONE("secret-in-command");
  if (boxlint_report_instruction_count(R) == 1) {
    run_spans(&(boxlint_span){g, n}, 1);
    ex_clean(ri->id, "a command", g);
  }
}

/* The rule's own pair: the bad example warns, the good one (a path) does not. */
START_TEST(test_secret_explain_pair) {
  const boxlint_rule_info *ri = boxlint_rule_find("secret-in-command", 17);
  ck_assert_ptr_nonnull(ri);
  run_spans(&(boxlint_span){ri->bad, strlen(ri->bad)}, 1);
  ck_assert_uint_eq(count_rule("secret-in-command"), 1);
  ck_assert_str_eq(boxlint_report_diag(R, 0)->rule, "secret-in-command");
  ck_assert(contains(boxlint_report_diag(R, 0)->message, "is set to a literal value"));
  run_spans(&(boxlint_span){ri->good, strlen(ri->good)}, 1);
  TOTAL(0);
  ck_assert(contains(ri->description, "Not secrets"));
}
END_TEST

START_TEST(test_explain_good_examples) {
  size_t n = 0, kinds[5] = {0};
  const boxlint_rule_info *rules = boxlint_rules(&n);
  ck_assert_uint_gt(n, 0);
  for (size_t i = 0; i < n; i++) {
    const boxlint_rule_info *ri = &rules[i];
    const char *g = ri->good;
    /* Whatever it is, as a command it holds no secret. */
    run_spans(&(boxlint_span){g, strlen(g)}, 1);
    if (count_rule("secret-in-command")) fprintf(stderr, "explain %s: good example\n", ri->id);
    NONE("secret-in-command");
    if (is_policy_example(g)) {
      ex_check_policy(ri);
      kinds[0]++;
    } else if (g[0] == '{') {
      boxlint_template t;
      boxlint_span extra[8];
      ck_assert_msg(ex_template(g, &t, extra, 8), "explain %s: unreadable template", ri->id);
      boxlint_report_clear(R);
      ck_assert_int_eq(boxlint_check_template(R, &t, &OPTS), BOXLINT_OK);
      ex_clean(ri->id, "a template", g);
      kinds[1]++;
    } else if ((g[0] >= 'A' && g[0] <= 'Z') || g[0] == '#') {
      ex_check_text(ri);
      kinds[2]++;
    } else if (!strncmp(g, "client.", 7)) {
      /* Python: the SDK call checks clean of its own rule, and so does nothing else fail. */
      boxlint_report_clear(R);
      ck_assert_int_eq(boxlint_check_python(R, g, strlen(g), &OPTS, NULL), BOXLINT_OK);
      ck_assert_msg(!count_rule(ri->id), "explain %s: the good Python example fires", ri->id);
      const char *b = ri->bad;
      boxlint_report_clear(R);
      boxlint_status bst = boxlint_check_python(R, b, strlen(b), &OPTS, NULL);
      ck_assert_msg(count_rule(ri->id) > 0 && (bst == BOXLINT_OK || bst == BOXLINT_ESYNTAX),
                    "explain %s: the bad Python example does not fire", ri->id);
      kinds[4]++;
    } else {
      kinds[3]++; /* prose: "(supervise services with systemd units)" */
    }
  }
  /* Each kind is met (a reader that recognises nothing would pass vacuously). */
  ck_assert(kinds[0] >= 10 && kinds[1] >= 4 && kinds[2] >= 30 && kinds[4] >= 3);
  ck_assert_uint_le(kinds[3], 6);
}
END_TEST

void warnings_add_secrets(Suite *s) {
  TCase *tc;

  tc = tcase_create("secrets");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_secret_url);
  tcase_add_test(tc, test_secret_every_offset);
  tcase_add_test(tc, test_secret_scans_agree);
  tcase_add_test(tc, test_secret_prefilters);
  tcase_add_test(tc, test_secret_tokens);
  tcase_add_test(tc, test_secret_assignment_case_folding);
  tcase_add_test(tc, test_secret_private_key_heredoc);
  tcase_add_test(tc, test_secret_assignments);
  tcase_add_test(tc, test_secret_env_arg);
  tcase_add_test(tc, test_secret_not_fired);
  tcase_add_test(tc, test_secret_location_names);
  tcase_add_test(tc, test_secret_path_values);
  tcase_add_test(tc, test_secret_variables_and_empty);
  tcase_add_test(tc, test_secret_corpus_near_misses);
  tcase_add_test(tc, test_secret_placeholders);
  suite_add_tcase(s, tc);

  tc = tcase_create("explain_examples");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_explain_good_examples);
  tcase_add_test(tc, test_secret_explain_pair);
  suite_add_tcase(s, tc);
}
