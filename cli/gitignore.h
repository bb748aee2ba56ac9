/* What git ignores, decided as git decides it (gitignore(5)), without running git: glob matching
 * (gi_wildmatch, the semantics of git's wildmatch), one .gitignore's patterns (gi_list), and the
 * patterns that apply to a directory being walked (gi_stack: a frame per directory, deepest
 * last, with the repository's .git/info/exclude under its root's frame). Used by walk.c and by
 * the tests' probe (tests/gitignore_probe.c), which compares it with `git check-ignore`. */
#ifndef BOXLINT_GITIGNORE_H
#define BOXLINT_GITIGNORE_H
#include <stddef.h>

/* gi_wildmatch flag: '*', '?' and [...] do not match '/'; a '**' between slashes (or at an end)
 * matches any number of directories. Without it, '*' matches '/' too. */
enum { GI_PATHNAME = 1 };

/* Does the glob `pat` match all of `text`? git's wildmatch: '*', '?', '[...]' (with '!' or '^'
 * negation, ranges, [:class:] names), backslash escapes; an unterminated '[' matches nothing.
 * The same answers as git's, in time about plen x tlen (git's is exponential in the stars). */
int gi_wildmatch(const char *pat, size_t plen, const char *text, size_t tlen, unsigned flags);

/* The patterns of one .gitignore (or info/exclude), in file order. */
typedef struct gi_list gi_list;

/* Parse a .gitignore's text (a UTF-8 BOM, CRLF line ends, comments, trailing spaces, `\ `
 * escapes, '!' and trailing '/' handled as git does). Returns 0 with *out set (free it with
 * gi_list_free; an empty list when nothing is in the text), or -1 when out of memory. */
int gi_list_parse(const char *text, size_t len, gi_list **out);
void gi_list_free(gi_list *l);

enum gi_verdict { GI_NONE, GI_IGNORED, GI_KEPT };
/* The verdict of the last pattern of `l` that matches `path` (relative to the directory of the
 * list's file, without a leading or trailing '/'; a directory when `is_dir`): GI_IGNORED,
 * GI_KEPT for a '!' pattern, GI_NONE when no pattern matches. */
enum gi_verdict gi_list_match(const gi_list *l, const char *path, size_t len, int is_dir);

/* The patterns that apply where a walk is: push a frame when entering a directory, pop it when
 * leaving. A frame's patterns see paths from byte `base` of the path given to gi_stack_ignored
 * (the path relative to that directory). A repository's root frame also holds its
 * .git/info/exclude, and frames above it (an enclosing repository) are not consulted. */
typedef struct gi_stack {
  struct gi_frame *f;
  size_t n, cap;
} gi_stack;

/* Push a frame with the text of the directory's .gitignore and, for a repository's root, of its
 * info/exclude (either NULL when there is none); the texts are parsed, not kept. Returns 0, or -1
 * when out of memory (nothing pushed). */
int gi_stack_push(gi_stack *s, const char *gitignore, size_t glen, const char *exclude,
                  size_t elen, size_t base, int repo_root);
void gi_stack_pop(gi_stack *s);
void gi_stack_free(gi_stack *s);
/* Is `path` (a directory when `is_dir`) ignored by the frames? The directories above it must
 * have been checked already (a walk does not enter an ignored directory): as in git, nothing
 * inside an ignored directory can be re-included. */
int gi_stack_ignored(const gi_stack *s, const char *path, size_t len, int is_dir);

/* Read a .gitignore (`nofollow`: a symbolic link counts as no file, as git does not follow one)
 * or an exclude file whole. Returns 0 with *buf malloc'd (the caller frees it), or 0 with *buf
 * NULL when there is no such file, or an errno value (the file exists but could not be read). */
int gi_read(const char *path, int nofollow, char **buf, size_t *len);
/* The info/exclude file of the repository whose work tree is `workdir` (`.git` a directory, or
 * a file "gitdir: DIR" as in worktrees and submodules, whose commondir is followed). Returns 0
 * with *out malloc'd, or 0 with *out NULL when `workdir` has no .git, or ENOMEM. */
int gi_exclude_path(const char *workdir, char **out);

#endif
