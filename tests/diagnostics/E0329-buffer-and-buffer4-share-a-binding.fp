!!NVfp4.0
BUFFER s[] = { program.buffer[0] };
BUFFER4 v[] = { program.buffer[0] };
ADD result.color, s[0], v[0];
END
