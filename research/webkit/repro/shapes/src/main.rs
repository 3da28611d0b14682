//! Counts, in each module named, the shapes of the JavaScriptCore faults research/webkit/investigation.md lists
//! (`cargo run --release -- [--check] <module.wasm> ...`; with `--check` it fails when a module
//! has one, as `make test` runs it on azqueue's modules): `copysign` at all and with a
//! constant sign, `i32.shr_u` of two constants and by a constant 32 or more, loops with two or
//! more float parameters (and blocks, loops and ifs with parameters at all), and imported
//! functions exported again. "Constant" is what the baseline JIT sees as one: a `const`, or an
//! arithmetic operation on constants (it folds them as it compiles), with nothing but `nop`,
//! `data.drop` and `elem.drop` between; the operand stack is followed through straight-line
//! arithmetic only and forgotten at anything else, so a constant reached some other way is not
//! counted.
use wasmparser::{
    BlockType, CompositeInnerType, ExternalKind, FuncType, Operator, Parser, Payload, TypeRef,
    ValType,
};

#[derive(Default)]
struct Shapes {
    functions: usize,
    copysign: usize,
    copysign_of_constant: usize,
    shr_u_of_constants: usize,
    shr_u_of_constants_by_32_or_more: usize,
    with_parameters: usize,
    loops_with_float_parameters: usize,
    exported_imports: usize,
}

/// Moves the followed operand stack past `op`: a constant pushes its value (i32 and i64 ones; a
/// float constant pushes a constant of no integer value), arithmetic on constants pushes a
/// constant (the count of an `i32.shr_u` needs only the value of its last operand, kept for
/// `i32` ones), `nop` and the drops of segments change nothing, and anything else forgets the
/// stack.
fn follow(op: &Operator, stack: &mut Vec<Option<i64>>) {
    use Operator::*;
    let unary = |stack: &mut Vec<Option<i64>>, value: fn(i64) -> i64| {
        let top = stack.pop().flatten();
        stack.push(top.map(value));
    };
    match op {
        I32Const { value } => stack.push(Some(i64::from(*value))),
        I64Const { value } => stack.push(Some(*value)),
        F32Const { .. } | F64Const { .. } => stack.push(Some(0)),
        Nop | DataDrop { .. } | ElemDrop { .. } => {}
        I32Extend8S => unary(stack, |v| i64::from(v as i8)),
        I32Extend16S => unary(stack, |v| i64::from(v as i16)),
        I32Eqz | I32Clz | I32Ctz | I32Popcnt | I64Eqz | I64Clz | I64Ctz | I64Popcnt
        | I64Extend8S | I64Extend16S | I64Extend32S | I32WrapI64 | I64ExtendI32S
        | I64ExtendI32U | F32Neg | F64Neg | F32Abs | F64Abs => {
            // A constant still, of a value not followed (only i32.shr_u counts need one).
            unary(stack, |_| i64::MIN)
        }
        I32Add | I32Sub | I32Mul | I32And | I32Or | I32Xor | I32Shl | I32ShrS | I32ShrU
        | I32Rotl | I32Rotr | I64Add | I64Sub | I64Mul | I64And | I64Or | I64Xor | I64Shl
        | I64ShrS | I64ShrU | I64Rotl | I64Rotr | F32Add | F32Sub | F32Mul | F64Add | F64Sub
        | F64Mul | F32Copysign | F64Copysign => {
            let b = stack.pop().flatten();
            let a = stack.pop().flatten();
            stack.push(a.and(b).map(|_| i64::MIN));
        }
        _ => stack.clear(),
    }
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.first().is_some_and(|a| a == "--check");
    if check {
        args.remove(0);
    }
    let mut faulty = Vec::new();
    for path in args {
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
                    // Whether each value on the operand stack is a constant, as far as it is
                    // followed (see the top of this file); unknown values are not constants.
                    let mut stack: Vec<Option<i64>> = Vec::new();
                    while !reader.eof() {
                        let op = reader.read()?;
                        match op {
                            Operator::F32Copysign | Operator::F64Copysign => {
                                found.copysign += 1;
                                if matches!(stack.last(), Some(Some(_))) {
                                    found.copysign_of_constant += 1;
                                }
                            }
                            Operator::I32ShrU => {
                                if let [.., Some(_), Some(count)] = stack[..] {
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
                        follow(&op, &mut stack);
                    }
                }
                _ => {}
            }
        }
        println!(
            "{path}: {} functions; copysign {} ({} of a constant); i32.shr_u of two constants {} \
             ({} by a count that may be 32 or more); blocks, loops and ifs with parameters {} (loops with 2+ float \
             ones {}); exported imports {}",
            found.functions,
            found.copysign,
            found.copysign_of_constant,
            found.shr_u_of_constants,
            found.shr_u_of_constants_by_32_or_more,
            found.with_parameters,
            found.loops_with_float_parameters,
            found.exported_imports
        );
        if found.copysign_of_constant
            + found.shr_u_of_constants_by_32_or_more
            + found.loops_with_float_parameters
            + found.exported_imports
            > 0
        {
            faulty.push(path);
        }
    }
    if check && !faulty.is_empty() {
        anyhow::bail!(
            "a shape JavaScriptCore 2.50 runs wrong, in {}",
            faulty.join(", ")
        );
    }
    Ok(())
}
