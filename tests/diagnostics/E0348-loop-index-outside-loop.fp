!!ARBfp1.0
OPTION NV_fragment_program2;
PARAM c[2] = { program.local[0..1] };
MOV result.color, c[A0.x];
END
