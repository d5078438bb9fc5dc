!!ARBfp1.0
OPTION NV_fragment_program;
TEMP r;
RFL r, fragment.texcoord[0], fragment.texcoord[1];
MOV result.color, r;
END
