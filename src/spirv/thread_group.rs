//! NV_gpu_program5's thread-group instructions (section 2.X.8.Z, TGALL,
//! TGANY, TGEQ) as subgroup operations.
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

use rspirv::spirv::{Capability, Op, Scope};

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
        if self.options.target_env < TargetEnv::Vulkan1_1 {
            return Err(LowerError::internal(format!(
                "{op} lowered for {}: subgroup votes need vulkan1.1 (the checker gives E1140)",
                self.options.target_env.name()
            )));
        }
        self.capability(Capability::GroupNonUniform);
        self.capability(Capability::GroupNonUniformVote);
        // "comparing each component to zero": floats with an unordered
        // not-equal, so -0.0 is zero and a NaN is non-zero (`NaN == 0` is
        // false in the pseudocode's `if (tmp.x == 0)`).
        let comp = Comp::from(ty);
        let zero = self.splat_const(comp, 0, 4);
        let test = if ty == DataType::Float {
            Op::FUnordNotEqual
        } else {
            Op::INotEqual
        };
        let non_zero = self.cmp(test, value, zero)?;
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
        let t = self.splat_const(comp, t, 4);
        self.sel(votes, t, zero)
    }
}
