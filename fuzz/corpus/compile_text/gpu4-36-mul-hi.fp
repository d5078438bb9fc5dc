!!NVfp4.0
# source: NV_gpu_program4.txt:6068
INT TEMP R0, R1, R2, R3;
MUL.S    R0, R2, R3;
MUL.S.HI R1, R2, R3;
END
