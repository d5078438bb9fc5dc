ps_2_0
dcl_2d s0
// A sampler is not a value.
mov r0, s0
mov oC0, r0
