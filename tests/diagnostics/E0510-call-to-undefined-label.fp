!!NVfp4.0
shade:
MOV result.color, fragment.color;
RET;
main:
CAL shadw;
END
