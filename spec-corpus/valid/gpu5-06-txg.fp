!!NVfp5.0
# source: NV_gpu_program5.txt:2628
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
TEMP res, coord;
MOV coord, fragment.texcoord[0];
TXG res, coord, texture[0], 2D;
MOV result.color, res;
END
