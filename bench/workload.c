/* Workload generator: realistic template commands (see workload.h). */
#include "workload.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static size_t pick(uint64_t *s, size_t n) { return (size_t)(rnd(s) % n); }

static const char *const PKGS[] = {"curl", "git", "jq", "build-essential", "libpq-dev", "ffmpeg",
                                   "graphviz", "unzip", "ca-certificates", "python3-dev"};
static const char *const PY[] = {"pydantic-ai", "httpx", "numpy", "pandas", "scikit-learn",
                                 "matplotlib", "duckdb", "polars", "rich", "tiktoken"};

static int put(workload *w, const char *s, size_t n) {
  if (w->arena_len + n + 1 > w->arena_cap) return -1;
  memcpy(w->arena + w->arena_len, s, n);
  w->arena_len += n;
  return 0;
}

/* One command into buf; returns its length. */
static size_t make_command(uint64_t *s, char *buf, size_t cap, size_t target, int invalid) {
  size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))
  if (invalid) {
    switch (pick(s, 6)) {
    case 0: ADD("pip install %s", PY[pick(s, 10)]); break;
    case 1: ADD("COPY requirements.txt /app/"); break;
    case 2: ADD("RUN echo hi \\"); break;
    case 3: ADD("WORKDR /app"); break;
    case 4: ADD("CMD [\"python3\", \"app.py\"]"); break;
    default: ADD("RUN true\nFROM evil"); break;
    }
    return n < cap ? n : cap - 1;
  }
  switch (pick(s, 12)) {
  case 0: case 1: case 2: { /* RUN pipeline with continuations and a comment inside */
    ADD("RUN set -eux; \\\n    apt-get update && \\\n    # tools the agent needs\n"
        "    apt-get install -y --no-install-recommends");
    while (n + 40 < target && n + 40 < cap) ADD(" %s", PKGS[pick(s, 10)]);
    ADD(" && \\\n    rm -rf /var/lib/apt/lists/*");
    break;
  }
  case 3: case 4: {
    ADD("RUN pip install --no-cache-dir");
    while (n + 30 < target && n + 30 < cap) ADD(" %s==%zu.%zu", PY[pick(s, 10)], pick(s, 9), pick(s, 30));
    break;
  }
  case 5: { /* heredoc */
    ADD("RUN <<EOF cat > /etc/sandbox.conf\n");
    while (n + 30 < target && n + 30 < cap) ADD("key_%zu = value %zu\n", pick(s, 1000), pick(s, 1000));
    ADD("EOF");
    break;
  }
  case 6: ADD("ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 LANG=C.UTF-8"); break;
  case 7: ADD("ARG VERSION=%zu.%zu.%zu", pick(s, 5), pick(s, 20), pick(s, 20)); break;
  case 8: ADD("LABEL org.opencontainers.image.title=\"sandbox %zu\" maintainer=\"team@example.com\"", pick(s, 100)); break;
  case 9: ADD("WORKDIR /home/user/project%zu", pick(s, 10)); break;
  case 10:
    switch (pick(s, 4)) {
    case 0: ADD("USER root"); break;
    case 1: ADD("EXPOSE %zu", 8000 + pick(s, 1000)); break;
    case 2: ADD("SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]"); break;
    default: ADD("HEALTHCHECK --interval=30s --timeout=3s CMD curl -f http://localhost:8888/ || exit 1"); break;
    }
    break;
  default: {
    ADD("RUN curl -fsSLo /tmp/tool.tgz https://downloads.example.com/tool-%zu.tgz && \\\n"
        "    tar -xzf /tmp/tool.tgz -C /opt && rm /tmp/tool.tgz", pick(s, 100));
    while (n + 20 < target && n + 20 < cap) ADD(" && \\\n    ln -s /opt/t%zu /usr/local/bin/t%zu", pick(s, 99), pick(s, 99));
    break;
  }
  }
#undef ADD
  return n < cap ? n : cap - 1;
}

int wl_make(workload *w, uint64_t seed, size_t ntemplates, size_t min_cmds, size_t max_cmds,
            size_t cmd_bytes, unsigned invalid_pct) {
  memset(w, 0, sizeof *w);
  uint64_t s = seed;
  w->t = calloc(ntemplates, sizeof *w->t);
  w->arena_cap = ntemplates * max_cmds * (cmd_bytes ? cmd_bytes + 256 : 900) + 1;
  w->arena = malloc(w->arena_cap);
  if (!w->t || !w->arena) return -1;
  /* Offsets first (the arena does not move), then spans. */
  char buf[8192];
  for (size_t i = 0; i < ntemplates; i++) {
    size_t nc = min_cmds + pick(&s, max_cmds - min_cmds + 1);
    wl_template *t = &w->t[i];
    t->cmds = calloc(nc, sizeof *t->cmds);
    if (!t->cmds) return -1;
    t->ncmds = nc;
    for (size_t k = 0; k < nc; k++) {
      size_t target = cmd_bytes ? cmd_bytes : 20 + pick(&s, 580);
      int invalid = pick(&s, 100) < invalid_pct;
      size_t len = make_command(&s, buf, target + 200 < sizeof buf ? target + 200 : sizeof buf, target, invalid);
      t->cmds[k].ptr = w->arena + w->arena_len;
      t->cmds[k].len = len;
      if (put(w, buf, len)) return -1;
      t->bytes += len;
    }
    w->total_cmds += nc;
    w->total_bytes += t->bytes;
  }
  w->n = ntemplates;
  return 0;
}

void wl_free(workload *w) {
  for (size_t i = 0; i < w->n; i++) free(w->t[i].cmds);
  free(w->t);
  free(w->arena);
  memset(w, 0, sizeof *w);
}
