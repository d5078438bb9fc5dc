ps_1_1
// ps_1_1 has 8 arithmetic slots; this uses 9.
mov r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
add r0, r0, v0
