!!NVfp4.0
MOV result.color, program.local[0..1];
END
