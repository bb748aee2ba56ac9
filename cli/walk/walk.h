/* cli/walk/: walking a directory tree with git's ignore rules, a small library of its own (libc
 * only: it knows nothing of boxlint's files or of the command, which hands it a filter and a
 * callback). walk.c walks: depth first, sorted, what it skips, the --exclude globs, the git work
 * tree's ignore files; gitignore.c decides what git ignores, as git decides it (gitignore(5)),
 * without running git: glob matching (gi_wildmatch, the semantics of git's wildmatch), one
 * .gitignore's patterns (gi_list), and the patterns that apply to a directory being walked
 * (gi_stack: a frame per directory, deepest last, with the repository's .git/info/exclude under
 * its root's frame). The folder's whole interface: the command's input/dir.c and the tests'
 * probe (tests/oracle/gitignore_probe.c, which compares gitignore.c with `git check-ignore`). */
#ifndef BOXLINT_CLI_WALK_H
#define BOXLINT_CLI_WALK_H
#include <stddef.h>

/*==============================================================================================
 * MARK: gitignore.c: what git ignores
 *============================================================================================*/

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

/*==============================================================================================
 * MARK: walk.c: a directory tree
 *============================================================================================*/

/* What a walk asks and tells its caller (every hook may be NULL; `ctx` is passed to each). */
typedef struct wk_hooks {
  /* The directory is open, nothing in it read yet: `root` is its real path. Nonzero stops the
   * walk (a failure, said by the caller). */
  int (*start)(void *ctx, const char *root);
  /* Is the regular file `name` one to hand to `each`? `path`: its real path (the walked
   * directory's real path, then the path inside it). NULL: every file. */
  int (*want)(void *ctx, const char *name, const char *path);
  /* A wanted file, its path spelled from the directory as given ("DIR/src/a/t.py"). It is
   * opened, if at all, by `each`: not through a link, only if still regular. Nonzero counts as
   * a failure (the walk goes on). */
  int (*each)(void *ctx, const char *path);
  /* Something could not be walked: `path` (NULL: the walk itself) and why (strerror's text, or
   * "out of memory"). The walk goes on where it can. */
  void (*error)(void *ctx, const char *path, const char *why);
  void *ctx;
} wk_hooks;

/* Walk directory `dir` depth first, the entries of each directory in bytewise (strcmp) order,
 * handing `each` every regular file `want` wants. Skipped: hidden directories (but `dir` itself
 * is walked whatever its name), node_modules, __pycache__, site-packages, virtual environments
 * (a directory holding pyvenv.cfg or conda-meta/), symbolic links (to a file or a directory: the
 * walk stays in the tree) and what is not a regular file or a directory, what an exclude glob
 * matches (`excludes`: without '/', a name; with one, a path from `dir`; a trailing '/':
 * directories only) and, inside a git work tree only, what git ignores (.gitignore files from
 * the work tree's root down, .git/info/exclude). Returns 0, or -1 when something could not be
 * walked (each told to `error`, the rest still walked), `start` stopped it or `each` failed. */
int wk_walk(const char *dir, const char *const *excludes, size_t nexcludes, const wk_hooks *h);
/* Would a walk pass over the file `path` because of where it is (whether it is wanted aside)?
 * 1 when a directory on its way is skipped (hidden, node_modules, __pycache__, site-packages, a
 * virtual environment), an exclude glob matches it or a directory above it, or git ignores it,
 * as a walk from the working directory (when the file is below it; else from the root of the
 * git work tree holding it) would find; else 0 (also when its directory does not exist). Only
 * `h->error` is called (an ignore file that cannot be read). */
int wk_skips(const char *path, const char *const *excludes, size_t nexcludes, const wk_hooks *h);

#endif
