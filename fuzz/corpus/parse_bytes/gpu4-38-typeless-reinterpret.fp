!!NVfp4.0
# source: NV_gpu_program4.txt:6125
TEMP R0, R1;                    # typeless
MOV.U R0, 0x3F800000;           # R0 = 1.0
MOV.U R1, 0xBF800000;           # R1 = -1.0
MUL.F R0, R0, R1;               # R0 = -1 * 1 = -1 (0xBF800000)
XOR.U R0, R0, R1;               # R0 = 0xBF800000 ^ 0xBF800000 = 0
NOT.U R0, R0;                   # R0 = 0xFFFFFFFF
I2F.S R0, R0;                   # R0 = -1.0 (0xFFFFFFFF = -1 signed)
SEQ.F R0, R0, R1;               # R0 = 1.0 (-1.0 == -1.0)
END
