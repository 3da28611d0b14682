//! Writes a bundle of random valid wasm modules (wasm-smith) for `differential.js` to run in V8
//! and in JavaScriptCore's tiers (issue 23): every module traps on nothing but its fuel running
//! out, imports only functions of `imports()`, exports everything, and its NaNs are canonical
//! after arithmetic, so any two engines must agree on every call's results, on the calls it makes
//! to its imports, and on the memory and globals after it.
//! The bundle is, per module: a u32 length and a JSON line of its exports' types, then a u32
//! length and the module's bytes (little-endian lengths). The `tierup-differential` binary
//! writes bundles, and `shrink` shrinks a module that two engines disagree on.
use arbitrary::Unstructured;
use std::fmt::Write as _;
use wasm_smith::{Config, Module};
use wasmparser::{CompositeInnerType, ExternalKind, Parser, Payload, TypeRef, ValType};

/// Entropy for one seed: a 64-bit xorshift stream, so a seed names a module for good.
pub fn entropy(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The JavaScript functions a module may import (`differential.js` has them): calls from wasm to
/// JavaScript with multi-value results and externref, as wasm-bindgen's glue makes them, and
/// `reenter`, which calls back into the module while the caller's frame waits below.
pub fn imports(kind: Kind) -> Vec<u8> {
    let float = match kind {
        Kind::Floats => r#"(import "env" "f64" (func (param f64 f32) (result f64 f32)))"#,
        _ => "",
    };
    let multi = match kind {
        Kind::RustLike => "",
        _ => r#"(import "env" "multi" (func (param i32 i64) (result i32 i64)))"#,
    };
    wat::parse_str(format!(
        r#"(module
            (import "env" "i32" (func (param i32) (result i32)))
            (import "env" "i64" (func (param i64 i32) (result i64)))
            {multi}
            (import "env" "ref" (func (param externref i32) (result externref)))
            (import "env" "void" (func (param i32 i64 externref)))
            (import "env" "nothing" (func))
            (import "env" "reenter" (func (param i32) (result i32)))
            {float})"#
    ))
    .expect("the imports parse")
}

/// What the modules hold.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    /// Integers and floats.
    Floats,
    /// Integers only.
    Integers,
    /// Integers only, without multi-value blocks or results (block parameters among them), in
    /// larger functions: closer to what rustc writes.
    RustLike,
}

impl Kind {
    /// The kind a command line's first argument names (`--no-floats`, `--rust-like`), if any.
    pub fn from_flag(flag: &str) -> Option<Kind> {
        match flag {
            "--no-floats" => Some(Kind::Integers),
            "--rust-like" => Some(Kind::RustLike),
            _ => None,
        }
    }
}

pub fn config(kind: Kind) -> Config {
    let rust_like = kind == Kind::RustLike;
    Config {
        allow_floats: kind == Kind::Floats,
        available_imports: Some(imports(kind)),
        max_imports: 7,
        min_types: 1,
        min_funcs: 2,
        max_funcs: if rust_like { 20 } else { 12 },
        max_instructions: if rust_like { 1_500 } else { 400 },
        max_memories: 1,
        max_memory32_bytes: 2 * 65_536,
        memory_max_size_required: true,
        max_tables: 2,
        max_table_elements: 64,
        table_max_size_required: true,
        export_everything: true,
        canonicalize_nans: true,
        disallow_traps: true,
        allow_start_export: false,
        // What rustc's wasm32 output and wasm-bindgen's glue use, as JavaScriptCore 2.50 runs it.
        multi_value_enabled: !rust_like,
        reference_types_enabled: true,
        bulk_memory_enabled: true,
        sign_extension_ops_enabled: true,
        saturating_float_to_int_enabled: true,
        simd_enabled: false,
        relaxed_simd_enabled: false,
        tail_call_enabled: false,
        exceptions_enabled: false,
        gc_enabled: false,
        threads_enabled: false,
        memory64_enabled: false,
        extended_const_enabled: false,
        custom_page_sizes_enabled: false,
        wide_arithmetic_enabled: false,
        compact_imports_enabled: false,
        ..Config::default()
    }
}

fn type_name(t: &ValType) -> String {
    match t {
        ValType::I32 => "i32".into(),
        ValType::I64 => "i64".into(),
        ValType::F32 => "f32".into(),
        ValType::F64 => "f64".into(),
        ValType::V128 => "v128".into(),
        ValType::Ref(r) if r.is_extern_ref() => "externref".into(),
        ValType::Ref(_) => "funcref".into(),
    }
}

/// The exports' types as JSON, in the export section's order (which is the order of
/// `WebAssembly.Module.exports`): `{"params":[…],"results":[…]}` for a function (with
/// `"reexported":true` for an imported one),
/// `{"global":"i64"}` for a global, `{}` for the rest.
pub fn exports_json(bytes: &[u8]) -> String {
    let mut types = Vec::new();
    let mut funcs = Vec::new();
    let mut imported = 0;
    let mut globals = Vec::new();
    let mut exports = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.expect("wasm-smith writes valid modules") {
            Payload::TypeSection(s) => {
                for group in s {
                    for sub in group.unwrap().into_types() {
                        if let CompositeInnerType::Func(f) = &sub.composite_type.inner {
                            types.push(Some(f.clone()));
                        } else {
                            types.push(None);
                        }
                    }
                }
            }
            Payload::ImportSection(s) => {
                for import in s.into_imports() {
                    if let TypeRef::Func(t) = import.unwrap().ty {
                        funcs.push(t);
                        imported += 1;
                    }
                }
            }
            Payload::FunctionSection(s) => funcs.extend(s.into_iter().map(|t| t.unwrap())),
            Payload::GlobalSection(s) => {
                globals.extend(s.into_iter().map(|g| g.unwrap().ty.content_type))
            }
            Payload::ExportSection(s) => exports.extend(s.into_iter().map(|e| e.unwrap())),
            _ => {}
        }
    }
    let names = |list: &[ValType]| {
        let all: Vec<String> = list
            .iter()
            .map(|t| format!("\"{}\"", type_name(t)))
            .collect();
        format!("[{}]", all.join(","))
    };
    let mut out = String::from("[");
    for (i, e) in exports.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match e.kind {
            ExternalKind::Func => {
                let f = types[funcs[e.index as usize] as usize].as_ref().unwrap();
                // An imported function exported again: JavaScriptCore 2.50 hands JavaScript's
                // arguments to it unconverted (../reexported-import.js), so it is not called.
                let again = if e.index < imported {
                    ",\"reexported\":true"
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    "{{\"params\":{},\"results\":{}{again}}}",
                    names(f.params()),
                    names(f.results())
                );
            }
            ExternalKind::Global => {
                let t = type_name(&globals[e.index as usize]);
                let _ = write!(out, "{{\"global\":\"{t}\"}}");
            }
            _ => {
                out.push_str("{}");
            }
        }
    }
    out.push(']');
    out
}

/// The module of a seed, its loops bounded by fuel.
pub fn module(seed: u64, kind: Kind) -> Vec<u8> {
    let data = entropy(seed, 64 * 1024);
    let mut module = Module::new(config(kind), &mut Unstructured::new(&data)).expect("module");
    module.ensure_termination(2_000).expect("fuel");
    module.to_bytes()
}

/// Appends one module and its exports' types to a bundle.
pub fn bundle(out: &mut Vec<u8>, bytes: &[u8]) {
    let meta = exports_json(bytes);
    for part in [meta.as_bytes(), bytes] {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        out.extend_from_slice(part);
    }
}
