ps_1_1
// A co-issued pair writes .rgb in one instruction and .a in the other.
mov r0.rgb, v0
+mov r0.rgb, v1
