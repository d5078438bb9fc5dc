!!NVfp4.0
sub:
RET;
sub:
RET;
main:
CAL sub;
MOV result.color, fragment.color;
END
