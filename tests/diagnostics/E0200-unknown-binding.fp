!!NVfp4.0
MOV result.color, fragment.texcord[0];
END
