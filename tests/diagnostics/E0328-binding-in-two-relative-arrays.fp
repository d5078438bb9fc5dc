!!NVfp4.0
PARAM a[] = { program.local[0..3] };
PARAM b[] = { program.local[2..5] };
INT TEMP i;
TEMP R0;
MOV.S i, 1;
ADD R0, a[i.x], b[i.x];
MOV result.color, R0;
END
