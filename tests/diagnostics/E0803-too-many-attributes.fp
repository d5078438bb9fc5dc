!!NVfp4.0
# 33 attribute bindings, the limit is 32 (one component of each is read).
ATTRIB a[] = { fragment.attrib[0..32] };
INT TEMP i;
MOV.S i, 0;
MOV result.color, a[i.x].x;
END
