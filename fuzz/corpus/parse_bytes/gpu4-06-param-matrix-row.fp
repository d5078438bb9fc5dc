!!NVfp4.0
# source: NV_gpu_program4.txt:1648
PARAM m0 = state.matrix.modelview[1].row[0];
PARAM m1 = state.matrix.projection.transpose.row[3];
END
