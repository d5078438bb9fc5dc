!!NVfp4.0
PARAM p = { program.local[0], program.local[1] };
MOV result.color, p;
END
