vs_2_0
dcl_position v0
// nrm writes a temporary register.
nrm oT0, v0
mov oPos, v0
