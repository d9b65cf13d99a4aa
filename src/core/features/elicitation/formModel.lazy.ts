// A form built from an elicitation `requestedSchema` (the spec's restricted JSON Schema subset: a flat object of
// primitive properties), with the validation and defaults every form runner shares: the VS Code quick input, the
// "Call Tool…" forms and the headless conformance client all answer through this one code path.

import type { FormField, FormModel } from './form';

type Result<T> = { ok: true; form: T } | { ok: false; error: string };

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/**
 * Constraints outside the spec's subset that a form could not enforce: accepting them silently would send values the
 * server does not expect, so a schema using them is refused.
 */
const UNSUPPORTED_KEYWORDS = [
  'pattern',
  'multipleOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'const',
  'allOf',
  'not',
  'if',
  '$ref',
  'uniqueItems',
  'contains',
];

const SECRET_WORDS = /\b(pass(word|phrase|wd|code)?|secret|token|api ?key|access ?key|private ?key|credentials?|otp|2fa)\b/;

/** Whether text (a field name, title or description) asks for a password, token, key or similar secret. */
export function looksSecret(...texts: (string | undefined)[]): boolean {
  return texts.some((t) => {
    if (!t) return false;
    // camelCase and snake_case names become words: "apiKey" and "api_key" read "api key".
    const words = t
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_\-.]+/g, ' ')
      .toLowerCase();
    return SECRET_WORDS.test(words);
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Builds a form from an elicitation `requestedSchema`; anything outside the allowed subset is refused with a reason. */
export function formFromSchema(schema: unknown): Result<FormModel> {
  if (!isObject(schema)) return { ok: false, error: 'The requested schema is not an object.' };
  if (schema.type !== 'object') return { ok: false, error: `The requested schema must have "type": "object" (got ${JSON.stringify(schema.type)}).` };
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return { ok: false, error: 'The requested schema\'s "properties" is not an object.' };
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
    return { ok: false, error: '"required" must be an array of property names.' };
  const unknownRequired = required.find((r) => !(r in properties));
  if (unknownRequired !== undefined) return { ok: false, error: `"required" names "${unknownRequired}", which is not a property.` };
  const fields: FormField[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const field = fieldFromSchema(name, prop, required.includes(name));
    if (!field.ok) return { ok: false, error: `Property "${name}": ${field.error}` };
    fields.push(field.form);
  }
  return { ok: true, form: { title: typeof schema.title === 'string' ? schema.title : undefined, fields } };
}

function fieldFromSchema(name: string, prop: unknown, required: boolean): Result<FormField> {
  if (!isObject(prop)) return { ok: false, error: 'its schema is not an object.' };
  const unsupported = UNSUPPORTED_KEYWORDS.find((k) => k in prop);
  if (unsupported) return { ok: false, error: `"${unsupported}" is not supported in elicitation forms.` };
  for (const key of ['title', 'description'] as const)
    if (prop[key] !== undefined && typeof prop[key] !== 'string') return { ok: false, error: `"${key}" must be a string.` };
  const title = (prop.title as string | undefined) || name;
  const description = prop.description as string | undefined;
  const base = { name, title, description, required, secretLike: looksSecret(name, title, description) };
  const type = prop.type;
  let field: Result<FormField>;
  if (type === 'string') field = stringField(base, prop);
  else if (type === 'number' || type === 'integer') field = numberField(base, type, prop);
  else if (type === 'boolean') field = { ok: true, form: { ...base, kind: 'boolean' } };
  else if (type === 'array') field = multiEnumField(base, prop);
  else if (type === 'object') return { ok: false, error: 'nested objects are not supported (only flat forms of primitive fields).' };
  else return { ok: false, error: `type ${JSON.stringify(type)} is not supported (string, number, integer, boolean, or array of enum values).` };
  if (!field.ok) return field;
  if ('default' in prop && prop.default !== undefined) {
    const error = defaultError(field.form, prop.default);
    if (error) return { ok: false, error };
    // A default the field's own constraints refuse is not offered: the user picks a valid value instead.
    if (validateValue(field.form, prop.default).ok) field.form.default = prop.default;
  }
  return field;
}

type FieldBase = Pick<FormField, 'name' | 'title' | 'description' | 'required' | 'secretLike'>;

function stringField(base: FieldBase, prop: Record<string, unknown>): Result<FormField> {
  if ('enum' in prop || 'oneOf' in prop || 'anyOf' in prop) {
    const options = enumOptions(prop);
    if (!options.ok) return options;
    return { ok: true, form: { ...base, kind: 'enum', options: options.form } };
  }
  for (const key of ['minLength', 'maxLength'] as const)
    if (prop[key] !== undefined && !isCount(prop[key])) return { ok: false, error: `"${key}" must be a non-negative integer.` };
  const { minLength, maxLength, format } = prop as { minLength?: number; maxLength?: number; format?: unknown };
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    return { ok: false, error: `"minLength" (${minLength}) is greater than "maxLength" (${maxLength}).` };
  if (format !== undefined && !FORMATS.includes(format as (typeof FORMATS)[number]))
    return { ok: false, error: `format ${JSON.stringify(format)} is not supported (email, uri, date, date-time).` };
  return { ok: true, form: { ...base, kind: 'string', minLength, maxLength, format: format as FormField['format'] } };
}

function numberField(base: FieldBase, kind: 'number' | 'integer', prop: Record<string, unknown>): Result<FormField> {
  for (const key of ['minimum', 'maximum'] as const)
    if (prop[key] !== undefined && (typeof prop[key] !== 'number' || !Number.isFinite(prop[key])))
      return { ok: false, error: `"${key}" must be a number.` };
  const { minimum, maximum } = prop as { minimum?: number; maximum?: number };
  if (minimum !== undefined && maximum !== undefined && minimum > maximum)
    return { ok: false, error: `"minimum" (${minimum}) is greater than "maximum" (${maximum}).` };
  return { ok: true, form: { ...base, kind, minimum, maximum } };
}

function multiEnumField(base: FieldBase, prop: Record<string, unknown>): Result<FormField> {
  const items = prop.items;
  if (!isObject(items)) return { ok: false, error: 'an array must have "items" listing its allowed values.' };
  if ('enum' in items && items.type !== 'string') return { ok: false, error: 'only arrays of string enum values are supported.' };
  if (!('enum' in items) && !('anyOf' in items) && !('oneOf' in items))
    return { ok: false, error: 'only arrays of enum values are supported ("items" needs "enum" or "anyOf").' };
  const options = enumOptions(items);
  if (!options.ok) return options;
  for (const key of ['minItems', 'maxItems'] as const)
    if (prop[key] !== undefined && !isCount(prop[key])) return { ok: false, error: `"${key}" must be a non-negative integer.` };
  const { minItems, maxItems } = prop as { minItems?: number; maxItems?: number };
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems)
    return { ok: false, error: `"minItems" (${minItems}) is greater than "maxItems" (${maxItems}).` };
  return { ok: true, form: { ...base, kind: 'multi-enum', options: options.form, minItems, maxItems } };
}

