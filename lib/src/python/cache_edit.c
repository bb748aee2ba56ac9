/* The edits a kept check (cache.c) takes without reading the file again, exactly:
 * - inside one string literal's body (not an f-string), bytes without a quote, backslash, line
 *   break or anything but printable ASCII and tabs, after a byte that is not a backslash: the
 *   tokens and the tree keep their shapes; the literal is decoded again, the calls whose
 *   findings read its lines are checked again, every other finding moves with the bytes. Not
 *   when the analysis read the literal's text (getattr(x, "NAME"), a string spelling an SDK
 *   name: analyze.c), nor on the first two lines (an encoding declaration);
 * - inside one identifier (cache_name.c says which);
 * - none at all.
 * Anything else is a whole check. */
#include <string.h>
#include "python/cache_int.h"

/* Printable ASCII or a tab, and neither quote nor backslash: such bytes inside a literal's body
 * end no token and start no escape. */
static int plain_bytes(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)s[i];
    if ((b < 0x20 && b != '\t') || b > 0x7e || b == '"' || b == '\'' || b == '\\') return 0;
  }
  return 1;
}

/* The literal whose token holds byte `off`, or NULL. */
static const bl_pylit *lit_at(const boxlint_python_cache *c, size_t off) {
  size_t lo = 0, hi = c->nlits;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->lits[mid].start <= off) lo = mid + 1;
    else hi = mid;
  }
  return lo && off < c->lits[lo - 1].end ? &c->lits[lo - 1] : NULL;
}

static void lit_piece(const boxlint_python_cache *c, const bl_pylit *l, bl_piece *p) {
  bl_pytok t = {BL_PT_STRING, l->flags, l->start, l->end};
  bl_py_piece(c->text, &t, p);
}

/*----------------------------------------------------------------------------------------------
 * Moving what is kept with the bytes: every offset at or after `at` (the end of the bytes
 * replaced) moves by `d`
 *--------------------------------------------------------------------------------------------*/

#define SH(x)                                                                                    \
  do {                                                                                           \
    if ((x) >= at) (x) += d;                                                                     \
  } while (0)

static void shift_value(bl_pyval *v, size_t at, size_t d) {
  if (v->end < at && v->start < at) return; /* wholly before: nothing of it moves */
  SH(v->start);
  SH(v->end);
  SH(v->open);
  SH(v->close);
  for (size_t i = 0; i < v->npieces; i++) {
    SH(v->pieces[i].start);
    SH(v->pieces[i].body);
    SH(v->pieces[i].body_end);
    SH(v->pieces[i].end);
  }
  if (v->str.src) v->src_move += d; /* every one is past `at`: moved when a check reads them */
  for (size_t i = 0; i < v->nargs; i++) {
    SH(v->args[i].name);
    SH(v->args[i].name_end);
  }
}

static void shift_reader(bl_pyreader *rd, const char *text, size_t n0, size_t at, size_t d) {
  for (bl_pyval *v = rd->vals; v; v = v->next_free) shift_value(v, at, d);
  for (size_t i = 0; i < rd->ncalls; i++) {
    bl_pycall *c = &rd->calls[i];
    SH(c->name);
    SH(c->name_end);
    SH(c->open);
    SH(c->close);
    SH(c->start);
    SH(c->end);
    for (size_t j = 0; j < c->nargs; j++) {
      SH(c->args[j].name);
      SH(c->args[j].name_end);
    }
  }
  for (size_t i = 0; i < rd->nrefs; i++) {
    SH(rd->refs[i].start);
    SH(rd->refs[i].end);
  }
  for (size_t i = 0; i < rd->nsups; i++) {
    bl_pysup *p = &rd->sups[i];
    SH(p->start);
    SH(p->end);
    SH(p->c.ids);
    SH(p->c.ids_end);
    SH(p->c.bad);
    SH(p->c.bad_end);
  }
  for (size_t i = 0; i < rd->nlit_reads; i++) SH(rd->lit_reads[i]);
  /* the names' keys that are the text's own bytes */
  for (size_t i = 0; i < rd->cap_names; i++) {
    bl_pyname *b = rd->names[i];
    if (b && (uintptr_t)b->key >= (uintptr_t)(text + at) && (uintptr_t)b->key < (uintptr_t)(text + n0))
      b->key = text + ((size_t)(b->key - text) + d); /* the offset moves, modulo 2^N */
  }
}

static void shift_diags(boxlint_diag *v, size_t n, size_t at, size_t d) {
  for (size_t i = 0; i < n; i++) {
    SH(v[i].offset);
    SH(v[i].end_offset);
    if (v[i].fix) {
      boxlint_fix *f = (boxlint_fix *)(uintptr_t)v[i].fix; /* the cache's own reports' */
      SH(f->offset);
    }
  }
}

