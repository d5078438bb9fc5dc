!!NVfp4.0
INT TEMP i;
ADD.S.SAT i, {1}, {2};
MOV result.color, fragment.color;
END
