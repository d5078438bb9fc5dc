!!NVfp5.0
GROUP_SIZE 8;
MOV result.color, 1;
END
