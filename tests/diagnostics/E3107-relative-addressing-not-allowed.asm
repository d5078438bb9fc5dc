vs_1_1
dcl_position v0
mov a0.x, v0.x
// vs_1_1 indexes constants only.
mov oPos, v0[a0.x]
