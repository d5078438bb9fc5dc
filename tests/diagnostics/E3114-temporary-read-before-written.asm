vs_2_0
dcl_position v0
// r1 has no value yet.
add r0, r1, v0
mov oPos, r0
