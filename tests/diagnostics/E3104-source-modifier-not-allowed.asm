ps_2_0
// _bias is a ps_1_x source modifier.
mov r0, c0_bias
mov oC0, r0
