!!NVfp5.0
TEMP t;
PK64 t, fragment.color;
MOV result.color, t;
END
