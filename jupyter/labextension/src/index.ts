// gcalc as a CodeMirror 6 language in JupyterLab 4: keywords, builtins (from
// the op table of the gcalc binary that installed this extension), strings,
// comments, numbers, definitions and attributes, coloured with JupyterLab's
// own highlight style, plus stable `cm-gcalc-*` classes for tests and user CSS.

import {
  LanguageSupport,
  StreamLanguage,
  StringStream,
  syntaxHighlighting
} from '@codemirror/language';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { tagHighlighter, tags as t } from '@lezer/highlight';

/** The package name: where JupyterLab serves this extension's files. */
const PACKAGE = '@gcalc/jupyterlab-gcalc';

/** What `gcalc jupyter install` writes beside the bundle (gcalc-names.json). */
interface Names {
  keywords: string[];
  constants: string[];
  builtins: string[];
}

/** Used when gcalc-names.json cannot be read (keywords are few and stable). */
const FALLBACK: Names = {
  keywords: [
    'fn', 'if', 'else', 'for', 'in', 'while', 'return', 'break', 'continue',
    'set', 'and', 'or', 'not', 'is'
  ],
  constants: ['true', 'false', 'none'],
  builtins: []
};

async function loadNames(): Promise<Names> {
  const base = PageConfig.getOption('fullLabextensionsUrl');
  const url = URLExt.join(base, PACKAGE, 'static', 'gcalc-names.json');
  try {
    const r = await fetch(url, { credentials: 'same-origin' });
    if (!r.ok) {
      throw new Error(`${r.status} ${r.statusText}`);
    }
    const n = (await r.json()) as Partial<Names>;
    return {
      keywords: n.keywords ?? FALLBACK.keywords,
      constants: n.constants ?? FALLBACK.constants,
      builtins: n.builtins ?? []
    };
  } catch (e) {
    console.warn(`gcalc: cannot read ${url} (${e}); builtins are not highlighted`);
    return FALLBACK;
  }
}

interface State {
  /** Inside a `"""` string that spans lines. */
  triple: boolean;
  /** The previous significant token, to tell `fn name` and `x.attr`. */
  prev: string;
}

/** The tokenizer: one token per call, named by CodeMirror's legacy token
 * names (`def`, `builtin`, `property`, `variable`) or by highlighting tags
 * (`keyword`, `bool`, `atom`, `number`, `string`, `comment`, `operator`). */
function tokenizer(names: Names) {
  const keywords = new Set(names.keywords.filter(k => !names.constants.includes(k)));
  const builtins = new Set(names.builtins);
  const bools = new Set(['true', 'false']);
  const constants = new Set(names.constants);

  const tripleBody = (stream: StringStream, state: State): string => {
    while (!stream.eol()) {
      if (stream.match('"""')) {
        state.triple = false;
        return 'string';
      }
      if (stream.next() === '\\') {
        stream.next();
      }
    }
    return 'string';
  };

  return {
    name: 'gcalc',
    startState: (): State => ({ triple: false, prev: '' }),
    copyState: (s: State): State => ({ ...s }),
    token(stream: StringStream, state: State): string | null {
      if (state.triple) {
        return tripleBody(stream, state);
      }
      if (stream.eatSpace()) {
        return null;
      }
      const prev = state.prev;
      state.prev = '';
      if (stream.match('#')) {
        stream.skipToEnd();
        return 'comment';
      }
      // Strings, f-strings included: `"..."`, `f"..."`, `"""..."""`.
      if (stream.match(/^f?"""/)) {
        state.triple = true;
        return tripleBody(stream, state);
      }
      if (stream.match(/^f?"/)) {
        let c: string | void;
        while ((c = stream.next()) != null) {
          if (c === '\\') {
            stream.next();
          } else if (c === '"') {
            break;
          }
        }
        return 'string';
      }
      if (stream.match(/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?j?/)) {
        return 'number';
      }
      const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/) as RegExpMatchArray | null;
      if (word) {
        const w = word[0];
        state.prev = w;
        if (prev === '.') {
          return 'property';
        }
        if (prev === 'fn') {
          return 'def';
        }
        if (bools.has(w)) {
          return 'bool';
        }
        if (constants.has(w)) {
          return 'atom';
        }
        // `time` is a keyword only in `time { ... }`.
        if (w === 'time' && stream.match(/^\s*\{/, false)) {
          return 'keyword';
        }
        if (keywords.has(w)) {
          return 'keyword';
        }
        return builtins.has(w) ? 'builtin' : 'variable';
      }
      const c = stream.next();
      state.prev = c ?? '';
      if (c && '+-*/%@=<>!&|^~'.includes(c)) {
        stream.eatWhile(/[*/=<>]/);
        return 'operator';
      }
      return c && '()[]{}'.includes(c) ? 'bracket' : null;
    },
    languageData: {
      commentTokens: { line: '#' },
      closeBrackets: { brackets: ['(', '[', '{', '"'] },
      indentOnInput: /^\s*\}$/
    }
  };
}

/** Stable class names beside JupyterLab's generated ones. */
const gcalcClasses = tagHighlighter([
  { tag: t.keyword, class: 'cm-gcalc-keyword' },
  { tag: t.bool, class: 'cm-gcalc-bool' },
  { tag: t.atom, class: 'cm-gcalc-atom' },
  { tag: t.standard(t.variableName), class: 'cm-gcalc-builtin' },
  { tag: t.definition(t.variableName), class: 'cm-gcalc-def' },
  { tag: t.propertyName, class: 'cm-gcalc-property' },
  { tag: t.number, class: 'cm-gcalc-number' },
  { tag: t.string, class: 'cm-gcalc-string' },
  { tag: t.comment, class: 'cm-gcalc-comment' },
  { tag: t.operator, class: 'cm-gcalc-operator' }
]);

async function gcalcSupport(): Promise<LanguageSupport> {
  const names = await loadNames();
  const language = StreamLanguage.define(tokenizer(names));
  return new LanguageSupport(language, [syntaxHighlighting(gcalcClasses)]);
}

const plugin = {
  id: `${PACKAGE}:language`,
  description: 'gcalc syntax highlighting in editors and notebooks',
  autoStart: true,
  requires: [IEditorLanguageRegistry],
  activate: (_app: unknown, languages: IEditorLanguageRegistry): void => {
    languages.addLanguage({
      name: 'gcalc',
      displayName: 'gcalc',
      mime: 'text/x-gcalc',
      extensions: ['gcalc'],
      load: gcalcSupport
    });
  }
};

export default plugin;
