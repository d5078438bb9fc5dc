!!ARBfp1.1
MOV result.color, fragment.color;
END
