!!NVfp4.0
MOVE result.color, fragment.color;
END
