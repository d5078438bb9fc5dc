!!NVfp5.0
# source: NV_gpu_program5.txt:2623
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
TEMP res, coord;
MOV coord, fragment.texcoord[0];
TXGO res, coord, {-1,+2,0,+1}, {-1,0,+1,+2}, texture[0], 2D;
MOV result.color, res;
END
