//! Counts, in each module named, the shapes of the JavaScriptCore faults docs/webkit.md lists
//! (`cargo run --release --bin shapes -- <module.wasm> ...`): `copysign` right after a constant,
//! `i32.shr_u` of two constants by 32 or more, loops with two or more float parameters (and
//! blocks, loops and ifs with parameters at all), and imported functions exported again.
use wasmparser::{
    BlockType, CompositeInnerType, ExternalKind, FuncType, Operator, Parser, Payload, TypeRef,
    ValType,
};

#[derive(Default)]
struct Shapes {
    functions: usize,
    copysign_of_constant: usize,
    shr_u_of_constants: usize,
    shr_u_of_constants_by_32_or_more: usize,
    with_parameters: usize,
    loops_with_float_parameters: usize,
    exported_imports: usize,
}

fn main() -> anyhow::Result<()> {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path)?;
        let mut types: Vec<Option<FuncType>> = Vec::new();
        let mut imported = 0;
        let mut found = Shapes::default();
        for payload in Parser::new(0).parse_all(&bytes) {
            match payload? {
                Payload::TypeSection(s) => {
                    for group in s {
                        for t in group?.into_types() {
                            types.push(match &t.composite_type.inner {
                                CompositeInnerType::Func(f) => Some(f.clone()),
                                _ => None,
                            });
                        }
                    }
                }
                Payload::ImportSection(s) => {
                    for import in s.into_imports() {
                        if let TypeRef::Func(_) = import?.ty {
                            imported += 1;
                        }
                    }
                }
                Payload::ExportSection(s) => {
                    for e in s {
                        let e = e?;
                        if e.kind == ExternalKind::Func && e.index < imported {
                            found.exported_imports += 1;
                        }
                    }
                }
                Payload::CodeSectionEntry(body) => {
                    found.functions += 1;
                    let mut reader = body.get_operators_reader()?;
                    // The two operators before this one, when they were constants.
                    let mut before: [Option<i64>; 2] = [None, None];
                    let mut after_float_constant = false;
                    while !reader.eof() {
                        let op = reader.read()?;
                        match op {
                            Operator::F32Copysign | Operator::F64Copysign
                                if after_float_constant =>
                            {
                                found.copysign_of_constant += 1
                            }
                            Operator::I32ShrU => {
                                if let [Some(_), Some(count)] = before {
                                    found.shr_u_of_constants += 1;
                                    if !(0..32).contains(&count) {
                                        found.shr_u_of_constants_by_32_or_more += 1;
                                    }
                                }
                            }
                            Operator::Block { blockty }
                            | Operator::Loop { blockty }
                            | Operator::If { blockty } => {
                                if let BlockType::FuncType(i) = blockty {
                                    let params =
                                        types[i as usize].as_ref().map_or(&[][..], |f| f.params());
                                    if !params.is_empty() {
                                        found.with_parameters += 1;
                                    }
                                    let floats = params
                                        .iter()
                                        .filter(|t| matches!(t, ValType::F32 | ValType::F64))
                                        .count();
                                    if matches!(op, Operator::Loop { .. }) && floats >= 2 {
                                        found.loops_with_float_parameters += 1;
                                    }
                                }
                            }
                            _ => {}
                        }
                        after_float_constant =
                            matches!(op, Operator::F32Const { .. } | Operator::F64Const { .. });
                        let constant = match op {
                            Operator::I32Const { value } => Some(i64::from(value)),
                            _ => None,
                        };
                        before = [before[1], constant];
                    }
                }
                _ => {}
            }
        }
        println!(
            "{path}: {} functions; copysign of a constant {}; i32.shr_u of two constants {} \
             ({} by 32 or more); blocks, loops and ifs with parameters {} (loops with 2+ float \
             ones {}); exported imports {}",
            found.functions,
            found.copysign_of_constant,
            found.shr_u_of_constants,
            found.shr_u_of_constants_by_32_or_more,
            found.with_parameters,
            found.loops_with_float_parameters,
            found.exported_imports
        );
    }
    Ok(())
}
