import * as assert from 'assert';
import { defaultsOf, describeValue, formFromSchema, looksSecret, validateField, validateForm } from '../../src/core/features/elicitation/formModel.lazy';
import { type FormField, type FormModel } from '../../src/core/features/elicitation/form';

const formOf = (properties: Record<string, unknown>, required: string[] = []): FormModel => {
  const r = formFromSchema({ type: 'object', properties, required });
  if (!r.ok) throw new Error(r.error);
  return r.form;
};
const fieldOf = (schema: Record<string, unknown>, required = false): FormField => formOf({ f: schema }, required ? ['f'] : []).fields[0];
const refused = (schema: unknown): string => {
  const r = formFromSchema(schema);
  assert.ok(!r.ok, `expected ${JSON.stringify(schema)} to be refused`);
  return r.error;
};
const ok = (field: FormField, input: Parameters<typeof validateField>[1]) => {
  const r = validateField(field, input);
  assert.ok(r.ok, `expected ${JSON.stringify(input)} to be valid: ${r.ok ? '' : r.message}`);
  return r.value;
};
const bad = (field: FormField, input: Parameters<typeof validateField>[1], pattern: RegExp) => {
  const r = validateField(field, input);
  assert.ok(!r.ok, `expected ${JSON.stringify(input)} to be refused`);
  assert.match(r.message, pattern);
};

describe('formModel: schema -> form', () => {
  it('builds every field type, in order, with titles, descriptions, required marks and defaults', () => {
    const form = formOf(
      {
        name: { type: 'string', title: 'Name', description: 'Your name', minLength: 2, maxLength: 20 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150, default: 42 },
        ratio: { type: 'number', minimum: 0.5, maximum: 1.5 },
        agree: { type: 'boolean', default: false },
        color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
        friend: { type: 'string', enum: ['Monica', 'Joey'] },
        hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }] },
        tools: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a'] },
        fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] } },
      },
      ['name', 'agree'],
    );
    assert.deepStrictEqual(
      form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['name', 'string', true],
        ['email', 'string', false],
        ['age', 'integer', false],
        ['ratio', 'number', false],
        ['agree', 'boolean', true],
        ['color', 'enum', false],
        ['friend', 'enum', false],
        ['hero', 'enum', false],
        ['tools', 'multi-enum', false],
        ['fish', 'multi-enum', false],
      ],
    );
    const [name, email, age, ratio, , color, friend, hero, tools, fish] = form.fields;
    assert.deepStrictEqual([name.title, name.description, name.minLength, name.maxLength], ['Name', 'Your name', 2, 20]);
    assert.strictEqual(email.title, 'email', 'the property name stands in for a missing title');
    assert.strictEqual(email.format, 'email');
    assert.deepStrictEqual([age.minimum, age.maximum, age.default], [0, 150, 42]);
    assert.deepStrictEqual([ratio.minimum, ratio.maximum], [0.5, 1.5]);
    assert.deepStrictEqual(color.options, [
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    assert.deepStrictEqual(friend.options?.map((o) => o.label), ['Monica', 'Joey']);
    assert.deepStrictEqual(hero.options, [
      { value: 'h1', label: 'Superman' },
      { value: 'h2', label: 'Batman' },
    ]);
    assert.deepStrictEqual([tools.minItems, tools.maxItems, tools.options?.length], [1, 2, 3]);
    assert.deepStrictEqual(fish.options?.map((o) => o.label), ['Tuna', 'Trout']);
    assert.deepStrictEqual(defaultsOf(form), { age: 42, agree: false, color: 'g', tools: ['a'] });
  });

  it("reads server-everything's trigger-elicitation-request schema completely", () => {
    const r = formFromSchema(EVERYTHING_SCHEMA);
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.strictEqual(r.form.fields.length, 13);
    assert.deepStrictEqual(defaultsOf(r.form), {
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    });
    assert.deepStrictEqual(validateForm(r.form, defaultsOf(r.form)), { ok: false, message: 'String is required.' });
    const filled = validateForm(r.form, { ...defaultsOf(r.form), name: 'Ada' });
    assert.ok(filled.ok);
  });

  it('marks fields that look like they ask for secrets', () => {
    const form = formOf({
      password: { type: 'string' },
      apiKey: { type: 'string' },
      gh: { type: 'string', title: 'GitHub access token' },
      other: { type: 'string', description: 'Paste your private key' },
      maxTokens: { type: 'integer' },
      city: { type: 'string', description: 'Where you live' },
    });
    assert.deepStrictEqual(
      form.fields.map((f) => [f.name, f.secretLike]),
      [
        ['password', true],
        ['apiKey', true],
        ['gh', true],
        ['other', true],
        ['maxTokens', false],
        ['city', false],
      ],
    );
    assert.ok(looksSecret('client_secret'));
    assert.ok(!looksSecret('Your favorite integer'));
  });

  it('refuses schemas outside the subset, with a reason', () => {
    assert.match(refused(null), /not an object/);
    assert.match(refused({ type: 'array' }), /"type": "object"/);
    assert.match(refused({ type: 'object', properties: [] }), /"properties" is not an object/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'object', properties: {} } } }), /"a".*nested objects/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'null' } } }), /type "null" is not supported/);
    assert.match(refused({ type: 'object', properties: { a: { type: ['string', 'null'] } } }), /not supported/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } }), /"pattern" is not supported/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', format: 'hostname' } } }), /format "hostname"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } }), /arrays of enum values/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'array', items: { type: 'integer', enum: [1] } } } }), /string enum/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'array' } } }), /"items"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', enum: [1, 2] } } }), /"enum" must be an array of strings/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', enum: ['x'], enumNames: ['X', 'Y'] } } }), /"enumNames"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', enum: [] } } }), /at least one value/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', enum: ['x', 'x'] } } }), /unique/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', oneOf: [{ const: 1 }] } } }), /"oneOf" must list options/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }), /"minLength"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', minLength: 5, maxLength: 2 } } }), /greater than/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'number', minimum: 'low' } } }), /"minimum" must be a number/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'integer', minimum: 3, maximum: 1 } } }), /greater than/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'array', items: { type: 'string', enum: ['x'] }, minItems: 1.5 } } }), /"minItems"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }), /"required" names "b"/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', default: 3 } } }), /"default" must be a string/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'integer', default: 1.5 } } }), /"default" must be an integer/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', enum: ['x'], default: 'y' } } }), /"default" must be one of its values/);
    assert.match(refused({ type: 'object', properties: { a: { type: 'string', title: 7 } } }), /"title" must be a string/);
  });

  it('does not pre-fill a default that its own constraints refuse', () => {
    const field = fieldOf({ type: 'integer', minimum: 10, default: 3 });
    assert.strictEqual(field.default, undefined);
  });

  it('accepts a form with no fields (a plain confirmation)', () => {
    const r = formFromSchema({ type: 'object', properties: {} });
    assert.ok(r.ok && r.form.fields.length === 0);
  });
});

