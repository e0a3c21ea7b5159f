/* The PTX grammar: a pure bison parser over the reentrant lexer.  Actions
 * call the IR builder (ptx_build_*.c), which records the first error in
 * the parser state.  An action that fails in a statement of a function
 * body drops the statement and the parse goes on after the next ';'; one
 * that fails elsewhere aborts the parse. */
%define api.pure full
%define api.prefix {ptx}
%define parse.error verbose
%locations
%param {yyscan_t scanner}
%parse-param {ptx_pstate *ps}

%code requires {
#include <stdint.h>
#include "ptx_pstate.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code {
#include <stdio.h>
#include <string.h>
int ptxlex(PTXSTYPE *lval, PTXLTYPE *lloc, yyscan_t scanner);
static void ptxerror(PTXLTYPE *loc, yyscan_t scanner, ptx_pstate *ps, const char *msg);
/* After a fatal error (the lexer's, which may repeat at the same place for
 * ever) the parser is handed the end of the input, so that its error
 * recovery ends instead of discarding tokens. */
static int ptx_next_token(PTXSTYPE *lval, PTXLTYPE *lloc, yyscan_t scanner, const ptx_pstate *ps)
{
    return ps->fatal ? 0 : (ptxlex)(lval, lloc, scanner);
}
#define ptxlex(lval, lloc, scanner) ptx_next_token(lval, lloc, scanner, ps)
#define CHECK(x) do { if (!(x)) YYABORT; } while (0)
/* In a statement of a function body: after the error the parse goes on at
 * the next ';' (the `error ';'` rule), to report more than one. */
#define CHECK_STMT(x) do { if (!(x)) { if (ps->fatal) YYABORT; YYERROR; } } while (0)
#define POS(l) (l).first_line, (l).first_column
}

%union {
    const char *str;
    uint64_t u;
    double d;
    int32_t i;
    int64_t off;
    ptx_operand op;
    ptx_initval iv;
}

%token <str> IDENT "identifier" MNEMONIC "instruction" REGNAME "register"
%token <str> REGDOT "special register" STRING "string" VERSION_DIR ".version"
%token <u> INTLIT "integer" F32LIT "f32 literal" F64LIT "f64 literal"
%token <d> FLOATLIT "floating-point literal"
%token <i> K_SPACE "state space" K_TYPE "type" K_VEC "vector size" K_LINKAGE "linkage"
%token <i> K_PERF "performance directive"
%token K_TARGET ".target" K_ADDRSIZE ".address_size" K_ENTRY ".entry" K_FUNC ".func"
%token K_CALLPROTO ".callprototype" K_ALIGN ".align" K_PTR ".ptr" K_LOC ".loc"
%token K_FILE ".file" K_PRAGMA ".pragma" K_NORETURN ".noreturn" SINK "_"
%token LEXERROR "invalid token"

%type <str> mnem name
%type <op> operand imm addr_base
%type <off> addr_off
%type <iv> init_scalar
%type <i> linkage_list

%%

input
    : module                        { CHECK(ptx_b_module_end(ps)); }
    ;

module
    : %empty
    | module top
    ;

top
    : VERSION_DIR                   { CHECK(ptx_b_version(ps, $1, POS(@1))); }
    | K_TARGET target_list
    | K_ADDRSIZE INTLIT             { ps->m->address_size = (uint32_t)$2; }
    | file_dir
    | loc_dir
    | pragma
    | linkage_list var_decl ';'
    | function
    ;

target_list
    : IDENT                         { CHECK(ptx_b_target(ps, $1)); }
    | target_list ',' IDENT
    ;

linkage_list
    : %empty                        { $$ = 0; ps->linkage = 0; }
    | linkage_list K_LINKAGE        { $$ = $1 | $2; ps->linkage = $$; }
    ;

file_dir
    : K_FILE INTLIT STRING file_extra  { CHECK(ptx_b_file(ps, $2, $3, POS(@1))); }
    ;

file_extra
    : %empty
    | ',' INTLIT ',' INTLIT
    ;

loc_dir
    : K_LOC INTLIT INTLIT INTLIT loc_extra  { ptx_b_loc(ps, $2, $3); }
    ;

