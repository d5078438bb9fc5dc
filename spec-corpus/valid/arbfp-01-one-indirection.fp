!!ARBfp1.0
# source: ARB_fragment_program.txt:566
# No texture instructions, but always 1 indirection
MOV result.color, fragment.color;
END
