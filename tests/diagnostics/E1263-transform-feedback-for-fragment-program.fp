!!NVfp4.0
# options: transform-feedback=true
MOV result.color, fragment.color;
END
