!!NVfp4.0
LONG PARAM p = program.local[0];
MOV result.color, p;
END
