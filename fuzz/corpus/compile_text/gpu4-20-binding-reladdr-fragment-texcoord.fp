!!NVfp4.0
# source: NV_gpu_program4.txt:5270
# invalid: relative addressing of bindings used directly in instructions was removed; only declared array variables may be indexed relatively (issue 2)
# expect: E0204
INT TEMP A0;
TEMP R2;
MOV R2, fragment.texcoord[A0.x];    # fragment
END
