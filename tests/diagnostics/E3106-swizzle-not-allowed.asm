vs_2_x
dcl_position v0
// if_comp compares one component: sources need a replicate swizzle.
if_gt v0, c0.x
mov oPos, v0
endif
