// Tool input schemas go to the model as the server wrote them. Some cannot go at all (model APIs want a JSON
// object schema of type "object"), and a model API may still refuse one: such tools are left out and reported,
// never allowed to break the whole request.

/** Why a schema cannot be offered to a model, or undefined when it can be passed through. */
export function schemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'its input schema is not a JSON object';
  if ((schema as { type?: unknown }).type !== 'object') return 'its input schema is not of type "object"';
  try {
    JSON.stringify(schema);
  } catch (e) {
    return `its input schema cannot be serialized (${(e as Error).message})`;
  }
  return undefined;
}

/** The tool names an error message of the model API complains about (it names the offending function). */
export function toolsNamedIn(message: string, modelNames: Iterable<string>): string[] {
  // Longest first, and only whole names: `a_b` must not match inside `a_b_c`.
  const sorted = [...modelNames].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  let rest = message;
  for (const name of sorted) {
    const re = new RegExp(`(^|[^a-zA-Z0-9_-])${name.replace(/[-]/g, '\\-')}(?![a-zA-Z0-9_-])`);
    if (re.test(rest)) {
      found.push(name);
      rest = rest.replace(new RegExp(re.source, 'g'), '$1');
    }
  }
  return found;
}
