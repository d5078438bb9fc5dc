!!ARBfp1.0
OPTION NV_fragment_program;
SHORT OUTPUT low = result.color;
OUTPUT full = result.color;
MOV low, fragment.color;
MOV full.w, 1;
END
