!!NVfp5.0
INT TEMP t;
CVT.S32.F32 t, -fragment.color;
I2F result.color, t;
END
