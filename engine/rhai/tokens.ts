/**
 * Rhai's vocabulary: keywords, reserved words and symbols (as built for Meilisearch, with `no_module`), the
 * symbols that are errors with an explanation, and the tokens after which `-` and `+` are unary.
 */
export const KEYWORDS = new Set([
  'true', 'false', 'let', 'const', 'if', 'else', 'switch', 'do', 'while', 'until', 'loop', 'for', 'in',
  'continue', 'break', 'return', 'throw', 'try', 'catch', 'fn', 'private', '_',
])

/** Reserved words (Meilisearch's build has `no_module`, so `import`, `export`, `as` are reserved too). */
export const RESERVED_WORDS = new Set([
  'var', 'protected', 'spawn', 'shared', 'is', 'sync', 'curry', 'static', 'default', 'is_shared', 'print', 'this',
  'is_def_var', 'thread', 'is_def_fn', 'yield', 'new', 'call', 'match', 'eval', 'await', 'null', 'debug', 'type_of',
  'with', 'void', 'import', 'nil', 'export', 'module', 'Fn', 'go', 'goto', 'as', 'use', 'case', 'async', 'public',
  'package', 'super',
])

/** Reserved words that may be called as functions, and those that may also be called as methods. */
export const CALLABLE_RESERVED = new Set(['curry', 'is_shared', 'print', 'is_def_var', 'is_def_fn', 'call', 'eval', 'debug', 'type_of', 'Fn'])
export const METHOD_RESERVED = new Set(['curry', 'is_shared', 'call', 'type_of'])

export function isReservedWord(word: string): boolean {
  return RESERVED_WORDS.has(word)
}

export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word)
}

/** Reserved symbols that the tokenizer turns into errors straight away, with Rhai's explanations. */
export const IMPROPER_SYMBOLS: Record<string, string> = {
  '===': "'===' is not a valid operator. This is not JavaScript! Should it be '=='?",
  '!==': "'!==' is not a valid operator. This is not JavaScript! Should it be '!='?",
  '->': "'->' is not a valid symbol. This is not C or C++!",
  '<-': "'<-' is not a valid symbol. This is not Go! Should it be '<='?",
  ':=': "':=' is not a valid assignment operator. This is not Go or Pascal! Should it be simply '='?",
  ':;': "':;' is not a valid symbol. Should it be '::'?",
  '(*': "'(* .. *)' is not a valid comment format. This is not Pascal! Should it be '/* .. */'?",
  '*)': "'(* .. *)' is not a valid comment format. This is not Pascal! Should it be '/* .. */'?",
  '# {': "'#' is not a valid symbol. Should it be '#{'?",
}

/** Tokens after which a `-` or `+` is unary (Rhai's `is_next_unary`). */
export const BEFORE_UNARY = new Set([
  ';', ':', ',', '??', '..', '..=', '{', '(', '[', '+', '+=', '-', '-=', '*', '*=', '/', '/=', '%', '%=', '**', '**=',
  '<<', '<<=', '>>', '>>=', '=', '==', '!=', '<', '>', '!', '<=', '>=', '|', '&', 'if', 'while', 'until', 'in', '!in',
  '&&', '&=', '||', '|=', '^', '^=', 'return', 'throw', '?[',
])

/** Three-, two- and one-character symbols, longest first. */
export const SYMBOLS3 = ['**=', '<<=', '>>=', '..=', '...', '===', '!==']
export const SYMBOLS2 = [
  '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '=>', '&&', '||', '&=', '|=', '^=', '<<', '>>', '**', '..',
  '??', '?.', '?[', '++', '--', '->', '<-', ':=', ':;', '|>', '<|', '!.', '*)', '(*', '#{', '#!', '()',
]
export const SYMBOLS1 = '+-*/%=<>!|&^~@$?;:,.(){}[]'
export const RESERVED_SYMBOLS = new Set(['...', '===', '!==', '++', '--', '->', '<-', ':=', ':;', '|>', '<|', '!.', '*)', '(*', '#!', '~', '@', '$', '?'])
