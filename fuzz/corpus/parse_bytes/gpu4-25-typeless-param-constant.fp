!!NVfp4.0
# source: NV_gpu_program4.txt:5649
PARAM two = 2;                   # 2?  2.0?
END
