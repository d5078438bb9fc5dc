!!NVfp4.0
# source: NV_gpu_program4.txt:5882
TEMP R0, R1, R2, R3, R4, R5, R6, R7, R8;
ADD.S.CC  R0, R1, R2;       # add signed integers R1 and R2, update
                            #   CC0 based on the result, write the
                            #   final value to R0
ADD.F.CC1 R3, R4, R5;       # add floats R4 and R5, update CC1 based
                            #   on the result, write the final value
                            #   to R3
ADD.U.CC0 R6.xy, R7, R8;    # add unsigned integers R7 and R8, update
                            #   CC0 (x and y components) based on the
                            #   result, write the final value to R6
                            #   (x and y components)
END
