!!NVfp4.0
OPTION ARB_draw_buffers;
# options: device-limits={"maxColorAttachments":4}
MOV result.color[0], fragment.color;
MOV result.color[5], fragment.color;
END
