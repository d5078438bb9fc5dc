!!NVfp5.0
# source: NV_gpu_program5.txt:1054
# invalid: a program fails to load if it samples from multiple texture targets (incl. SHADOW pseudo-targets) on the same texture image unit; any two of these lines conflict
# expect: E0444
TEMP out, coord;
TEX out, coord, texture[0], 1D;
TEX out, coord, texture[0], 2D;
TEX out, coord, texture[0], ARRAY2D;
TEX out, coord, texture[0], SHADOW2D;
TEX out, coord, texture[0], 3D;
END
