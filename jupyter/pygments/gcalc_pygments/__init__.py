"""A Pygments lexer for gcalc, for nbconvert's HTML/LaTeX export of gcalc
notebooks and anything else that highlights with Pygments.

`gcalc jupyter install` builds this package into a wheel with the builtin
names of the installing gcalc (its op table) in `_names.py`, and installs it
with pip into the Python that runs Jupyter; Pygments finds the lexer through
the `pygments.lexers` entry point, by the name `gcalc` that the kernel gives
as `language_info.pygments_lexer`.
"""

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

try:
    from ._names import BUILTINS, CONSTANTS, KEYWORDS
except ImportError:  # the source tree, before `gcalc jupyter install` built it
    KEYWORDS = (
        "fn", "if", "else", "elif", "for", "in", "while", "return", "break",
        "continue", "set", "and", "or", "not", "is",
    )
    CONSTANTS = ("true", "false", "none", "True", "False", "None")
    BUILTINS = ()

__all__ = ["GcalcLexer"]


def _builtin_rule():
    """Builtin names as one rule (none without names: an empty alternation
    would match the empty string and never advance)."""
    if not BUILTINS:
        return []
    return [(words(tuple(BUILTINS), prefix=r"(?<![\w.])", suffix=r"\b"), Name.Builtin)]


class GcalcLexer(RegexLexer):
    """gcalc: an array language for the CPU and NVIDIA GPUs."""

    name = "gcalc"
    aliases = ["gcalc"]
    filenames = ["*.gcalc"]
    mimetypes = ["text/x-gcalc"]
    url = "https://github.com/gcalc"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'[fF]?"""', String.Double, "triple"),
            (r'[fF]?"', String.Double, "string"),
            (r"[fF]?'''", String.Single, "triple1"),
            (r"[fF]?'", String.Single, "string1"),
            (r"(fn)(\s+)([A-Za-z_]\w*)", bygroups(Keyword, Whitespace, Name.Function)),
            # `time` is a keyword only in `time { ... }`.
            (r"(time)(\s*)(?=\{)", bygroups(Keyword, Whitespace)),
            (words(tuple(k for k in KEYWORDS if k not in CONSTANTS), suffix=r"\b"), Keyword),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (r"(\.)([A-Za-z_]\w*)", bygroups(Operator, Name.Attribute)),
            *_builtin_rule(),
            (r"[A-Za-z_]\w*", Name),
            include("numbers"),
            (r"\*\*=?|//=?|<<|>>|[-+*/%@&|^~<>!=]=?", Operator),
            (r"[()\[\]{},;:]", Punctuation),
            (r".", Text),
        ],
        "numbers": [
            (r"(\d+\.\d*|\.\d+)([eE][+-]?\d+)?", Number.Float),
            (r"\d+[eE][+-]?\d+", Number.Float),
            (r"\d+", Number.Integer),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r'"', String.Double, "#pop"),
            (r'[^"\\\n]+', String.Double),
            (r"\n", String.Double, "#pop"),
        ],
        "triple": [
            (r'\\.', String.Escape),
            (r'"""', String.Double, "#pop"),
            (r'[^"\\]+', String.Double),
            (r'"', String.Double),
        ],
        # Python's single quotes, which gcalc also takes.
        "string1": [
            (r"\\.", String.Escape),
            (r"'", String.Single, "#pop"),
            (r"[^'\\\n]+", String.Single),
            (r"\n", String.Single, "#pop"),
        ],
        "triple1": [
            (r"\\.", String.Escape),
            (r"'''", String.Single, "#pop"),
            (r"[^'\\]+", String.Single),
            (r"'", String.Single),
        ],
    }
