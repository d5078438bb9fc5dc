!!NVfp5.0
# options: target-env=vulkan1.0
TEMP t;
TGALL t, fragment.color;
MOV result.color, t;
END