describe('formModel: validation', () => {
  it('required and optional: an empty answer is refused or means "not set"', () => {
    bad(fieldOf({ type: 'string' }, true), '', /is required/);
    bad(fieldOf({ type: 'number' }, true), '   ', /is required/);
    bad(fieldOf({ type: 'boolean' }, true), undefined, /is required/);
    assert.strictEqual(ok(fieldOf({ type: 'string' }), ''), undefined);
    assert.strictEqual(ok(fieldOf({ type: 'integer' }), ' '), undefined);
    assert.strictEqual(ok(fieldOf({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 1 }), []), undefined);
  });

  it('string length counts characters, not UTF-16 units', () => {
    const f = fieldOf({ type: 'string', minLength: 2, maxLength: 3 });
    bad(f, 'a', /at least 2 characters \(has 1\)/);
    assert.strictEqual(ok(f, 'ab'), 'ab');
    assert.strictEqual(ok(f, '😀😀😀'), '😀😀😀');
    bad(f, 'abcd', /at most 3 characters \(has 4\)/);
  });

  it('string formats: email, uri, date, date-time', () => {
    const email = fieldOf({ type: 'string', format: 'email' });
    ok(email, 'ada@example.com');
    for (const v of ['ada', 'ada@', 'ada@example', 'a b@example.com']) bad(email, v, /email address/);
    const uri = fieldOf({ type: 'string', format: 'uri' });
    ok(uri, 'https://example.com/x?y=1');
    ok(uri, 'mailto:ada@example.com');
    for (const v of ['example.com', 'https://', '/relative/path']) bad(uri, v, /URI/);
    const date = fieldOf({ type: 'string', format: 'date' });
    ok(date, '2024-02-29');
    for (const v of ['2023-02-29', '2024-13-01', '24-01-01', '2024-01-01T00:00:00Z']) bad(date, v, /YYYY-MM-DD/);
    const dateTime = fieldOf({ type: 'string', format: 'date-time' });
    ok(dateTime, '2024-05-01T12:30:00Z');
    ok(dateTime, '2024-05-01T12:30:00.250+02:00');
    for (const v of ['2024-05-01', '2024-05-01T25:00:00Z', '2024-05-01T12:30:00', '2024-02-30T00:00:00Z']) bad(dateTime, v, /date and time/);
  });

  it('numbers and integers are parsed from text and kept in range', () => {
    const n = fieldOf({ type: 'number', minimum: 0, maximum: 1000 });
    assert.strictEqual(ok(n, '3.14'), 3.14);
    assert.strictEqual(ok(n, ' 0 '), 0);
    assert.strictEqual(ok(n, '1e3'), 1000);
    bad(n, 'abc', /must be a number/);
    bad(n, '12abc', /must be a number/);
    bad(n, 'Infinity', /must be a number/);
    bad(n, '-0.5', /at least 0/);
    bad(n, '1000.5', /at most 1000/);
    const i = fieldOf({ type: 'integer', minimum: 1, maximum: 100 });
    assert.strictEqual(ok(i, '42'), 42);
    bad(i, '4.2', /whole number/);
    bad(i, '0', /at least 1/);
    bad(i, '101', /at most 100/);
  });

  it('booleans take true/false (or yes/no text)', () => {
    const b = fieldOf({ type: 'boolean' });
    assert.strictEqual(ok(b, true), true);
    assert.strictEqual(ok(b, false), false);
    assert.strictEqual(ok(b, 'yes'), true);
    assert.strictEqual(ok(b, 'False'), false);
    bad(b, 'maybe', /yes or no/);
    bad(b, ['true'], /yes or no/);
  });

  it('single choices must be one of the values', () => {
    const e = fieldOf({ type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] });
    assert.strictEqual(ok(e, 'h1'), 'h1');
    bad(e, 'Superman', /one of: Superman/);
    bad(e, ['h1'], /one of/);
  });

  it('multiple choices: known values, each once, within minItems/maxItems', () => {
    const m = fieldOf({ type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } }, true);
    assert.deepStrictEqual(ok(m, ['a', 'c']), ['a', 'c']);
    bad(m, [], /at least 1 \(picked 0\)/);
    bad(m, ['a', 'b', 'c'], /at most 2 \(picked 3\)/);
    bad(m, ['a', 'z'], /"z" is not one of the choices/);
    bad(m, ['a', 'a'], /once/);
    bad(m, 'a', /list of choices/);
  });

  it('validateForm checks a whole answer and keeps only the form\'s fields', () => {
    const form = formOf({ a: { type: 'string' }, n: { type: 'integer', maximum: 3 } }, ['a']);
    assert.deepStrictEqual(validateForm(form, { a: 'x', n: 2, extra: 1 }), { ok: true, values: { a: 'x', n: 2 } });
    assert.deepStrictEqual(validateForm(form, { n: 2 }), { ok: false, message: 'a is required.' });
    assert.deepStrictEqual(validateForm(form, { a: 'x', n: 4 }), { ok: false, message: 'n must be at most 3.' });
  });

  it('describes values as the user reads them', () => {
    const form = formOf({
      b: { type: 'boolean' },
      e: { type: 'string', enum: ['p1'], enumNames: ['Cats'] },
      m: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] } },
    });
    const [b, e, m] = form.fields;
    assert.deepStrictEqual(
      [describeValue(b, true), describeValue(e, 'p1'), describeValue(m, ['f1', 'f2']), describeValue(m, []), describeValue(b, undefined)],
      ['Yes', 'Cats', 'Tuna, Trout', '(none)', '(not set)'],
    );
  });
});

