!!NVfp5.0
IMAGE imgs[] = { image[0], image[2] };
END
