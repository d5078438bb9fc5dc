ps_2_0
// Result shifts are ps_1_x modifiers.
mov_x2 r0, c0
mov oC0, r0
