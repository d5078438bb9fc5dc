vs_2_0
mov r0, c0
// Declarations come before the first executable instruction.
dcl_position v0
mov oPos, v0