/** Exactly what server-everything 2026.8.31 sends from trigger-elicitation-request. */
const EVERYTHING_SCHEMA = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
    firstLine: { title: 'String with default', type: 'string', description: 'Favorite first line of a story', default: 'It was a dark and stormy night.' },
    email: { title: 'String with email format', type: 'string', format: 'email', description: 'Your email address' },
    homepage: { type: 'string', format: 'uri', title: 'String with uri format', description: 'Portfolio / personal website' },
    birthdate: { title: 'String with date format', type: 'string', format: 'date', description: 'Your date of birth' },
    integer: { title: 'Integer', type: 'integer', description: 'Your favorite integer', minimum: 1, maximum: 100, default: 42 },
    number: { title: 'Number in range 1-1000', type: 'number', description: 'Favorite number', minimum: 0, maximum: 1000, default: 3.14 },
    untitledSingleSelectEnum: {
      type: 'string',
      title: 'Untitled Single Select Enum',
      enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'],
      default: 'Monica',
    },
    untitledMultipleSelectEnum: {
      type: 'array',
      title: 'Untitled Multiple Select Enum',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'] },
      default: ['Guitar'],
    },
    titledSingleSelectEnum: {
      type: 'string',
      title: 'Titled Single Select Enum',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
        { const: 'hero-3', title: 'Wonder Woman' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      title: 'Titled Multiple Select Enum',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: {
      type: 'string',
      title: 'Legacy Titled Single Select Enum',
      enum: ['pet-1', 'pet-2', 'pet-3', 'pet-4', 'pet-5'],
      enumNames: ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'],
      default: 'pet-1',
    },
  },
  required: ['name'],
};
