!!NVfp4.0
PARAM p[] = { program.local[0..1] };
MOV result.color, p[2];
END
