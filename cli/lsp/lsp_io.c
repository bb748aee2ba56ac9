/* The Language Server Protocol's base protocol on two file descriptors: messages framed by a
 * `Content-Length` header (other headers ignored), read with a deadline so that the server can
 * publish debounced diagnostics while it waits. Owns the input buffer, the framing errors and
 * their recovery: a header block that cannot be read is dropped up to the next `Content-Length`; a body longer than the limit is read and thrown away. Called by
 * server.c and session.c; calls only libc and jansson. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>
#include "lsp/lsp.h"

enum { HEADER_MAX = 8192 };

void lsp_io_init(lsp_io *io, int in_fd, int out_fd, size_t max_body) {
  memset(io, 0, sizeof *io);
  io->in_fd = in_fd;
  io->out_fd = out_fd;
  io->max_body = max_body;
#ifdef F_SETPIPE_SZ
  /* A publish of many findings is larger than a pipe's 64 KiB: with room for it, the server
   * writes it in one go instead of waiting for the client to read part of it (Linux; a file
   * or a terminal refuses, which changes nothing). */
  (void)fcntl(out_fd, F_SETPIPE_SZ, 1 << 20);
  (void)fcntl(in_fd, F_SETPIPE_SZ, 1 << 20);
#endif
}

void lsp_io_free(lsp_io *io) {
  free(io->buf);
  io->buf = NULL;
  io->len = io->cap = 0;
}

/* Drop the first n buffered bytes. */
static void consume(lsp_io *io, size_t n) {
  memmove(io->buf, io->buf + n, io->len - n);
  io->len -= n;
}

/* Read what is available, waiting at most timeout_ms (-1: forever). Returns 1 (bytes read),
 * 0 (timed out), LSP_EOF. */
