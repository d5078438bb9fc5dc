!!NVfp4.0
PARAM p[] = { program.local[0..1] };
INT TEMP i;
MOV.S i, 0;
MOV result.color, p[i.x + 2];
END
