!!NVfp4.0
MOV result.color, program.env[256];
END
