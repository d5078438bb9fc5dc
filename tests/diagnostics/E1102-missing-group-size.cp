!!NVcp5.0
TEMP t;
MOV.U t, invocation.globalid;
END
