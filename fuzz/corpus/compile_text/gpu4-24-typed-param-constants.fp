!!NVfp4.0
# source: NV_gpu_program4.txt:5644
INT PARAM two = 2;               # use integer 2
FLOAT PARAM twoPt0 = 2;          # use floating-point 2.0
END
