!!NVfp5.0
# NV_compute_program5 adds MEMBAR's CTA modifier to compute programs only.
MEMBAR.CTA;
MOV result.color, {1, 0, 0, 1};
END
