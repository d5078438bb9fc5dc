!!NVfp4.0
ATTRIB a[] = { fragment.attrib[0..16] };
MOV result.color, a[0];
END
