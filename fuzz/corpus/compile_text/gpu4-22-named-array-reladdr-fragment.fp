!!NVfp4.0
# source: NV_gpu_program4.txt:5279
# note: lines 5279-5280; the vertex half (5275-5278) is gpu4-21
INT TEMP A0;
TEMP R2;
ATTRIB texcoords[] = { fragment.texcoord[0..2] };
MOV R2, texcoords[A0.x];
END
