!!NVfp4.0
SHORT TEMP h;
PK2H h, fragment.color;
MOV result.color, fragment.color;
END
