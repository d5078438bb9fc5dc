!!NVfp4.0
ENDIF;
MOV result.color, fragment.color;
END
