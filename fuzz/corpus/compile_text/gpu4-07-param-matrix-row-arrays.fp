!!NVfp4.0
# source: NV_gpu_program4.txt:1663
PARAM m2[] = { state.matrix.program[0].row[1..2] };
PARAM m3[] = { state.matrix.program[0].transpose };
END
