vs_2_0
dcl_position v0
// Predication arrives with vs_2_x.
(p0) mov r0, v0
mov oPos, v0
