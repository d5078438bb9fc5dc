!!NVfp4.0
PARAM p[] = { program.local[3..1] };
MOV result.color, p[0];
END
