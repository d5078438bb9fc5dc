//! The thread-group instructions as subgroup operations: NV_gpu_program5's
//! TGALL, TGANY, TGEQ (section 2.X.8.Z), NV_shader_thread_shuffle's
//! shuffles and NV_shader_thread_group's TGBALLOT and QSWZ*.
//!
//! The spec's thread group ("An implementation may choose to arrange
//! programs threads into thread groups ... The method used to arrange
//! threads into groups is undefined") is the device's subgroup: its size is
//! the device's (`VkPhysicalDeviceSubgroupProperties::subgroupSize`, 32 on
//! NVIDIA, 8 on lavapipe), not NV_shader_thread_group's fixed 32, and the
//! spec's "active threads" are the subgroup's active invocations
//! (docs/interface.md, "Thread groups"). The votes need SPIR-V 1.3
//! (capability GroupNonUniformVote); the checker refuses these opcodes
//! below `--target-env vulkan1.1` (E1140), so reaching here with an older
//! environment is an internal error.
//!
//! NV_shader_thread_shuffle's SHFIDX, SHFUP, SHFDOWN and SHFXOR read
//! another thread's value: the thread id is `SubgroupLocalInvocationId`,
//! the source thread and its "valid" predicate are computed as the spec's
//! minThreadId / maxThreadId arithmetic says, and one
//! `OpGroupNonUniformShuffle` reads the source (not ShuffleUp/Down/Xor:
//! an out-of-range source must read the current thread's own value, which
//! those cannot express).
//!
//! NV_shader_thread_group's TGBALLOT is a subgroup ballot per component;
//! its QSWZ instructions (fragment programs) are quad broadcasts and swaps.

use rspirv::dr::Operand as SpvOperand;
use rspirv::spirv::{BuiltIn, Capability, Decoration, Op, Scope, StorageClass};

use super::emit::{Comp, LResult, Val, F32_ONE};
use super::{LowerError, Lowerer};
use crate::isa::{DataType, Opcode};
use crate::TargetEnv;

