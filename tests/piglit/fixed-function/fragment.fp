!!NVfp4.0
# OpenGL's fixed-function fragment stage in its initial state (texturing,
# colour sum and fog disabled; OpenGL 2.1 sections 3.8 to 3.10), for a
# shader_test without a [fragment program]: the fragment's colour is its
# interpolated primary colour. (GL clamps vertex colours to [0, 1] before
# interpolation, CLAMP_VERTEX_COLOR; the RGBA8 framebuffer clamps after it.
# The two differ only for a primitive whose colours leave [0, 1] at some
# vertices: tests/piglit/README.md, "Fixed-function stages".)
MOV result.color, fragment.color;
END
