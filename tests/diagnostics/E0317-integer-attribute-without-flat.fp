!!NVfp4.0
INT ATTRIB id = fragment.attrib[0];
I2F result.color, id;
END
