vs_1_1
// lrp exists from vs_2_0.
dcl_position v0
lrp r0, v0, c0, c1
mov oPos, r0
