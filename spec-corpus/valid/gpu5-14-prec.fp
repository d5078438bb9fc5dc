!!NVfp5.0
# source: NV_gpu_program5.txt:3102
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# note: the imprecise and the precise form of the example one after the other; a, b and c are
#   fragment.attrib[0..2], and the difference of the two results is written to result.color
ATTRIB a = fragment.attrib[0];
ATTRIB b = fragment.attrib[1];
ATTRIB c = fragment.attrib[2];
TEMP res, first;
ADD res, a, b;
ADD res, res, c;
MOV first, res;
ADD res, a, c;
ADD.PREC res, res, b;
SUB result.color, res, first;
END
