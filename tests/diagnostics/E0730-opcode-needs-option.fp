!!ARBfp1.0
TEMP r;
DDX r, fragment.texcoord[0];
MOV result.color, r;
END
