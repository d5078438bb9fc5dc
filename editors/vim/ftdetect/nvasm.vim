" NVIDIA GPU assembly programs (nvp4c): by extension, or by the header on
" the first line (`!!NVfp4.0`, `!!ARBvp1.0`, `!!VP1.0`, ...) whatever the name.
autocmd BufNewFile,BufRead *.vp,*.fp,*.gp,*.tcp,*.tep,*.cp,*.nvp,*.nvvp,*.nvfp,*.nvgp,*.arbvp,*.arbfp setfiletype nvasm
autocmd BufNewFile,BufRead * if getline(1) =~# '^\s*!!\%(NV\%(vp\|fp\|gp\|tcp\|tep\|cp\)[45]\.\d\|ARB\%(vp\|fp\)1\.0\|VP[12]\.[01]\|VSP1\.0\|FP1\.0\)' | setfiletype nvasm | endif