/* The text becomes buf: bytes [p, e) of the old one replaced by buf[p, len - (n0 - e)); the
 * offsets at `at` (e, or past p when what starts at p stays) and after it move. */
static void move_all(boxlint_python_cache *c, const char *buf, size_t len, size_t p, size_t e,
                     size_t at) {
  size_t n0 = c->len, d = len - n0; /* modulo 2^N: adding it moves by len - n0 */
  memmove(c->text + p + (len - (n0 - e) - p), c->text + e, n0 - e);
  memcpy(c->text + p, buf + p, len - (n0 - e) - p);
  c->len = len;
  shift_reader(&c->kp.rd, c->text, n0, at, d);
  c->kp.rd.s = c->text;
  c->kp.rd.n = len;
  for (size_t i = 0; i < c->nlits; i++) {
    SH(c->lits[i].start);
    SH(c->lits[i].end);
  }
  bl_py_cache_idents_move(c, at, d);
  for (size_t i = 0; i < c->nlines; i++) SH(c->lines[i]);
  for (size_t i = 0; i < c->ndeps; i++) {
    SH(c->deps[i].a);
    SH(c->deps[i].b);
  }
  for (size_t i = 0; i < c->kp.npol; i++) SH(c->kp.policies[i]);
  shift_diags(c->cur, c->ncur, at, d);
}

/* The decoded strings of v and of all it reaches (through the names the check resolved) moved
 * with the text, before a check reads them. 0, -1 too deep. */
static int settle(bl_pyreader *rd, bl_pyval *v, int depth) {
  if (!v) return 0;
  if (depth > 64) return -1;
  if (v->src_move) {
    for (size_t i = 0; i <= v->str.len; i++) {
      v->str.src[i] += v->src_move;
      v->str.src_end[i] += v->src_move;
    }
    v->src_move = 0;
  }
  if (v->kind == BL_PV_NAME) {
    const char *k;
    size_t kl;
    if (bl_py_name_key(rd, rd->s + v->start, v->end - v->start, &k, &kl)) return -1;
    bl_pyname *b = rd->cap_names ? *bl_py_name_slot(rd, k, kl) : NULL;
    return b && b->state == 2 ? settle(rd, (bl_pyval *)(uintptr_t)b->resolved, depth + 1) : 0;
  }
  for (size_t i = 0; i < v->nitems; i++)
    if (settle(rd, v->items[i], depth + 1) || (v->keys && settle(rd, v->keys[i], depth + 1)))
      return -1;
  for (size_t i = 0; i < v->nargs; i++)
    if (settle(rd, v->args[i].v, depth + 1)) return -1;
  return 0;
}

static int settle_call(bl_pyreader *rd, const bl_pycall *c) {
  if (settle(rd, c->policy, 0)) return -1;
  for (size_t j = 0; j < c->nargs; j++)
    if (settle(rd, c->args[j].v, 0)) return -1;
  return 0;
}

/*----------------------------------------------------------------------------------------------
 * A string edit
 *--------------------------------------------------------------------------------------------*/

/* Decode value v again from its pieces (whose tokens are literals of the cache). 0, 1 when it
 * no longer decodes, -1 out of memory. */
static int redecode(boxlint_python_cache *c, bl_pyval *v) {
  bl_pystr ns;
  memset(&ns, 0, sizeof ns);
  ns.is_bytes = v->str.is_bytes;
  for (size_t k = 0; k < v->npieces; k++) {
    const bl_pylit *l = lit_at(c, v->pieces[k].start);
    if (!l || l->start != v->pieces[k].start) {
      bl_pystr_free(&c->mem, &ns);
      return 1;
    }
    lit_piece(c, l, &v->pieces[k]);
    const char *err = NULL;
    size_t eo = 0;
    int rc = bl_py_decode(&c->mem, c->text, &v->pieces[k], (uint32_t)k, &ns, &err, &eo);
    if (rc) {
      bl_pystr_free(&c->mem, &ns);
      return rc;
    }
  }
  if (ns.dynamic != v->str.dynamic) {
    bl_pystr_free(&c->mem, &ns);
    return 1;
  }
  if (!v->str.arena) bl_pystr_free(&c->mem, &v->str);
  v->str = ns;
  v->src_move = 0; /* decoded at the text's offsets now */
  return 0;
}

/* Does the run of literals holding l spell a name of the SDK (analyze.c's sdk_string would
 * then report it)? 1 yes or cannot tell, 0 no. */
