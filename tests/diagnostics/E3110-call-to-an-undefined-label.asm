vs_2_0
dcl_position v0
call l1
mov oPos, v0
