// Which environment variable names a server may set: the process reads "A=B" in its environment as the variable A,
// so a name holding "=" (or a control character) would set another variable than the one written and shown.

/** A name the process would see as written: no `=`, no control character, not empty. */
export const isValidVariableName = (name: string): boolean => name.length > 0 && ![...name].some((c) => c === '=' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