loc_extra
    : %empty
    | loc_extra ',' IDENT IDENT
    | loc_extra ',' IDENT INTLIT INTLIT INTLIT
    ;

pragma
    : K_PRAGMA strings ';'
    ;

strings
    : STRING
    | strings ',' STRING
    ;

/* ---- declarations ---- */

var_decl
    : K_SPACE                       { ptx_b_decl_begin(ps, $1, ps->linkage & 1); ps->linkage = 0; }
      attrs decl_items
    ;

attrs
    : %empty
    | attrs attr
    ;

attr
    : K_TYPE                        { CHECK(ptx_b_decl_type(ps, $1, POS(@1))); }
    | K_ALIGN INTLIT                { CHECK(ptx_b_decl_align(ps, $2, POS(@2))); }
    | K_VEC                         { CHECK(ptx_b_decl_vec(ps, $1, POS(@1))); }
    | K_PTR                         { ptx_b_decl_ptr(ps); }
    | K_SPACE                       { CHECK(ptx_b_decl_space(ps, $1, POS(@1))); }
    ;

decl_items
    : decl_item
    | decl_items ',' decl_item
    ;

decl_item
    : decl_name dims init_opt       { CHECK(ptx_b_item_end(ps)); }
    | decl_name '<' INTLIT '>'      { CHECK(ptx_b_item_range(ps, $3, POS(@3))); }
    ;

decl_name
    : name                          { ptx_b_item_begin(ps, $1, POS(@1)); }
    ;

name
    : IDENT
    | REGNAME
    ;

dims
    : %empty
    | dims '[' INTLIT ']'           { CHECK(ptx_b_item_dim(ps, true, $3, POS(@3))); }
    | dims '[' ']'                  { CHECK(ptx_b_item_dim(ps, false, 0, POS(@2))); }
    ;

init_opt
    : %empty
    | '=' init_val
    ;

init_val
    : '{' init_list '}'
    | init_scalar                   { CHECK(ptx_b_item_init(ps, $1, POS(@1))); }
    ;

init_list
    : init_val
    | init_list ',' init_val
    ;

init_scalar
    : INTLIT                        { $$ = (ptx_initval){.kind = PTX_IV_INT, .u = $1}; }
    | '-' INTLIT                    { $$ = (ptx_initval){.kind = PTX_IV_INT, .u = 0 - $2}; }
    | F32LIT                        { $$ = (ptx_initval){.kind = PTX_IV_F32BITS, .u = $1}; }
    | F64LIT                        { $$ = (ptx_initval){.kind = PTX_IV_F64BITS, .u = $1}; }
    | FLOATLIT                      { $$ = (ptx_initval){.kind = PTX_IV_FLOAT, .d = $1}; }
    | '-' FLOATLIT                  { $$ = (ptx_initval){.kind = PTX_IV_FLOAT, .d = -$2}; }
    | IDENT                         { $$ = (ptx_initval){.kind = PTX_IV_SYM, .sym = $1}; }
    | IDENT '+' INTLIT              { $$ = (ptx_initval){.kind = PTX_IV_SYM, .sym = $1, .off = (int64_t)$3}; }
    | IDENT '(' IDENT ')'           { CHECK(ptx_b_generic(ps, $1, POS(@1)));
                                      $$ = (ptx_initval){.kind = PTX_IV_SYM, .sym = $3}; }
    | IDENT '(' IDENT ')' '+' INTLIT { CHECK(ptx_b_generic(ps, $1, POS(@1)));
                                      $$ = (ptx_initval){.kind = PTX_IV_SYM, .sym = $3, .off = (int64_t)$6}; }
    ;

/* ---- functions ---- */

function
    : linkage_list K_ENTRY          { ptx_b_func_begin(ps, true, $1 & 1, POS(@2)); }
      fname '('                     { ps->dt = PTX_DT_PARAMS; }
      params_opt ')' perf_list fbody
    | linkage_list K_FUNC           { ptx_b_func_begin(ps, false, $1 & 1, POS(@2)); }
      rets_opt fname fparams_opt perf_list fbody
    ;

fname
    : IDENT                         { CHECK(ptx_b_func_name(ps, $1, POS(@1))); }
    ;

