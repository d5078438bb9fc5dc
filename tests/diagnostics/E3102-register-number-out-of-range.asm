ps_2_0
// ps_2_0 has 32 float constants, c0 to c31.
mov oC0, c40
