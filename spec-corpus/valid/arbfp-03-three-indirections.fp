!!ARBfp1.0
# source: ARB_fragment_program.txt:578
# A more complex example with 3 indirections
TEMP myColor1, myColor2;
TEX myColor1, fragment.texcoord[0], texture[0], 2D;
MUL myColor1, myColor1, myColor1;
TEX myColor2, fragment.texcoord[1], texture[1], 2D;
# so far we still only have 1 indirection
TEX myColor2, myColor1, texture[2], 2D;      # This is #2
TEX result.color, myColor2, texture[3], 2D;  # And #3
END