rets_opt
    : %empty
    | '('                           { ps->dt = PTX_DT_RETS; }
      params_opt ')'
    ;

fparams_opt
    : %empty
    | '('                           { ps->dt = PTX_DT_PARAMS; }
      params_opt ')'
    ;

params_opt
    : %empty
    | params
    ;

params
    : param
    | params ',' param
    ;

param
    : K_SPACE                       { ptx_b_decl_begin(ps, $1, false); }
      attrs param_name dims         { CHECK(ptx_b_item_end(ps)); }
    ;

param_name
    : decl_name
    | SINK                          { ptx_b_item_begin(ps, "_", POS(@1)); }
    ;

perf_list
    : %empty
    | perf_list perf
    ;

perf
    : K_PERF                        { ps->nperf = 0; }
      perf_values                   { CHECK(ptx_b_func_perf(ps, $1, ps->perf, ps->nperf, POS(@1))); }
    | K_NORETURN
    ;

perf_values
    : INTLIT                        { CHECK(ptx_b_perf_value(ps, $1, POS(@1))); }
    | perf_values ',' INTLIT        { CHECK(ptx_b_perf_value(ps, $3, POS(@3))); }
    ;

fbody
    : ';'                           { CHECK(ptx_b_func_end(ps, false)); }
    | '{'                           { ps->dt = PTX_DT_BODY; CHECK(ptx_b_scope_push(ps)); }
      stmts '}'                     { ptx_b_scope_pop(ps); CHECK(ptx_b_func_end(ps, true)); }
    ;

stmts
    : %empty
    | stmts stmt
    ;

stmt
    : var_decl ';'
    | K_LINKAGE                     { ps->linkage = $1; }
      var_decl ';'
    | IDENT ':'                     { CHECK_STMT(ptx_b_label(ps, $1, POS(@1))); }
    | IDENT ':' K_CALLPROTO         { ps->dt = PTX_DT_PROTO; }
      proto_sig ';'                 { ps->dt = PTX_DT_BODY; CHECK(ptx_b_proto(ps, $1, POS(@1))); }
    | insn ';'
    | loc_dir
    | file_dir
    | pragma
    | '{'                           { CHECK(ptx_b_scope_push(ps)); }
      stmts '}'                     { ptx_b_scope_pop(ps); }
    | error ';'                     { if (ps->fatal) YYABORT; ptx_b_recover(ps); yyerrok; }
    ;

proto_sig
    : proto_list SINK proto_args
    | SINK proto_args
    ;

proto_args
    : %empty
    | proto_list
    ;

proto_list
    : '(' params_opt ')'
    ;

/* ---- instructions ---- */

insn
    : insn_head ops_opt             { CHECK_STMT(ptx_b_insn_end(ps)); }
    ;

insn_head
    : mnem                          { CHECK_STMT(ptx_b_insn_begin(ps, $1, POS(@1))); }
    | guard mnem                    { CHECK_STMT(ptx_b_insn_begin(ps, $2, POS(@2))); }
    ;

guard
    : '@' name                      { CHECK_STMT(ptx_b_guard(ps, $2, false, POS(@2))); }
    | '@' '!' name                  { CHECK_STMT(ptx_b_guard(ps, $3, true, POS(@3))); }
    ;

mnem
    : IDENT
    | MNEMONIC
    ;

ops_opt
    : %empty
    | op_list
    ;

op_list
    : op_item
    | op_list ',' op_item
    ;

op_item
    : operand                       { CHECK_STMT(ptx_b_push_op(ps, &$1, POS(@1))); }
    ;