/** Options of `enum` (+ legacy `enumNames`) or of titled `oneOf`/`anyOf` lists of `{ const, title }`. */
function enumOptions(schema: Record<string, unknown>): Result<{ value: string; label: string }[]> {
  let options: { value: string; label: string }[];
  if ('enum' in schema) {
    const values = schema.enum;
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return { ok: false, error: '"enum" must be an array of strings.' };
    const names = schema.enumNames;
    if (names !== undefined && (!Array.isArray(names) || names.length !== values.length || !names.every((n) => typeof n === 'string')))
      return { ok: false, error: '"enumNames" must be an array of strings, one per "enum" value.' };
    options = values.map((value, i) => ({ value, label: (names as string[] | undefined)?.[i] || value }));
  } else {
    const list = schema.oneOf ?? schema.anyOf;
    const key = 'oneOf' in schema ? 'oneOf' : 'anyOf';
    if (!Array.isArray(list) || !list.every((o) => isObject(o) && typeof o.const === 'string' && (o.title === undefined || typeof o.title === 'string')))
      return { ok: false, error: `"${key}" must list options as { "const": "<value>", "title": "<label>" }.` };
    options = (list as { const: string; title?: string }[]).map((o) => ({ value: o.const, label: o.title || o.const }));
  }
  if (!options.length) return { ok: false, error: 'an enum needs at least one value.' };
  if (new Set(options.map((o) => o.value)).size !== options.length) return { ok: false, error: 'enum values must be unique.' };
  return { ok: true, form: options };
}

