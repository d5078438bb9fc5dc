!!NVfp4.0
TEMP R0;
MOVC R0, fragment.color;
IF GRT.x;
MOV R0, 0;
ENDIF;
MOV result.color, R0;
END