static int fill(lsp_io *io, int timeout_ms) {
  struct pollfd p = {io->in_fd, POLLIN, 0};
  for (;;) {
    int r = poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return 0;
    break;
  }
  if (io->cap - io->len < 65536) {
    size_t cap = io->cap ? io->cap * 2 : 131072;
    char *b = realloc(io->buf, cap);
    if (!b) return LSP_EOF; /* nowhere to read into: treated as the end of the stream */
    io->buf = b;
    io->cap = cap;
  }
  for (;;) {
    ssize_t n = read(io->in_fd, io->buf + io->len, io->cap - io->len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return LSP_EOF;
    io->len += (size_t)n;
    return 1;
  }
}

/* Where the header block ends (after its blank line) in the buffer, or 0 when not yet. */
static size_t header_end(const lsp_io *io) {
  for (size_t i = 0; i + 3 < io->len; i++)
    if (!memcmp(io->buf + i, "\r\n\r\n", 4)) return i + 4;
  return 0;
}

/* Where to read on after a framing error: the next "Content-Length" after the first byte
 * (anywhere: a body whose header was lost runs into the next header without a line break), or
 * where a partial one may begin at the end of the buffer, or the buffer's length. */
static size_t resync_point(const lsp_io *io) {
  static const char key[] = "content-length";
  for (size_t i = 1; i < io->len; i++) {
    size_t k = io->len - i < sizeof key - 1 ? io->len - i : sizeof key - 1;
    if (!strncasecmp(io->buf + i, key, k)) return i;
  }
  return io->len;
}

/* Parse the header block buf[0..end): 0 with *length, or -1 with *why. */
static int parse_headers(const char *b, size_t end, size_t *length, const char **why) {
  int have = 0;
  for (size_t i = 0; i + 2 < end;) {
    const char *nl = memchr(b + i, '\n', end - i);
    size_t e = (size_t)(nl - b); /* nl is found: the block ends in \r\n\r\n */
    if (e == i || b[e - 1] != '\r') {
      *why = "a header line does not end in CRLF";
      return -1;
    }
    const char *line = b + i, *colon = memchr(line, ':', e - 1 - i);
    if (!colon) {
      *why = "a header line has no ':'";
      return -1;
    }
    size_t kl = (size_t)(colon - line);
    if (kl == 14 && !strncasecmp(line, "Content-Length", 14)) {
      const char *v = colon + 1, *ve = b + e - 1;
      while (v < ve && (*v == ' ' || *v == '\t')) v++;
      while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
      size_t n = 0;
      if (v == ve || ve - v > 18) {
        *why = "Content-Length is not a number";
        return -1;
      }
      for (const char *p = v; p < ve; p++) {
        if (*p < '0' || *p > '9') {
          *why = "Content-Length is not a number";
          return -1;
        }
        n = n * 10 + (size_t)(*p - '0');
      }
      if (have && n != *length) {
        *why = "two different Content-Length headers";
        return -1;
      }
      *length = n;
      have = 1;
    }
    i = e + 1;
  }
  if (!have) {
    *why = "no Content-Length header";
    return -1;
  }
  return 0;
}

int lsp_read(lsp_io *io, int timeout_ms, char **body, size_t *blen, const char **why) {
  *body = NULL;
  *why = NULL;
  for (;;) {
    if (io->skip) { /* the rest of an oversized body */
      size_t n = io->skip < io->len ? io->skip : io->len;
      consume(io, n);
      io->skip -= n;
      if (io->skip) {
        int r = fill(io, -1);
        if (r == LSP_EOF) return LSP_EOF;
        continue;
      }
    }
    size_t he = header_end(io);
    if (he) {
      size_t length = 0;
      if (parse_headers(io->buf, he, &length, why)) {
        consume(io, resync_point(io) < he ? resync_point(io) : he);
        return LSP_BAD;
      }
      if (length > io->max_body) {
        consume(io, he);
        io->skip = length;
        *why = "Content-Length is larger than the limit; the body was skipped";
        return LSP_TOO_LARGE;
      }
      while (io->len - he < length) {
        int r = fill(io, -1);
        if (r == LSP_EOF) return LSP_EOF;
      }
      char *m = malloc(length + 1);
      if (!m) {
        consume(io, he + length);
        *why = "out of memory for a message";
        return LSP_TOO_LARGE;
      }
      memcpy(m, io->buf + he, length);
      m[length] = 0;
      consume(io, he + length);
      *body = m;
      *blen = length;
      return LSP_MSG;
    }
    if (io->len > HEADER_MAX) { /* no blank line in sight: not a header block */
      size_t r = resync_point(io);
      consume(io, r < io->len ? r : io->len - 16);
      *why = "a header block longer than 8 KiB";
      return LSP_BAD;
    }
    int r = fill(io, timeout_ms);
    if (r == 0) return LSP_TIMEOUT;
    if (r == LSP_EOF) {
      if (io->len && io->len < HEADER_MAX) { /* bytes that never made a message */
        io->len = 0;
        *why = "the input ended inside a message";
        return LSP_BAD;
      }
      return LSP_EOF;
    }
  }
}

int lsp_write_raw(lsp_io *io, const char *body, size_t n) {
  char head[64];
  int hl = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
  struct iovec v[2] = {{head, (size_t)hl}, {(char *)(uintptr_t)body, n}};
  int k = 0;
  while (k < 2) { /* one system call when the pipe has room, else the rest as it drains */
    ssize_t w = writev(io->out_fd, v + k, 2 - k);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    size_t done = (size_t)w;
    while (k < 2 && done >= v[k].iov_len) done -= v[k++].iov_len;
    if (k < 2) {
      v[k].iov_base = (char *)v[k].iov_base + done;
      v[k].iov_len -= done;
    }
  }
  return 0;
}

int lsp_write(lsp_io *io, json_t *msg) {
  char *s = json_dumps(msg, JSON_COMPACT);
  json_decref(msg);
  if (!s) return -1;
  int rc = lsp_write_raw(io, s, strlen(s));
  free(s);
  return rc;
}
