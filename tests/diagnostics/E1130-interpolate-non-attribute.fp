!!NVfp5.0
TEMP r;
IPAC r, fragment.facing;
MOV result.color, r;
END
