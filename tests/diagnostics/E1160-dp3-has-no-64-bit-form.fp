!!NVfp5.0
LONG TEMP d;
MOV.F64 d, fragment.color;
DP3.F64 d, d, d;
MOV result.color, d;
END
