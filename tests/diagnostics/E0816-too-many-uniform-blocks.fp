!!NVfp4.0
# program.env, program.local, the State block and 13 parameter buffers:
# 16 uniform blocks, the desktop default allows 15 per stage.
BUFFER4 b0[] = { program.buffer[0][0] };
BUFFER4 b1[] = { program.buffer[1][0] };
BUFFER4 b2[] = { program.buffer[2][0] };
BUFFER4 b3[] = { program.buffer[3][0] };
BUFFER4 b4[] = { program.buffer[4][0] };
BUFFER4 b5[] = { program.buffer[5][0] };
BUFFER4 b6[] = { program.buffer[6][0] };
BUFFER4 b7[] = { program.buffer[7][0] };
BUFFER4 b8[] = { program.buffer[8][0] };
BUFFER4 b9[] = { program.buffer[9][0] };
BUFFER4 b10[] = { program.buffer[10][0] };
BUFFER4 b11[] = { program.buffer[11][0] };
BUFFER4 b12[] = { program.buffer[12][0] };
TEMP t;
ADD t, program.env[0], program.local[0];
ADD t, t, state.fog.color;
ADD t, t, b0[0];
ADD t, t, b1[0];
ADD t, t, b2[0];
ADD t, t, b3[0];
ADD t, t, b4[0];
ADD t, t, b5[0];
ADD t, t, b6[0];
ADD t, t, b7[0];
ADD t, t, b8[0];
ADD t, t, b9[0];
ADD t, t, b10[0];
ADD t, t, b11[0];
ADD result.color, t, b12[0];
END
