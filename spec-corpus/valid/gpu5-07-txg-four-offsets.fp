!!NVfp5.0
# source: NV_gpu_program5.txt:2633
# note: the four results are summed into result.color so that each gather is observable
TEMP result0, result1, result2, result3, coord;
MOV coord, fragment.texcoord[0];
TXG result0, coord, texture[0], 2D, (-1,-1);
TXG result1, coord, texture[0], 2D, (-1,+1);
TXG result2, coord, texture[0], 2D, (+1,-1);
TXG result3, coord, texture[0], 2D, (+1,+1);
ADD result0, result0, result1;
ADD result2, result2, result3;
ADD result.color, result0, result2;
END
