!!FP1.0
ADDR o[COLR], p[0], p[1];
END
