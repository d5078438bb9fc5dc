ps_1_1
mov r0, v0
// ps_1_1 runs its texture instructions first.
tex t0
