!!NVfp4.0
TEMP R0;
ADD_SATR R0, fragment.color, fragment.color;
MOV result.color, R0;
END
