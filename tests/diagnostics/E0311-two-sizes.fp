!!NVfp4.0
SHORT LONG TEMP R0;
MOV result.color, fragment.color;
END
