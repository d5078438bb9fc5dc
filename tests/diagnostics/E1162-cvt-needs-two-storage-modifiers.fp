!!NVfp5.0
TEMP t;
CVT.S32 t, fragment.color;
MOV result.color, t;
END
