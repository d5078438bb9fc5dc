!!NVfp5.0
# source: NV_gpu_program5.txt:2573
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# note: `res` and `coord` are declared by the wrapper; res is written to result.color
TEMP res, coord;
MOV coord, fragment.texcoord[0];
TEX res, coord, texture[0], 2D, (-1,-1);
MOV result.color, res;
END