static int spells_sdk(boxlint_python_cache *c, const bl_pylit *l) {
  static const char *const W[] = {"code_interpreter", "add_code_interpreter", "NetworkPolicy"};
  bl_pystr v;
  memset(&v, 0, sizeof v);
  int rc = 0;
  for (uint32_t i = l->run; !rc && i < l->run_end; i++) {
    bl_piece p;
    lit_piece(c, &c->lits[i], &p);
    const char *err;
    size_t eo;
    rc = bl_py_decode(&c->mem, c->text, &p, i - l->run, &v, &err, &eo) != 0;
  }
  for (size_t i = 0; !rc && i < 3; i++)
    rc = strlen(W[i]) == v.len && !memcmp(W[i], v.bytes, v.len);
  bl_pystr_free(&c->mem, &v);
  return rc;
}

static int overlaps(size_t a, size_t b, size_t x, size_t y) { return a < y && x < b; }

/* May the edit of bytes [p, at) of literal l be taken (before anything moves)? */
static int string_edit_ok(const boxlint_python_cache *c, const bl_pylit *l, size_t p, size_t at) {
  bl_piece pc;
  lit_piece(c, l, &pc);
  if ((pc.flags & BL_LIT_FSTRING) || p < pc.body || at > pc.body_end || p < c->head) return 0;
  /* after a backslash the bytes escape another; after a \r they may split a \r\n in two */
  if (c->text[p - 1] == '\\' || c->text[p - 1] == '\r') return 0;
  /* in a triple-quoted literal, a deletion may join two runs of its quote into a closing one */
  if ((pc.flags & BL_LIT_TRIPLE) && (c->text[p - 1] == pc.quote || c->text[at] == pc.quote))
    return 0;
  const bl_pyreader *rd = &c->kp.rd;
  for (size_t i = 0; i + 1 < rd->nlit_reads; i += 2)
    if (overlaps(rd->lit_reads[i], rd->lit_reads[i + 1], l->start, l->end)) return 0;
  for (size_t i = 0; i < rd->nrefs; i++)
    if (overlaps(rd->refs[i].start, rd->refs[i].end, l->start, l->end)) return 0;
  return 1;
}

/* The calls to check again: those whose findings read the lines of [a, b) (flags[i] = 1).
 * Returns how many. */
static size_t affected(const boxlint_python_cache *c, size_t a, size_t b, unsigned char *flags) {
  size_t k = 0;
  for (size_t i = 0; i < c->ndeps; i++) {
    const bl_pydep *d = &c->deps[i];
    if (overlaps(d->a, d->b, a, b) && !flags[d->call]) {
      flags[d->call] = 1;
      k++;
    }
  }
  return k;
}

/* cur with the findings of the calls flagged replaced by xr's ([xlo[i], xhi[i])), in the same
 * order. 0, -1 out of memory. */
static int splice(boxlint_python_cache *c, const unsigned char *flags, const boxlint_report *xr,
                  const size_t *xlo, const size_t *xhi) {
  const bl_pyreader *rd = &c->kp.rd;
  size_t n = c->ncur - c->refs_lo;
  for (size_t i = 0; i < rd->ncalls; i++)
    n += flags[i] ? xhi[i] - xlo[i] : c->hi[i] - c->lo[i];
  boxlint_diag *v = boxlint__malloc(&c->mem, (n + 1) * sizeof *v);
  if (!v) return -1;
  size_t w = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < rd->ncalls; i++) {
      if ((rd->calls[i].kind == BL_CALL_BIND) != (pass == 0)) continue;
      size_t k = flags[i] ? xhi[i] - xlo[i] : c->hi[i] - c->lo[i];
      if (k) memcpy(v + w, flags[i] ? xr->diags + xlo[i] : c->cur + c->lo[i], k * sizeof *v);
      c->lo[i] = w;
      w += k;
      c->hi[i] = w;
    }
  if (c->ncur > c->refs_lo) memcpy(v + w, c->cur + c->refs_lo, (c->ncur - c->refs_lo) * sizeof *v);
  c->refs_lo = w;
  boxlint__free(&c->mem, c->cur);
  c->cur = v;
  c->ncur = c->cap_cur = n;
  return 0;
}

/* Check the flagged calls again into a report kept with the cache, then splice. 0, 1 when the
 * check must be done whole, -1 out of memory. */
