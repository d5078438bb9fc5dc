!!NVfp4.0
# source: NV_gpu_program4.txt:1845
# fixed: the spec writes "ALIAS var1 = var0" without the terminating ";"
TEMP var0;
ALIAS var1 = var0;
END
