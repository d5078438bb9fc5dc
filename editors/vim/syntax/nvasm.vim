" Vim syntax file
" Language:    NVIDIA GPU assembly (NV_gpu_program4/5, ARB_vertex_program,
"              ARB_fragment_program, NV_vertex_program, NV_fragment_program)
" Maintainer:  the nvp4c project (editors/vim in its repository)
" Filenames:   *.vp *.fp *.gp *.tcp *.tep *.cp *.nvp, or a first line `!!NVfp4.0`, ...
"
" Install: copy (or symlink) syntax/ and ftdetect/ into ~/.vim (Vim) or
" ~/.config/nvim (Neovim). For diagnostics, hover and completion, use the
" language server `nvp4c lsp` from any LSP client (README.md, "Editors").

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" Comments: `#` to the end of the line (section 2.X.2).
syn keyword nvasmTodo contained TODO FIXME XXX NOTE
syn match nvasmComment "#.*$" contains=nvasmTodo,@Spell

" The program header and END.
syn match nvasmHeader "^\s*!!\%(NV\%(vp\|fp\|gp\|tcp\|tep\|cp\)[45]\.[0-9]\|ARB\%(vp\|fp\)1\.0\|VP[12]\.[01]\|VSP1\.0\|FP1\.0\)"
syn keyword nvasmEnd END

" OPTION name;
syn match nvasmOptionName "\h\w*" contained
syn match nvasmOption "\<OPTION\s\+\h\w*" contains=nvasmOptionKeyword,nvasmOptionName
syn keyword nvasmOptionKeyword OPTION contained

" Declarations and their modifiers.
syn keyword nvasmDeclaration ATTRIB PARAM TEMP OUTPUT ALIAS ADDRESS BUFFER BUFFER4 CBUFFER TEXTURE IMAGE SHARED
syn keyword nvasmDeclaration PRIMITIVE_IN PRIMITIVE_OUT VERTICES_OUT VERTICES INVOCATIONS TESS_MODE TESS_SPACING TESS_VERTEX_ORDER TESS_POINT_MODE GROUP_SIZE SHARED_MEMORY
syn keyword nvasmStorageModifier SHORT LONG INT UINT FLOAT FLAT CENTROID NOPERSPECTIVE PATCH SAMPLE
syn keyword nvasmPrimitive POINTS LINES LINES_ADJACENCY TRIANGLES TRIANGLES_ADJACENCY LINE_STRIP TRIANGLE_STRIP PATCHES QUADS ISOLINES EQUAL FRACTIONAL_ODD FRACTIONAL_EVEN CW CCW

" Labels: `name:` at the start of a statement.
syn match nvasmLabel "^\s*\h\w*\ze\s*:"

" Opcodes with their Table X.15 suffixes (precision R/H/X, condition code
" update C/C0/C1, clamping _SAT/_SSAT) and stand-alone modifiers (.F .CC1 ...),
" at the start of a statement.
syn match nvasmOpcode "\%(^\|[;:]\)\s*\zs\%(SHFDOWN\|STOREIM\|ATOMIM\|LOADIM\|MEMBAR\|SHFIDX\|SHFXOR\|PK2US\|PK4UB\|ROUND\|SHFUP\|STORE\|TGALL\|TGANY\|TRUNC\|TXFMS\|UP2US\|UP4UB\|ATOM\|BTFL\|BTFM\|CEIL\|DP2A\|IPAC\|IPAO\|IPAS\|LOAD\|PK2H\|PK4B\|PK64\|TGEQ\|TXGO\|UP2H\|UP4B\|UP64\|ABS\|ADD\|AND\|ARA\|ARL\|ARR\|BAR\|BFE\|BFI\|BFR\|BTC\|CMP\|COS\|CVT\|DDX\|DDY\|DIV\|DP2\|DP3\|DP4\|DPH\|DST\|EX2\|EXP\|FLR\|FRC\|I2F\|LDC\|LG2\|LIF\|LIT\|LOD\|LOG\|LRP\|MAD\|MAX\|MIN\|MOD\|MOV\|MUL\|NOT\|NRM\|POW\|RCC\|RCP\|RFL\|RSQ\|SAD\|SCS\|SEQ\|SFL\|SGE\|SGT\|SHL\|SHR\|SIN\|SLE\|SLT\|SNE\|SSG\|STR\|SUB\|SWZ\|TEX\|TXB\|TXD\|TXF\|TXG\|TXL\|TXP\|TXQ\|X2D\|XOR\|XPD\|OR\)\ze\%([RHX]\|F16\|F32\|F64\|S32\|U32\|S64\|U64\)\=\%(C[01]\=\)\=\%(_SAT\|_SSAT\)\=\%(\.\u[A-Z0-9]*\)*\%(\s\|;\|(\|$\)" nextgroup=nvasmSuffix,nvasmModifier
syn match nvasmFlow "\%(^\|[;:]\)\s*\zs\%(ENDLOOP\|ENDPRIM\|ENDREP\|EMITS\|ENDIF\|CALI\|CONT\|ELSE\|EMIT\|LOOP\|BRA\|BRK\|CAL\|KIL\|REP\|RET\|IF\)\ze\%([RHX]\|F16\|F32\|F64\|S32\|U32\|S64\|U64\)\=\%(C[01]\=\)\=\%(_SAT\|_SSAT\)\=\%(\.\u[A-Z0-9]*\)*\%(\s\|;\|(\|$\)" nextgroup=nvasmSuffix,nvasmModifier
syn match nvasmSuffix "\%(\%([RHX]\|F16\|F32\|F64\|S32\|U32\|S64\|U64\)\%(C[01]\=\)\=\%(_SAT\|_SSAT\)\=\|C[01]\=\%(_SAT\|_SSAT\)\=\|\%(_SAT\|_SSAT\)\)" contained nextgroup=nvasmModifier
syn match nvasmModifier "\%(\.\u[A-Z0-9]*\)\+" contained

