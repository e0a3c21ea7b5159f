/* A small Itanium C++ demangler for kernel names: plain and namespaced
 * functions whose parameters are builtin types, named classes, pointers,
 * references and cv-qualifiers.  Templates and function types are not
 * handled (ptx_demangle returns false and callers fall back to the
 * mangled name). */
#ifndef WARPSIM_PTX_DEMANGLE_H
#define WARPSIM_PTX_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* "_ZN3lab8scaleAllEPffi" -> name "lab::scaleAll",
 * sig "lab::scaleAll(float*, float, int)" (c++filt's spelling).
 * Either output may be NULL.  Returns false when mangled is not a
 * mangled name this demangler understands. */
bool ptx_demangle(const char *mangled, char *name, size_t nname, char *sig, size_t nsig);

#endif
