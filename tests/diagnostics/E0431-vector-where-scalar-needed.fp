!!NVfp4.0
TEMP R0;
RCP R0, fragment.color;
MOV result.color, R0;
END
