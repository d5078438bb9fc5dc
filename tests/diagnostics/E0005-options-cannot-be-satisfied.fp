!!NVfp4.0
# options: user-clip-planes=7 push-constant-offset=8
MOV result.color, fragment.color;
END
