!!NVfp4.0
# The desktop default has 116 fragment input components: Locations 0 to 28;
# fragment.attrib[15] is Location 29.
MOV result.color, fragment.attrib[15];
END
