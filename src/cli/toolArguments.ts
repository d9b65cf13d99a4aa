// Arguments for a tool call built from its input schema alone: each required property gets its default, its first
// allowed value, or a plain value of its type within its bounds.

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

const SAMPLE_STRINGS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  date: '2025-01-01',
  'date-time': '2025-01-01T00:00:00Z',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** A value the schema accepts, or undefined when it describes nothing usable. */
export function sampleValue(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return undefined;
  if (schema.default !== undefined) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) return sampleValue(options[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      const base = SAMPLE_STRINGS[String(schema.format)] ?? 'test';
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return base.length >= min ? base : base.padEnd(min, 'x');
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      const value = min ?? (max !== undefined ? Math.min(1, max) : 1);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return true;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () => sampleValue(schema.items, depth + 1));
    }
    case 'object':
      return argumentsFor(schema, depth + 1);
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** Arguments for a tool whose `inputSchema` is given: its required properties, each with a sample value. */
export function argumentsFor(inputSchema: unknown, depth = 0): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (!isSchema(inputSchema) || !isSchema(inputSchema.properties)) return args;
  const required = Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const name of required) {
    const value = sampleValue(inputSchema.properties[name], depth);
    if (value !== undefined) args[name] = value;
  }
  return args;
}
