!!NVfp4.0
s0:
CAL s1;
RET;
s1:
CAL s2;
RET;
s2:
CAL s3;
RET;
s3:
CAL s4;
RET;
s4:
CAL s5;
RET;
s5:
CAL s6;
RET;
s6:
CAL s7;
RET;
s7:
CAL s8;
RET;
s8:
CAL s9;
RET;
s9:
CAL s10;
RET;
s10:
CAL s11;
RET;
s11:
CAL s12;
RET;
s12:
CAL s13;
RET;
s13:
CAL s14;
RET;
s14:
CAL s15;
RET;
s15:
CAL s16;
RET;
s16:
CAL s17;
RET;
s17:
CAL s18;
RET;
s18:
CAL s19;
RET;
s19:
CAL s20;
RET;
s20:
CAL s21;
RET;
s21:
CAL s22;
RET;
s22:
CAL s23;
RET;
s23:
CAL s24;
RET;
s24:
CAL s25;
RET;
s25:
CAL s26;
RET;
s26:
CAL s27;
RET;
s27:
CAL s28;
RET;
s28:
CAL s29;
RET;
s29:
CAL s30;
RET;
s30:
CAL s31;
RET;
s31:
CAL s32;
RET;
s32:
CAL s33;
RET;
s33:
CAL s34;
RET;
s34:
CAL s35;
RET;
s35:
CAL s36;
RET;
s36:
CAL s37;
RET;
s37:
CAL s38;
RET;
s38:
CAL s39;
RET;
s39:
CAL s40;
RET;
s40:
RET;
main:
CAL s0;
MOV result.color, fragment.color;
END
