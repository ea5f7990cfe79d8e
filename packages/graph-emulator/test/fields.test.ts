import { parseFields, withId, type FieldRequest } from '../src/graph/fields';
import { GraphError } from '../src/errors';

function syntaxError(raw: string): GraphError {
  try {
    parseFields(raw, []);
  } catch (err) {
    if (err instanceof GraphError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${raw}`);
}

describe('parseFields (the fields parameter, Graph API Field Expansion)', () => {
  it('when fields is absent or blank, then the defaults, as plain requests', () => {
    expect(parseFields(undefined, ['id', 'name'])).toEqual([{ name: 'id' }, { name: 'name' }]);
    expect(parseFields('  ', ['name'])).toEqual([{ name: 'name' }]);
    expect(parseFields(',,', ['name'])).toEqual([{ name: 'name' }]);
  });

  it('when a flat list has spaces, empty items and repeats, then each name once in order (what flat lists always gave)', () => {
    expect(parseFields(' id , created_time,,message,story,id, ', [])).toEqual([
      { name: 'id' },
      { name: 'created_time' },
      { name: 'message' },
      { name: 'story' },
    ]);
  });

  it('when selections nest at several depths with spaces, then the tree', () => {
    expect(parseFields('attachments{ media{ image{src} }, type ,subattachments.limit(3){title}}', [])).toEqual([
      {
        name: 'attachments',
        fields: [
          { name: 'media', fields: [{ name: 'image', fields: [{ name: 'src' }] }] },
          { name: 'type' },
          { name: 'subattachments', limit: 3, fields: [{ name: 'title' }] },
        ],
      },
    ]);
  });

  it('when modifiers are chained, before or after a selection, then each is kept', () => {
    const parsed = parseFields(
      'reactions.summary(total_count).limit(0),comments.summary(true).limit(0),picture.type(large),comments{message}.limit(2)',
      [],
    );
    expect(parsed).toEqual<FieldRequest[]>([
      { name: 'reactions', summary: 'total_count', limit: 0 },
      { name: 'comments', summary: 'true', limit: 0 },
      { name: 'picture', type: 'large' },
    ]);
    expect(parseFields('comments{message}.limit(2)', [])).toEqual([
      { name: 'comments', fields: [{ name: 'message' }], limit: 2 },
    ]);
    expect(parseFields('reactions.summary(true).summary(false)', [])).toEqual([{ name: 'reactions' }]);
  });

  it.each([
    ['location{city', 'Expected "}" instead of end of string.', 13],
    ['name}', 'Expected end of string instead of "}".', 4],
    ['a{}b', 'Expected end of string instead of "b".', 3],
    ['reactions.limit(2', 'Expected ")" instead of end of string.', 17],
    ['reactions.limit', 'Expected "(" instead of end of string.', 15],
    ['reactions.', 'Expected a field name instead of end of string.', 10],
    ['1abc', 'Expected a field name instead of "1".', 0],
    ['reactions.limit(-1)', 'Expected ")" instead of "-".', 16],
    ['name;drop', 'Expected end of string instead of ";".', 4],
  ])('when the expression is malformed (%s), then 100 with a syntax message and the character', (raw, what, at) => {
    const err = syntaxError(raw);
    expect(err.code).toBe(100);
    expect(err.status).toBe(400);
    expect(err.message).toBe(`(#100) Syntax error "${what}" at character ${at}: ${raw}`);
  });

  it.each(['reactions.limit(x)', 'reactions.summary(yes)', 'picture.type(huge)', 'a.foo(1)'])(
    'when a modifier or its argument is unknown (%s), then 100 with a syntax message',
    (raw) => {
      const err = syntaxError(raw);
      expect(err.code).toBe(100);
      expect(err.message).toMatch(/^\(#100\) Syntax error "Expected a known modifier with a valid argument/);
    },
  );

  it('when nesting goes deeper than 8 levels, then 100, before any deep recursion', () => {
    expect(() => parseFields(`${'a{'.repeat(8)}b${'}'.repeat(8)}`, [])).not.toThrow();
    const err = syntaxError(`${'a{'.repeat(5000)}b${'}'.repeat(5000)}`);
    expect(err.message).toMatch(/Expected at most 8 levels of nesting/);
    expect(err.message.length).toBeLessThan(400);
  });

  it('withId puts id first, keeping a requested id with its modifiers', () => {
    expect(withId([{ name: 'message' }])).toEqual([{ name: 'id' }, { name: 'message' }]);
    expect(withId([{ name: 'message' }, { name: 'id' }])).toEqual([{ name: 'id' }, { name: 'message' }]);
  });
});