" A CAL or BRA target.
syn match nvasmCallTarget "\%(\<\%(CAL\|CALI\|BRA\)\s\+\)\@<=\h\w*"

" Bindings: the reserved words and the members after them.
syn match nvasmBindingMember "\%(\.\%(\%([xyzw]\{1,4}\|[rgba]\{1,4}\)\>\)\@![a-z]\w*\%(\[[^\]]*\]\)*\)\+" contained
syn match nvasmBinding "\%(\w\|\.\)\@<!\%(fragment\|vertex\|primitive\|program\|result\|state\|texture\)\>\%(\s*\[[^\]]*\]\)\=" nextgroup=nvasmBindingMember
" NV_vertex_program and NV_fragment_program registers: v[OPOS], o[HPOS], f[TEX0].
syn match nvasmBinding "\%(\w\|\.\)\@<![vofcp]\[\u[A-Z0-9]*\]"

" Texture targets after a comma.
syn match nvasmTarget ",\s*\zs\%(SHADOWARRAYCUBE\|SHADOWARRAY1D\|SHADOWARRAY2D\|SHADOWCUBE\|SHADOWRECT\|SHADOW1D\|SHADOW2D\|ARRAY2DMS\|ARRAYCUBE\|ARRAY1D\|ARRAY2D\|RENDERBUFFER\|BUFFER\|CUBE\|RECT\|2DMS\|1D\|2D\|3D\)\>"

" Condition-code tests: (GT1.x), IF NE.y;
syn match nvasmCondition "\<\%(EQ\|GE\|GT\|LE\|LT\|NE\|TR\|FL\|NAN\|LEG\|CF\|NCF\|OF\|NOF\|AB\|BLE\|SF\|NSF\)[01]\=\ze\s*\%(\.[xyzw]\{1,4}\)\=\s*[);]"

" Swizzles and write masks.
syn match nvasmSwizzle "\%(\w\|\]\||\|}\)\@<=\.\%([xyzw]\{1,4}\|[rgba]\{1,4}\)\>"

" Numbers.
syn match nvasmNumber "\<0[xX]\x\+\>"
syn match nvasmNumber "\<\d\+\>"
syn match nvasmFloat "\%(\<\d\+\.\d*\|\.\d\+\)\%([eE][+-]\=\d\+\)\=\>"
syn match nvasmFloat "\<\d\+[eE][+-]\=\d\+\>"

hi def link nvasmComment Comment
hi def link nvasmTodo Todo
hi def link nvasmHeader PreProc
hi def link nvasmEnd PreProc
hi def link nvasmOptionKeyword PreProc
hi def link nvasmOptionName Constant
hi def link nvasmDeclaration Type
hi def link nvasmStorageModifier StorageClass
hi def link nvasmPrimitive Constant
hi def link nvasmLabel Label
hi def link nvasmCallTarget Function
hi def link nvasmOpcode Statement
hi def link nvasmFlow Conditional
hi def link nvasmSuffix Special
hi def link nvasmModifier Special
hi def link nvasmBinding Identifier
hi def link nvasmBindingMember Identifier
hi def link nvasmTarget Type
hi def link nvasmCondition Constant
hi def link nvasmSwizzle Special
hi def link nvasmNumber Number
hi def link nvasmFloat Float

let b:current_syntax = "nvasm"

let &cpo = s:cpo_save
unlet s:cpo_save