static int recheck(boxlint_python_cache *c, const unsigned char *flags,
                   const boxlint_options *opts, const boxlint_policy_options *popts) {
  bl_pyreader *rd = &c->kp.rd;
  boxlint_report *xr = NULL;
  size_t *xlo = boxlint__malloc(&c->mem, 2 * (rd->ncalls + 1) * sizeof *xlo), *xhi;
  int rc = -1;
  if (!xlo || boxlint_report_new(&xr, &c->mem.a) != BOXLINT_OK) goto out;
  xhi = xlo + rd->ncalls + 1;
  rd->frozen = 1;
  rd->stale = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < rd->ncalls; i++) {
      if (!flags[i] || (rd->calls[i].kind == BL_CALL_BIND) != (pass == 0)) continue;
      xlo[i] = xr->ndiags;
      if (settle_call(rd, &rd->calls[i])) {
        rc = 1;
        goto out;
      }
      if (bl_py_recheck_call(&c->kp, xr, c->tmp, i, opts, popts)) goto out;
      xhi[i] = xr->ndiags;
    }
  if (rd->stale || rd->oom || rd->err || xr->oom) {
    rc = 1;
    goto out;
  }
  if (c->nextra == c->cap_extra) {
    size_t nc = c->cap_extra ? c->cap_extra * 2 : 8;
    boxlint_report **e = boxlint__realloc(&c->mem, c->extra, c->cap_extra * sizeof *e, nc * sizeof *e);
    if (!e) goto out;
    c->extra = e;
    c->cap_extra = nc;
  }
  rc = splice(c, flags, xr, xlo, xhi);
  if (!rc) {
    c->extra[c->nextra++] = xr;
    xr = NULL;
  }
out:
  boxlint_report_free(xr);
  boxlint__free(&c->mem, xlo);
  return rc;
}

/* After the move: the values holding literal l decoded again, the calls that read it checked
 * again. 0, 1 whole check, -1 out of memory. */
static int string_after(boxlint_python_cache *c, const bl_pylit *l, const boxlint_options *opts,
                        const boxlint_policy_options *popts) {
  if (spells_sdk(c, l)) return 1;
  for (bl_pyval *v = c->kp.rd.vals; v; v = v->next_free) {
    int has = 0;
    for (size_t k = 0; k < v->npieces && !has; k++) has = v->pieces[k].start == l->start;
    int rc = has ? redecode(c, v) : 0;
    if (rc) return rc;
  }
  size_t nc = c->kp.rd.ncalls;
  unsigned char *flags = boxlint__malloc(&c->mem, nc + 1);
  if (!flags) return -1;
  memset(flags, 0, nc + 1);
  int rc = affected(c, l->start, l->end, flags) ? recheck(c, flags, opts, popts) : 0;
  boxlint__free(&c->mem, flags);
  return rc;
}

/* The length of the common prefix of a and b (m bytes each at most), eight bytes at a time. */
static size_t common_prefix(const char *a, const char *b, size_t m) {
  size_t p = 0;
  for (uint64_t x, y; p + 8 <= m; p += 8) {
    memcpy(&x, a + p, 8);
    memcpy(&y, b + p, 8);
    if (x != y) break;
  }
  while (p < m && a[p] == b[p]) p++;
  return p;
}

/* The length of the common suffix of a[0..na) and b[0..nb), m bytes at most. */
static size_t common_suffix(const char *a, size_t na, const char *b, size_t nb, size_t m) {
  size_t q = 0;
  for (uint64_t x, y; q + 8 <= m; q += 8) {
    memcpy(&x, a + na - q - 8, 8);
    memcpy(&y, b + nb - q - 8, 8);
    if (x != y) break;
  }
  while (q < m && a[na - 1 - q] == b[nb - 1 - q]) q++;
  return q;
}

int bl_py_cache_reuse(boxlint_python_cache *c, boxlint_report *r, const char *buf, size_t len,
                      const boxlint_options *opts, const boxlint_policy_options *popts,
                      boxlint_status *st) {
  size_t n0 = c->len, m = n0 < len ? n0 : len;
  size_t p = common_prefix(c->text, buf, m), q = common_suffix(c->text, n0, buf, len, m - p);
  size_t at = n0 - q, ins = len - q - p, move_at = at;
  int kind = 3;
  if (p == n0 && p == len) {
    kind = 3;
  } else if (len + 1 > c->cap || !plain_bytes(c->text + p, at - p) || !plain_bytes(buf + p, ins)) {
    return 0;
  } else {
    const bl_pylit *l = lit_at(c, p);
    /* a literal that spells a word of the SDK, before or after the edit, may change whether
     * the file reaches it, and so whether its reflection is said (reach.c) */
    int reach = l && c->kp.rd.nrefs &&
                (bl_py_holds_sdk_word(c->text, l->start, l->end) ||
                 bl_py_holds_sdk_word(buf, l->start, l->end + ins - (at - p)));
    if (l && !reach && string_edit_ok(c, l, p, at)) {
      size_t li = (size_t)(l - c->lits);
      move_all(c, buf, len, p, at, at);
      if (string_after(c, &c->lits[li], opts, popts)) return 0;
      kind = 1;
    } else if (!l && bl_py_cache_ident_ok(c, buf, len, p, at, &move_at)) {
      move_all(c, buf, len, p, at, move_at);
      kind = 2;
    } else {
      return 0;
    }
  }
  c->stats[kind]++;
  *st = bl_py_cache_emit(c, r, opts) || r->oom ? BOXLINT_ENOMEM : BOXLINT_OK;
  return 1;
}
