//! Tests that run compiled programs on a Vulkan device (Mesa lavapipe on
//! machines without a GPU): execution tests with hand-computed values, the
//! device-against-interpreter matrix and differential tests, conformance
//! files, the harness's own tests, and the rendering example.
//!
//! One test binary (not one per file) so SPIRV-Tools and ash are linked once.

mod common;
mod harness;

mod agal_render;
mod conformance;
mod d3d9;
mod differential;
mod differential_agal;
mod exec_agal;
mod exec_arb;
mod exec_buffers;
mod exec_cg_fixtures;
mod exec_compute;
mod exec_derivatives;
mod exec_fixed_function;
mod exec_float_ops;
mod exec_flow;
mod exec_geometry;
mod exec_layout;
mod exec_nv5_64bit;
mod exec_nv5_atomics64;
mod exec_nv5_bindless;
mod exec_nv5_bindless_images;
mod exec_nv5_bits;
mod exec_nv5_fragment_images;
mod exec_nv5_global;
mod exec_nv5_images;
mod exec_nv5_samples;
mod exec_nv5_storage;
mod exec_nv5_subroutines;
mod exec_nv5_thread_group;
mod exec_options;
mod exec_pipeline;
mod exec_state;
mod exec_tessellation;
mod exec_texture;
mod exec_vertex;
mod harness_selftest;
mod matrix;
mod piglit;
mod reflect_render_example;
