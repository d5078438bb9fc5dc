!!NVfp4.0
UINT PARAM limit = -3;
UINT TEMP u;
MOV.U u, limit;
MOV result.color, fragment.color;
END