operand
    : REGNAME                       { CHECK_STMT(ptx_b_op_reg(ps, $1, POS(@1), &$$)); }
    | name '|' name                 { CHECK_STMT(ptx_b_op_pair(ps, $1, POS(@1), $3, POS(@3), &$$)); }
    | '!' REGNAME                   { CHECK_STMT(ptx_b_op_reg(ps, $2, POS(@2), &$$)); $$.neg = true; }
    | REGDOT                        { CHECK_STMT(ptx_b_op_sreg(ps, $1, POS(@1), &$$)); }
    | IDENT                         { CHECK_STMT(ptx_b_op_ident(ps, $1, POS(@1), &$$)); }
    | imm
    | SINK                          { $$ = (ptx_operand){.kind = PTX_OPND_SINK, .reg = -1, .reg2 = -1}; }
    | '[' addr_base addr_off ']'    { CHECK_STMT(ptx_b_op_addr(ps, &$2, $3, POS(@2), &$$)); }
    | '[' addr_base ',' '{'         { ptx_b_list_begin(ps, false); CHECK_STMT(ptx_b_push_op(ps, &$2, POS(@2))); }
      elems '}' ']'                 { CHECK_STMT(ptx_b_list_end(ps, &$$)); $$.bracketed = true; }
    | '{'                           { ptx_b_list_begin(ps, false); }
      elems '}'                     { CHECK_STMT(ptx_b_list_end(ps, &$$)); }
    | '('                           { ptx_b_list_begin(ps, true); }
      elems_opt ')'                 { CHECK_STMT(ptx_b_list_end(ps, &$$)); }
    ;

elems_opt
    : %empty
    | elems
    ;

elems
    : op_item
    | elems ',' op_item
    ;

imm
    : INTLIT                        { $$ = (ptx_operand){.kind = PTX_OPND_IMM_INT, .reg = -1, .reg2 = -1, .v.i = (int64_t)$1}; }
    | '-' INTLIT                    { $$ = (ptx_operand){.kind = PTX_OPND_IMM_INT, .reg = -1, .reg2 = -1, .v.i = (int64_t)(0 - $2)}; }
    | F32LIT                        { $$ = (ptx_operand){.kind = PTX_OPND_IMM_F32, .reg = -1, .reg2 = -1, .v.f32_bits = (uint32_t)$1}; }
    | F64LIT                        { double d; uint64_t b = $1; memcpy(&d, &b, sizeof d);
                                      $$ = (ptx_operand){.kind = PTX_OPND_IMM_F64, .reg = -1, .reg2 = -1, .v.f64 = d}; }
    | FLOATLIT                      { $$ = (ptx_operand){.kind = PTX_OPND_IMM_F64, .reg = -1, .reg2 = -1, .v.f64 = $1}; }
    | '-' FLOATLIT                  { $$ = (ptx_operand){.kind = PTX_OPND_IMM_F64, .reg = -1, .reg2 = -1, .v.f64 = -$2}; }
    ;

addr_base
    : REGNAME                       { CHECK_STMT(ptx_b_op_reg(ps, $1, POS(@1), &$$)); }
    | IDENT                         { CHECK_STMT(ptx_b_op_ident(ps, $1, POS(@1), &$$)); }
    | INTLIT                        { $$ = (ptx_operand){.kind = PTX_OPND_IMM_INT, .reg = -1, .reg2 = -1, .v.i = (int64_t)$1}; }
    ;

addr_off
    : %empty                        { $$ = 0; }
    | '+' INTLIT                    { $$ = (int64_t)$2; }
    | '-' INTLIT                    { $$ = (int64_t)(0 - $2); }
    | '+' '-' INTLIT                { $$ = (int64_t)(0 - $3); }
    ;

%%

/* Bison's message names token kinds; ours names the token as written. */
static void ptxerror(PTXLTYPE *loc, yyscan_t scanner, ptx_pstate *ps, const char *msg)
{
    (void)scanner;
    const char *exp = strstr(msg, ", expecting ");
    if (!strncmp(msg, "syntax error", 12)) {
        const char *quote = strcmp(ps->tok, "end of file") ? "'" : "";
        if (exp)
            ptx_ps_error(ps, loc->first_line, loc->first_column, "syntax error: unexpected %s%s%s; expecting %s",
                         quote, ps->tok, quote, exp + 12);
        else
            ptx_ps_error(ps, loc->first_line, loc->first_column, "syntax error: unexpected %s%s%s",
                         quote, ps->tok, quote);
    } else if (!strcmp(msg, "memory exhausted")) {
        /* the parser's stack (YYMAXDEPTH entries, on the heap) is full */
        ptx_ps_error(ps, loc->first_line, loc->first_column,
                     "nested too deeply: more than %d levels of grammar", YYMAXDEPTH);
    } else {
        ptx_ps_error(ps, loc->first_line, loc->first_column, "%s", msg);
    }
}