function defaultError(field: FormField, value: unknown): string | undefined {
  const expected: Record<FormField['kind'], [string, (v: unknown) => boolean]> = {
    string: ['a string', (v) => typeof v === 'string'],
    enum: ['one of its values', (v) => typeof v === 'string' && !!field.options?.some((o) => o.value === v)],
    number: ['a number', (v) => typeof v === 'number' && Number.isFinite(v)],
    integer: ['an integer', (v) => typeof v === 'number' && Number.isInteger(v)],
    boolean: ['true or false', (v) => typeof v === 'boolean'],
    'multi-enum': ['an array of its values', (v) => Array.isArray(v) && v.every((x) => field.options?.some((o) => o.value === x))],
  };
  const [what, check] = expected[field.kind];
  return check(value) ? undefined : `"default" must be ${what} (got ${JSON.stringify(value)}).`;
}

/** The values a form starts with: each field's schema default, where it has one. */
export function defaultsOf(form: FormModel): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of form.fields) if (f.default !== undefined) values[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
  return values;
}

type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Checks one answer, as a user typed or picked it, against its field: text is parsed for number and integer fields,
 * and every constraint (required, length, format, range, choices, item counts) is enforced. An empty answer to an
 * optional field is valid and means "no value" (`value: undefined`).
 */
export function validateField(field: FormField, input: string | boolean | string[] | undefined): Validation {
  // Blank text for a number, or nothing picked in an optional multi-select, is no answer at all.
  const empty =
    input === undefined ||
    (typeof input === 'string' && (field.kind === 'string' ? input === '' : input.trim() === '')) ||
    (Array.isArray(input) && input.length === 0 && !field.required);
  if (empty) return field.required ? { ok: false, message: `${field.title} is required.` } : { ok: true, value: undefined };
  let value: unknown = input;
  if (field.kind === 'number' || field.kind === 'integer') {
    if (typeof input !== 'string') return { ok: false, message: `${field.title} must be a number.` };
    const n = Number(input.trim());
    if (!Number.isFinite(n)) return { ok: false, message: `${field.title} must be a number${field.kind === 'integer' ? ' (a whole number)' : ''}.` };
    value = n;
  } else if (field.kind === 'boolean' && typeof input === 'string') {
    const word = input.trim().toLowerCase();
    if (!['true', 'false', 'yes', 'no'].includes(word)) return { ok: false, message: `${field.title} must be yes or no.` };
    value = word === 'true' || word === 'yes';
  }
  return validateValue(field, value);
}

/** Checks a typed value (a number, not its text) against a field's constraints. */
export function validateValue(field: FormField, value: unknown): Validation {
  const fail = (message: string): Validation => ({ ok: false, message });
  const t = field.title;
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return fail(`${t} must be text.`);
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength)
        return fail(`${t} needs at least ${field.minLength} character${field.minLength === 1 ? '' : 's'} (has ${length}).`);
      if (field.maxLength !== undefined && length > field.maxLength)
        return fail(`${t} allows at most ${field.maxLength} character${field.maxLength === 1 ? '' : 's'} (has ${length}).`);
      if (field.format && !FORMAT_CHECKS[field.format](value)) return fail(`${t} must be ${FORMAT_NAMES[field.format]}.`);
      return { ok: true, value };
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`${t} must be a number.`);
      if (field.kind === 'integer' && !Number.isInteger(value)) return fail(`${t} must be a whole number.`);
      if (field.minimum !== undefined && value < field.minimum) return fail(`${t} must be at least ${field.minimum}.`);
      if (field.maximum !== undefined && value > field.maximum) return fail(`${t} must be at most ${field.maximum}.`);
      return { ok: true, value };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail(`${t} must be yes or no.`);
    case 'enum':
      return typeof value === 'string' && field.options?.some((o) => o.value === value)
        ? { ok: true, value }
        : fail(`${t} must be one of: ${field.options?.map((o) => o.label).join(', ')}.`);
    case 'multi-enum': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return fail(`${t} must be a list of choices.`);
      const unknown = value.find((v) => !field.options?.some((o) => o.value === v));
      if (unknown !== undefined) return fail(`${t}: "${unknown}" is not one of the choices.`);
      if (new Set(value).size !== value.length) return fail(`${t}: each choice may be picked once.`);
      if (field.minItems !== undefined && value.length < field.minItems)
        return fail(`${t}: pick at least ${field.minItems} (picked ${value.length}).`);
      if (field.maxItems !== undefined && value.length > field.maxItems) return fail(`${t}: pick at most ${field.maxItems} (picked ${value.length}).`);
      return { ok: true, value: [...value] };
    }
  }
}

