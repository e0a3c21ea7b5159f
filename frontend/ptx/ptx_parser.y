/* PLACEHOLDER grammar: replaced by the PTX parser work. */
%define api.pure full
%define api.prefix {ptx}
%code { int ptxlex(PTXSTYPE *lval); void ptxerror(const char *s); }
%%
module: %empty ;
%%
