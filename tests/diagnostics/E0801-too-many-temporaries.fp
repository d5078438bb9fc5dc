!!NVfp4.0
TEMP big[40000];
MOV big[0], fragment.color;
MOV result.color, big[0];
END
