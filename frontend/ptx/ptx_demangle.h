/* A small Itanium C++ demangler for kernel names: plain, namespaced
 * (anonymous namespaces too) and template functions whose parameters and
 * template arguments are builtin types, named classes and enums (templates
 * among them), pointers, references, cv-qualifiers, template parameters,
 * parameter packs and integer, bool and enum literals.  Arrays, function
 * types, lambdas, operators and the like are not handled (the functions
 * return false and callers fall back to the mangled name).  The spelling
 * is c++filt's. */
#ifndef WARPSIM_PTX_DEMANGLE_H
#define WARPSIM_PTX_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest part (library kernels' template arguments run long). */
#define PTX_DEMANGLED_MAX 2048

typedef struct ptx_demangled {
    char sig[2 * PTX_DEMANGLED_MAX];    /* "void lab::reduceStage<256, 0>(float*, int)", as c++filt */
    char name[PTX_DEMANGLED_MAX];       /* "lab::reduceStage<256, 0>": scope, name, template arguments */
    char base[PTX_DEMANGLED_MAX];       /* "lab::reduceStage": without the final template arguments */
    char short_base[PTX_DEMANGLED_MAX]; /* "reduceStage": without the scope either */
} ptx_demangled;

/* Fills *out from a mangled name such as "_ZN3lab11reduceStageILi256ELi0EEEvPfi".
 * Returns false (and *out empty) when mangled is not a mangled name this
 * demangler understands. */
bool ptx_demangle_parts(const char *mangled, ptx_demangled *out);

/* "_ZN3lab8scaleAllEPffi" -> name "lab::scaleAll",
 * sig "lab::scaleAll(float*, float, int)".  Either output may be NULL.
 * Returns false when mangled is not a mangled name this demangler
 * understands. */
bool ptx_demangle(const char *mangled, char *name, size_t nname, char *sig, size_t nsig);

#endif
