!!NVfp4.0
# source: NV_gpu_program4.txt:5854
# invalid: no bitwise inversion operator "~" is provided for operands (issue 21: RESOLVED: No)
# expect: E0001
UINT TEMP a, b;
AND.U a, a, ~b;
END
