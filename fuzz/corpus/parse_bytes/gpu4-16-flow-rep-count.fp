!!NVfp4.0
# source: NV_gpu_program4.txt:2602
TEMP R0, R1, repCount;
REP repCount;
ADD R0, R0, R1;
ENDREP;
END