/**
 * Checks a complete answer (e.g. from a runner, or defaults in a headless client): every required field present and
 * every value valid. Returns only the form's own fields.
 */
export function validateForm(
  form: FormModel,
  values: Record<string, unknown>,
): { ok: true; values: Record<string, unknown> } | { ok: false; message: string } {
  const out: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (field.required) return { ok: false, message: `${field.title} is required.` };
      continue;
    }
    const checked = validateValue(field, value);
    if (!checked.ok) return checked;
    out[field.name] = checked.value;
  }
  return { ok: true, values: out };
}

/** A value as the user reads it in a review: option labels instead of raw values, "(not set)" for none. */
export function describeValue(field: FormField, value: unknown): string {
  if (value === undefined) return '(not set)';
  const label = (v: unknown) => field.options?.find((o) => o.value === v)?.label ?? String(v);
  if (field.kind === 'boolean') return value ? 'Yes' : 'No';
  if (field.kind === 'enum') return label(value);
  if (field.kind === 'multi-enum') return Array.isArray(value) && value.length ? value.map(label).join(', ') : '(none)';
  return String(value);
}

/** A short hint of a field's constraints, for prompts: "required · 3–20 characters · email address". */
export function describeConstraints(field: FormField): string {
  const parts = [field.required ? 'required' : 'optional'];
  const range = (min: number | undefined, max: number | undefined, unit: string) =>
    min !== undefined && max !== undefined ? `${min}–${max}${unit}` : min !== undefined ? `at least ${min}${unit}` : max !== undefined ? `at most ${max}${unit}` : '';
  if (field.kind === 'string') parts.push(range(field.minLength, field.maxLength, ' characters'));
  if (field.kind === 'number' || field.kind === 'integer') parts.push(field.kind === 'integer' ? 'whole number' : 'number', range(field.minimum, field.maximum, ''));
  if (field.kind === 'multi-enum') parts.push(range(field.minItems, field.maxItems, ' choices'));
  if (field.format) parts.push(FORMAT_NAMES[field.format]);
  return parts.filter(Boolean).join(' · ');
}

const FORMAT_NAMES: Record<NonNullable<FormField['format']>, string> = {
  email: 'an email address',
  uri: 'a URI such as https://example.com',
  date: 'a date as YYYY-MM-DD',
  'date-time': 'a date and time as YYYY-MM-DDTHH:MM:SSZ',
};

function isCalendarDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const FORMAT_CHECKS: Record<NonNullable<FormField['format']>, (s: string) => boolean> = {
  email: (s) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(s),
  uri: (s) => {
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(s)) return false;
    try {
      new URL(s);
      return true;
    } catch {
      return false;
    }
  },
  date: (s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    return !!m && isCalendarDate(+m[1], +m[2], +m[3]);
  },
  'date-time': (s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
    if (!m || !isCalendarDate(+m[1], +m[2], +m[3])) return false;
    const [h, min, sec] = [+m[4], +m[5], +m[6]];
    const offsetOk = m[9] === undefined || (+m[9] <= 23 && +m[10] <= 59);
    return h <= 23 && min <= 59 && sec <= 60 && offsetOk;
  },
};
