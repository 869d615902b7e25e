//! The spanned syntax tree that the parser builds and the interpreter walks.
//!
//! Invariant: every node carries the span of the source it came from, so that
//! any error about it can point at it.

use crate::span::Span;

/// A parsed program or cell: a list of statements.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// An expression statement: its value is shown at the prompt.
    Expr(Expr),
    /// `x = e`, `a, b = e`, `x[i] = e`, `x.attr = e` (targets are checked by the interpreter).
    Assign {
        target: Target,
        value: Expr,
    },
    /// `x += e` and friends.
    AugAssign {
        target: Target,
        op: BinOp,
        value: Expr,
    },
    /// `fn name(params) = expr` or `fn name(params) { ... }`.
    FnDef {
        name: Ident,
        func: FnBody,
    },
    /// `for a in e { ... }` and `for a, b in e { ... }`.
    For {
        var: Target,
        iter: Expr,
        body: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// `set name = value` (`value` kept as source text and as an expression) or `set` alone.
    Set(Option<SetFlag>),
    /// `assert cond` / `assert cond, message`.
    Assert {
        cond: Expr,
        msg: Option<Expr>,
    },
    /// `del x`, `del d[k]`, `del xs[i]`, `del a, b`.
    Del(Vec<Target>),
    /// `raise ValueError("msg")`: stop with an error of that class (gcalc
    /// has no `try`, so nothing catches it).
    Raise {
        class: Option<Ident>,
        msg: Option<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SetFlag {
    pub name: Ident,
    /// The value as written, e.g. `float64`, `gpu(1)`, `true`.
    pub value_text: String,
    pub value_span: Span,
}

/// The left side of an assignment or the variable of a `for`.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Name(Ident),
    /// `a, b` (possibly nested: `(a, b), c`).
    Tuple(Vec<Target>, Span),
    /// `x[i, j:k]`.
    Index {
        base: Box<Expr>,
        index: Vec<IndexItem>,
        span: Span,
    },
    /// `x.attr`.
    Attr {
        base: Box<Expr>,
        attr: Ident,
        span: Span,
    },
    /// `*rest` inside a tuple target: the items left over, as a list.
    Starred(Box<Target>, Span),
}

impl Target {
    pub fn span(&self) -> Span {
        match self {
            Target::Name(id) => id.span,
            Target::Tuple(_, s)
            | Target::Index { span: s, .. }
            | Target::Attr { span: s, .. }
            | Target::Starred(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A `{ ... }` block: its value is the value of its last statement when that is an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// Parameters and body of a named or anonymous function.
#[derive(Clone, Debug, PartialEq)]
pub struct FnBody {
    pub params: Vec<Param>,
    pub body: FnBodyKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FnBodyKind {
    /// `= expr`
    Expr(Box<Expr>),
    /// `{ ... }`
    Block(Block),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub default: Option<Expr>,
    pub kind: ParamKind,
}

/// `x` (or `x=default`), `*args` (the extra positional arguments, a tuple)
/// or `**kwargs` (the extra keyword arguments, a dict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Plain,
    Star,
    DoubleStar,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal (weak int64).
    Int(i64),
    /// Float literal (weak float: takes the dtype of what it meets, floatX alone).
    Float(f64),
    /// Imaginary literal `2j`, `1.5e3J` (a weak Python complex: 0 + v*1j).
    Imag(f64),
    Str(String),
    Bool(bool),
    None,
    Name(String),
    /// `(a, b)`, `(a,)`, `()`.
    Tuple(Vec<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a == b`, `a < b`, `a is b`... Chains (`a < b < c`) are parsed as `(a < b) and (b < c)`
    /// is NOT done: a chain is an error, as comparisons are elementwise on arrays.
    Compare {
        op: CmpOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `and` / `or`: short-circuit on scalars.
    Logic {
        op: LogicOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Not(Box<Expr>),
    Call {
        func: Box<Expr>,
        args: Vec<Arg>,
    },
    Index {
        base: Box<Expr>,
        index: Vec<IndexItem>,
    },
    Attr {
        base: Box<Expr>,
        attr: Ident,
    },
    /// `fn(x, y=1) = expr` or `fn(x) { ... }`.
    Lambda(FnBody),
    /// `if c { a } else { b }` (else optional; `else if` chains nest in `else_`).
    If {
        cond: Box<Expr>,
        then: Block,
        else_: Option<Box<Expr>>,
    },
    /// A block used as an expression (the `else { }` of an if, the body of `time`).
    Block(Block),
    /// `time { ... }`: waits for devices, runs the block, waits again, gives seconds.
    Time(Block),
    /// `a if c else b` (Python's conditional expression).
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    /// `f"...{expr!r:spec}..."`: literal text and replacement fields.
    FString(Vec<FStringPart>),
    /// `[elt for x in xs if c ...]`, and a generator expression `(elt for ...)`
    /// or a call's sole argument `sum(elt for ...)`, which also give a list.
    ListComp {
        elt: Box<Expr>,
        clauses: Vec<CompClause>,
    },
    /// `{k: v, ...}`.
    Dict(Vec<(Expr, Expr)>),
    /// `{k: v for x in xs if c ...}`.
    DictComp {
        key: Box<Expr>,
        value: Box<Expr>,
        clauses: Vec<CompClause>,
    },
    /// `(name := value)`: Python's assignment expression; binds `name` in the
    /// enclosing function or the globals (a comprehension's too, as Python's).
    Walrus {
        target: Ident,
        value: Box<Expr>,
    },
    /// `*xs` (`double`: `**d`): unpacked into a call's arguments, or `*rest`
    /// on the left of `=`; nowhere else.
    Starred {
        expr: Box<Expr>,
        double: bool,
    },
}

/// One piece of an f-string.
#[derive(Clone, Debug, PartialEq)]
pub enum FStringPart {
    /// Text as it is shown (`{{` and `}}` already made single, escapes decoded).
    Lit(String),
    /// A replacement field `{expr=!r:spec}`.
    Field(Box<FStringField>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FStringField {
    pub expr: Expr,
    /// `{x=}`: the expression's text (with the `=` and the blanks around it)
    /// is shown before its value, as Python does.
    pub debug: Option<String>,
    /// `!r`, `!s` or `!a`.
    pub conversion: Option<char>,
    /// The format spec after `:` (may hold nested fields: `{x:{w}.3f}`); empty: none.
    pub spec: Vec<FStringPart>,
    pub span: Span,
}

/// A `for` or `if` clause of a comprehension, in source order.
#[derive(Clone, Debug, PartialEq)]
pub enum CompClause {
    For { target: Target, iter: Expr },
    If(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    /// `Some` for `key=value`.
    pub name: Option<Ident>,
    pub value: Expr,
    pub span: Span,
}

/// One item of a subscript `x[...]`.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexItem {
    /// `i` (an integer scalar, or an array for gather).
    Expr(Expr),
    /// `start:stop:step`, each part optional.
    Slice {
        start: Option<Expr>,
        stop: Option<Expr>,
        step: Option<Expr>,
        span: Span,
    },
    /// `...`: as many `:` as the other items leave (only valid inside `[...]`).
    Ellipsis(Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Pos,
    /// `~x`: bitwise not of ints, logical not of bools.
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    /// `&`, `|`, `^`: bitwise on ints, logical on bools.
    BitAnd,
    BitOr,
    BitXor,
    /// `<<`, `>>` on ints.
    LShift,
    RShift,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Is,
    IsNot,
    /// `x in xs`: membership (list/tuple items, substrings, dict keys, array elements).
    In,
    NotIn,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Is => "is",
            CmpOp::IsNot => "is not",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LogicOp {
    And,
    Or,
}

/// The reserved words of the language. `True`, `False` and `None` are
/// Python's spellings of `true`, `false` and `none` (same literals).
pub const KEYWORDS: &[&str] = &[
    "fn", "if", "else", "elif", "for", "in", "while", "return", "break", "continue", "set", "and",
    "or", "not", "true", "false", "none", "is", "True", "False", "None",
];
// `time` is not reserved: `time { ... }` is the timing expression only when a `{` follows.
