!!NVfp4.0
# source: NV_parameter_buffer_object.txt:297
# note: lines 297-301 and 305; the illegal line 304 of the same example is pbo-02
TEMP t;
BUFFER bones[] = { program.buffer[0] };
# Legal
MOV t, bones[1];
END
