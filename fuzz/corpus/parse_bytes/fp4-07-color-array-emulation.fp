!!NVfp4.0
# source: NV_fragment_program4.txt:759
# fixed: added "OPTION ARB_draw_buffers;": without it the result.color[n] binding is
#        unavailable and the program fails to load (NV_fragment_program4 2.X.6.Y)
#        elided "..." lines turned into comments
OPTION ARB_draw_buffers;
INT TEMP A0;
TEMP R1;
TEMP colors[4];
# ...
MOV colors[A0.x], R1;
MOV colors[3], 12.3;
# ...
# end of the program
MOV result.color[0], colors[0];
MOV result.color[1], colors[1];
MOV result.color[2], colors[2];
MOV result.color[3], colors[3];
END
