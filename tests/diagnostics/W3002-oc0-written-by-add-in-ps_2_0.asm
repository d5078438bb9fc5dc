ps_2_0
// ps_2_0 writes oC# with mov only; vkd3d-compiler writes add.
add oC0, c0, c1
