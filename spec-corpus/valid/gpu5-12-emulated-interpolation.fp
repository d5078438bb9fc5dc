!!NVfp5.0
# source: NV_gpu_program5.txt:2853
# note: the spec's fourth line writes `ddx` where `ddy` is meant; it is kept as written (both are
#   legal). `offset` is read from program.local[0] and the result written to result.color
TEMP ddx, ddy, offset, interp;
MOV offset, program.local[0];
MOV ddy, 0;
MOV interp, fragment.attrib[0];          # start with center
DDX ddx, fragment.attrib[0];
MAD interp, offset.x, ddx, interp;       # add offset.x * dA/dx
DDY ddx, fragment.attrib[0];
MAD interp, offset.y, ddy, interp;       # add offset.y * dA/dy
MOV result.color, interp;
END