impl Lowerer<'_> {
    /// TGALL, TGANY or TGEQ of the four components of `value` (data type
    /// `ty`): a vector of TRUE / FALSE as the data type defines them.
    pub(crate) fn thread_group_vote(
        &mut self,
        op: Opcode,
        ty: DataType,
        value: Val,
    ) -> LResult<Val> {
        self.subgroup_capability(op.name(), "subgroup votes", Capability::GroupNonUniformVote)?;
        let (non_zero, zero) = self.non_zero(ty, value)?;
        // TGALL is "non-zero for all active threads", TGANY "for any".
        // TGEQ's pseudocode gives TRUE when tgall == tgany, i.e. when every
        // active thread's test agrees (all zero or all non-zero), so it
        // votes on the test, not on the values: 1 and 2 are "equal" to it
        // (docs/semantics.md, "Thread groups").
        let vote = match op {
            Opcode::Tgall => Op::GroupNonUniformAll,
            Opcode::Tgany => Op::GroupNonUniformAny,
            Opcode::Tgeq => Op::GroupNonUniformAllEqual,
            _ => {
                return Err(LowerError::internal(format!(
                    "{op} is not a thread-group vote"
                )))
            }
        };
        let scope = self.c_scalar(Comp::U32, Scope::Subgroup as u32);
        let bool_ty = self.t(Comp::Bool, 1);
        let mut parts = Vec::with_capacity(4);
        for c in 0..4 {
            // The votes take a scalar predicate (OpGroupNonUniformAll/Any).
            let p = self.extract(non_zero, c)?;
            let id = self.emit(vote, bool_ty, &[scope, p.id])?;
            parts.push(Val {
                id,
                comp: Comp::Bool,
                n: 1,
            });
        }
        let votes = self.construct(&parts)?;
        let t = if ty == DataType::Float {
            F32_ONE
        } else {
            u32::MAX
        };
        let t = self.splat_const(zero.comp, t, 4);
        self.sel(votes, t, zero)
    }

    /// The target environment every subgroup operation needs (the checker
    /// refuses older ones with E1140 first) and its capabilities.
    fn subgroup_capability(
        &mut self,
        name: &str,
        what: &str,
        capability: Capability,
    ) -> LResult<()> {
        if self.options.target_env < TargetEnv::Vulkan1_1 {
            return Err(LowerError::internal(format!(
                "{name} lowered for {}: {what} need vulkan1.1 (the checker gives E1140)",
                self.options.target_env.name()
            )));
        }
        self.capability(Capability::GroupNonUniform);
        self.capability(capability);
        Ok(())
    }

    /// The votes' and TGBALLOT's "comparing each component to zero" of
    /// `value` (data type `ty`), and that zero: floats with an unordered
    /// not-equal, so -0.0 is zero and a NaN is non-zero (`NaN == 0` is
    /// false in the pseudocode's `if (tmp.x == 0)`).
    fn non_zero(&mut self, ty: DataType, value: Val) -> LResult<(Val, Val)> {
        let zero = self.splat_const(Comp::from(ty), 0, 4);
        let test = if ty == DataType::Float {
            Op::FUnordNotEqual
        } else {
            Op::INotEqual
        };
        Ok((self.cmp(test, value, zero)?, zero))
    }

    /// TGBALLOT (NV_shader_thread_group 2.X.8.Z) of the four components of
    /// `value` (data type `ty`): per component, `result |= 1 << thread` for
    /// each active thread whose value is non-zero, as an unsigned vector.
    pub(crate) fn thread_group_ballot(&mut self, ty: DataType, value: Val) -> LResult<Val> {
        self.subgroup_capability(
            "TGBALLOT",
            "subgroup ballots",
            Capability::GroupNonUniformBallot,
        )?;
        // The same test as TGALL's: "comparing each component to zero".
        let (non_zero, _) = self.non_zero(ty, value)?;
        let scope = self.c_scalar(Comp::U32, Scope::Subgroup as u32);
        let uvec4 = self.t(Comp::U32, 4);
        let mut parts = Vec::with_capacity(4);
        for c in 0..4 {
            let p = self.extract(non_zero, c)?;
            let id = self.emit(Op::GroupNonUniformBallot, uvec4, &[scope, p.id])?;
            // Bits 0-31 of the ballot: the spec's 32-bit mask of threads
            // 0-31. Lanes 32 and up of a wider subgroup (64 on some
            // devices) have no bit in it (docs/interface.md, "Thread
            // groups").
            let ballot = Val {
                id,
                comp: Comp::U32,
                n: 4,
            };
            parts.push(self.extract(ballot, 0)?);
        }
        self.construct(&parts)
    }

    /// QSWZ0-3, QSWZX, QSWZY (NV_shader_thread_group 2.X.8.Z and its GLSL
    /// section's quadSwizzle*NV): `swizzled` read from a fragment of the
    /// 2x2 quad plus `unswizzled` of the current fragment.
    ///
    /// The spec gives 0 in a divergent quad ("If any thread in a 2x2 pixel
    /// quad is inactive, the quad is divergent. In this case quadSwizzle
    /// will return 0"), counting helper threads as active ("the
    /// intermediate values they compute can still be used by thread group
    /// sharing instructions"). Vulkan has no test of that: a ballot need
    /// not count helper invocations (lavapipe's does not), so testing the
    /// quad with one would zero every quad at a primitive's edge. nvp4c
    /// reads the quad as the device's quad operation does, which is
    /// undefined for an inactive lane (docs/semantics.md, "Thread groups").
    pub(crate) fn quad_swizzle(
        &mut self,
        op: Opcode,
        swizzled: Val,
        unswizzled: Val,
    ) -> LResult<Val> {
        self.subgroup_capability(
            op.name(),
            "quad operations",
            Capability::GroupNonUniformQuad,
        )?;
        let scope = self.c_scalar(Comp::U32, Scope::Subgroup as u32);
        let vec_ty = self.t_of(swizzled);
        // The spec's quad threads 4N+0 .. 4N+3 are pixels (X, Y), (X+1, Y),
        // (X, Y+1), (X+1, Y+1) when rendering to a framebuffer object, as
        // Vulkan's quad indices 0-3 are in framebuffer coordinates;
        // QSWZX's neighbour in X is QuadSwap direction 0, QSWZY's in Y
        // direction 1.
        let (vote, operand) = match op {
            Opcode::Qswz0 => (Op::GroupNonUniformQuadBroadcast, 0),
            Opcode::Qswz1 => (Op::GroupNonUniformQuadBroadcast, 1),
            Opcode::Qswz2 => (Op::GroupNonUniformQuadBroadcast, 2),
            Opcode::Qswz3 => (Op::GroupNonUniformQuadBroadcast, 3),
            Opcode::Qswzx => (Op::GroupNonUniformQuadSwap, 0),
            Opcode::Qswzy => (Op::GroupNonUniformQuadSwap, 1),
            _ => return Err(LowerError::internal(format!("{op} is not a quad swizzle"))),
        };
        let operand = self.c_scalar(Comp::U32, operand);
        let id = self.emit(vote, vec_ty, &[scope, swizzled.id, operand])?;
        let read = Val { id, ..swizzled };
        let sum = self.op(Op::FAdd, &[read, unswizzled])?;
        Ok(sum)
    }

    /// SHFIDX, SHFUP, SHFDOWN or SHFXOR (NV_shader_thread_shuffle 2.X.8.Z):
    /// (valid, value, 0, 0) in the data type `ty`, from the scalar `value.x`,
    /// the unsigned index `index.x` and mask `mask.x`.
    pub(crate) fn thread_shuffle(
        &mut self,
        op: Opcode,
        ty: DataType,
        value: Val,
        index: Val,
        mask: Val,
    ) -> LResult<Val> {
        self.subgroup_capability(
            op.name(),
            "subgroup shuffles",
            Capability::GroupNonUniformShuffle,
        )?;
        let (lane_var, size_var) = self.subgroup_inputs();
        let lane = self.load(lane_var, Comp::U32, 1)?;
        let size = self.load(size_var, Comp::U32, 1)?;
        let u = |l: &mut Self, bits: u32| l.konst(Comp::U32, &[bits]);
        // GLSL section of NV_shader_thread_shuffle: "<index> is a 5 bits
        // value in the range 0 to 31, MSBs are ignored."
        let index = self.extract(index, 0)?;
        let five_bits = u(self, 31);
        let index = self.op(Op::BitwiseAnd, &[index, five_bits])?;
        // "Bits 0 to 4 of <mask> are a clamp value ... and bits 8 to 12 a
        // segmentation mask": minThreadId = id & segmentationMask,
        // maxThreadId = minThreadId | (clamp & ~segmentationMask).
        let mask = self.extract(mask, 0)?;
        let clamp = self.op(Op::BitwiseAnd, &[mask, five_bits])?;
        let eight = u(self, 8);
        let seg = self.op(Op::ShiftRightLogical, &[mask, eight])?;
        let seg = self.op(Op::BitwiseAnd, &[seg, five_bits])?;
        let not_seg = self.op(Op::Not, &[seg])?;
        let min = self.op(Op::BitwiseAnd, &[lane, seg])?;
        let clamp_bits = self.op(Op::BitwiseAnd, &[clamp, not_seg])?;
        let max = self.op(Op::BitwiseOr, &[min, clamp_bits])?;
        // The source thread id, and whether it is in range. The spec says
        // "lower than maxThreadId" (SHFUP: "greater than"); the bounds are
        // inclusive, as in the PTX shfl instruction these come from, since
        // a clamp of 31 must reach thread 31 (the GLSL section's
        // `threadIdValid = index < width` with width 32). SHFUP's source
        // may be below zero, so it is compared signed.
        let (src, valid) = match op {
            Opcode::Shfdown | Opcode::Shfxor | Opcode::Shfidx => {
                let src = match op {
                    Opcode::Shfdown => self.op(Op::IAdd, &[lane, index])?,
                    Opcode::Shfxor => self.op(Op::BitwiseXor, &[lane, index])?,
                    _ => {
                        let i = self.op(Op::BitwiseAnd, &[index, not_seg])?;
                        self.op(Op::BitwiseOr, &[i, min])?
                    }
                };
                let valid = self.cmp(Op::ULessThanEqual, src, max)?;
                (src, valid)
            }
            Opcode::Shfup => {
                let src = self.op(Op::ISub, &[lane, index])?;
                let s = self.cast(src, Comp::I32)?;
                let m = self.cast(max, Comp::I32)?;
                let valid = self.cmp(Op::SGreaterThanEqual, s, m)?;
                (src, valid)
            }
            _ => {
                return Err(LowerError::internal(format!(
                    "{op} is not a thread shuffle"
                )))
            }
        };
        // Out of range: "it read the value from the current thread". A
        // source past the device's subgroup (an id the spec's 32 threads
        // have but a smaller subgroup lacks) is no active thread, whose
        // value the spec leaves undefined; it reads the current thread's
        // too, so no lane outside the subgroup is ever named.
        let exists = self.cmp(Op::ULessThan, src, size)?;
        let read = self.and(valid, exists)?;
        let src = self.sel(read, src, lane)?;
        let x = self.extract(value, 0)?;
        let scope = self.c_scalar(Comp::U32, Scope::Subgroup as u32);
        let x_ty = self.t(x.comp, 1);
        let id = self.emit(Op::GroupNonUniformShuffle, x_ty, &[scope, x.id, src.id])?;
        let shuffled = Val { id, ..x };
        let comp = Comp::from(ty);
        let shuffled = self.cast(shuffled, comp)?;
        let (t, f) = if ty == DataType::Float {
            (F32_ONE, 0)
        } else {
            (u32::MAX, 0)
        };
        let t = self.konst(comp, &[t]);
        let f = self.konst(comp, &[f]);
        let predicate = self.sel(valid, t, f)?;
        // "SHFDOWN returns a 2-component vector"; z and w, which the spec
        // leaves undefined, are 0 (docs/semantics.md, "Thread groups").
        self.construct(&[predicate, shuffled, f, f])
    }

    /// The built-in inputs a shuffle (and `state.thread.warpsize`)
    /// reads, declared once.
    pub(crate) fn subgroup_inputs(&mut self) -> (rspirv::spirv::Word, rspirv::spirv::Word) {
        if let Some(ids) = self.subgroup_inputs {
            return ids;
        }
        let uint = self.t(Comp::U32, 1);
        let declare = |l: &mut Self, b: BuiltIn, name: &str| {
            let var = l.global_variable(uint, StorageClass::Input, None, name);
            l.b.decorate(var, Decoration::BuiltIn, [SpvOperand::BuiltIn(b)]);
            // Integer inputs of a fragment program are Flat (Vulkan's
            // rule for every integer Input of the Fragment model).
            if l.program.stage == crate::Stage::Fragment {
                l.b.decorate(var, Decoration::Flat, []);
            }
            var
        };
        let lane = declare(self, BuiltIn::SubgroupLocalInvocationId, "subgroup_lane");
        let size = declare(self, BuiltIn::SubgroupSize, "subgroup_size");
        self.subgroup_inputs = Some((lane, size));
        (lane, size)
    }
}
