!!NVfp4.0
MOV.SAT.SSAT result.color, fragment.color;
END
