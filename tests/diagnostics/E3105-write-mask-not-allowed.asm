vs_2_0
dcl_position v0
// m3x3 writes .xyz.
m3x3 r0, v0, c0
mov oPos, r0
