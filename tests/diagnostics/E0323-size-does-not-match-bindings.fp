!!NVfp4.0
PARAM p[3] = { program.local[0..1] };
MOV result.color, p[0];
END
