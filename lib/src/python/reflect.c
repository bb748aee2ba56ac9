/* What makes a call not-static: the one table of reflection and code run from text. In a file
 * that reaches the SDK, any of these (as a name, an attribute, an imported name or a module
 * imported, whatever it is bound to: `look = getattr`, `from operator import attrgetter as ag`,
 * `builtins.exec`, `__builtins__["exec"]`, `len.__self__.exec`) may change any SDK call of the
 * file, so analyze.c says every call not-static once, naming the first one found and its line.
 * A file that cannot reach the SDK says nothing of them (check.c). Any dunder attribute but
 * `__name__`, `__qualname__` and `__module__` read is one too. docs/python.md has this table. */
#include <stdlib.h>
#include <string.h>
#include "python/python_int.h"

enum { RW_NAME = 1, RW_ATTR = 2, RW_MODULE = 4 }; /* where the word counts */

typedef struct bl_reflect {
  const char *word;
  unsigned where;
} bl_reflect;

/* Sorted by word (strcmp), for bsearch. */
static const bl_reflect TABLE[] = {
    {"CodeType", RW_NAME | RW_ATTR},          /* types: code objects made */
    {"FunctionType", RW_NAME | RW_ATTR},      /* types: functions made from code */
    {"__annotations__", RW_NAME | RW_ATTR},   /* filled by annotated assignments */
    {"__builtins__", RW_NAME | RW_ATTR},      /* every builtin by its text */
    {"__doc__", RW_NAME},                     /* the docstring's value, read back */
    {"__import__", RW_NAME | RW_ATTR},        /* modules by their text */
    {"_getframe", RW_NAME | RW_ATTR},         /* sys: frames, their locals and globals */
    {"annotationlib", RW_MODULE},             /* evaluation of string annotations (3.14) */
    {"attrgetter", RW_NAME | RW_ATTR},        /* operator: attributes by their text */
    {"breakpoint", RW_NAME | RW_ATTR},        /* a debugger that runs text */
    {"builtins", RW_MODULE},                  /* the builtins as a module */
    {"code", RW_MODULE},                      /* interpreters of text */
    {"codeop", RW_MODULE},
    {"compile", RW_NAME | RW_ATTR},           /* code from text */
    {"copyreg", RW_MODULE},                   /* what unpickling calls */
    {"ctypes", RW_MODULE},                    /* memory */
    {"delattr", RW_NAME | RW_ATTR},           /* attributes by their text */
    {"doctest", RW_MODULE},                   /* runs text */
    {"eval", RW_NAME | RW_ATTR},              /* code from text */
    {"exec", RW_NAME | RW_ATTR},
    {"gc", RW_MODULE},                        /* every object */
    {"get_annotations", RW_NAME | RW_ATTR},   /* inspect: string annotations evaluated */
    {"get_type_hints", RW_NAME | RW_ATTR},    /* typing: string annotations evaluated */
    {"getattr", RW_NAME | RW_ATTR},           /* attributes by their text */
    {"globals", RW_NAME | RW_ATTR},           /* names by their text */
    {"importlib", RW_MODULE},                 /* modules by their text */
    {"inspect", RW_MODULE},                   /* frames, string annotations */
    {"locals", RW_NAME | RW_ATTR},
    {"marshal", RW_MODULE},                   /* code objects loaded */
    {"methodcaller", RW_NAME | RW_ATTR},      /* operator: methods by their text */
    {"modules", RW_ATTR},                     /* sys.modules: modules by their text */
    {"pdb", RW_MODULE},                       /* a debugger that runs text */
    {"pickle", RW_MODULE},                    /* loading calls what the data names */
    {"runpy", RW_MODULE},                     /* runs modules by their text */
    {"setattr", RW_NAME | RW_ATTR},           /* attributes by their text */
    {"setprofile", RW_NAME | RW_ATTR},        /* sys: a hook on every call */
    {"settrace", RW_NAME | RW_ATTR},          /* sys: a hook on every line */
    {"shelve", RW_MODULE},                    /* pickle underneath */
    {"timeit", RW_MODULE},                    /* timeit("...") runs text */
    {"vars", RW_NAME | RW_ATTR},              /* attributes by their text */
};

static int by_word(const void *k, const void *e) {
  const bl_reflect *key = k, *x = e;
  size_t l = strlen(key->word), m = strlen(x->word);
  int c = memcmp(key->word, x->word, l < m ? l : m);
  return c ? c : l < m ? -1 : l > m;
}

/* Is w[0..l) in the table for `where` (1 a name, 2 an attribute, 4 a module imported)? A dunder
 * attribute is, but __name__, __qualname__ and __module__. */
int bl_py_reflect_word(const char *w, size_t l, unsigned where) {
  if (l < 2 || l > 16) return 0;
  if (where == RW_ATTR && l > 4 && w[0] == '_' && w[1] == '_' && w[l - 1] == '_' && w[l - 2] == '_')
    return !(l == 8 && !memcmp(w, "__name__", 8)) && !(l == 12 && !memcmp(w, "__qualname__", 12)) &&
           !(l == 10 && !memcmp(w, "__module__", 10));
  char buf[17];
  memcpy(buf, w, l);
  buf[l] = '\0';
  bl_reflect key = {buf, 0};
  const bl_reflect *e = bsearch(&key, TABLE, sizeof TABLE / sizeof *TABLE, sizeof *TABLE, by_word);
  return e && (e->where & where);
}
