import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGoRegexp } from '../../../src/generators/go-regexp.js';
import { branchSlug } from '../../../src/generators/slug.js';
import { GeneratorSpecError } from '../../../src/generators/spec-reading.js';

// Expected values are what gosimple/slug v1.15.0 gives with Argo CD's settings (MaxLength 50, `_` → `-`);
// several come from that library's own slug_test.go.
describe('branchSlug (gosimple/slug as Argo CD configures it)', () => {
  const cases: [string, string][] = [
    ['feature/ABC_def', 'feature-abc-def'],
    ['a & b@c', 'a-and-batc'],
    ['This & that', 'this-and-that'],
    ['café', 'cafe'],
    ['Dobroslaw Żybort', 'dobroslaw-zybort'],
    ['áÁàÀãÃâÂäÄąĄ', 'aaaaaaaaaaaa'],
    ['  Dobroslaw     Zybort  ?', 'dobroslaw-zybort'],
    ['__feature__', 'feature'],
    ['-test-slug-', 'test-slug'],
    ['_test_slug_', 'test-slug'],
    ['jaja---lol-méméméoo--a', 'jaja-lol-mememeoo-a'],
    ['2000–2013', '2000-2013'],
    ['% 5 @ 4 $ 3 / 2 & 1 & 2 # 3 @ 4 _ 5', '5-at-4-3-2-and-1-and-2-3-at-4-5'],
    ['smile ☺', 'smile'],
    ['renovate/npm-lodash-4.x', 'renovate-npm-lodash-4-x'],
    ['', ''],
  ];
  for (const [branch, slug] of cases) {
    it(`slugs ${JSON.stringify(branch)} as ${JSON.stringify(slug)}`, () => assert.equal(branchSlug(branch), slug));
  }

  it('cuts a long slug at the last dash at or before 50 characters', () => {
    const words = 'feature/' + 'abcd-'.repeat(12);
    const slug = branchSlug(words);
    assert.equal(slug, 'feature-abcd-abcd-abcd-abcd-abcd-abcd-abcd-abcd');
    assert.ok(slug.length <= 50);
  });

  it('keeps a dash at index 50 as the cut point (the 51st character), as smartTruncate does', () => {
    const branch = `${'a'.repeat(50)}-tail`;
    assert.equal(branchSlug(branch), 'a'.repeat(50));
    const earlier = `${'a'.repeat(20)}-${'b'.repeat(29)}-tail`;
    assert.equal(earlier.indexOf('-', 21), 50);
    assert.equal(branchSlug(earlier), `${'a'.repeat(20)}-${'b'.repeat(29)}`);
  });

  it('cuts hard at 50 characters when there is no dash to cut at', () => {
    assert.equal(branchSlug('x'.repeat(80)), 'x'.repeat(50));
    assert.equal(branchSlug(`${'x'.repeat(60)}-y`), 'x'.repeat(50));
  });

  it('leaves a slug of exactly 50 characters whole', () => {
    const fifty = `${'a'.repeat(24)}-${'b'.repeat(25)}`;
    assert.equal(branchSlug(fifty), fifty);
  });

  it(`drops apostrophes and quotes instead of making them dashes (gosimple's default substitutions)`, () => {
    assert.equal(branchSlug("fix/don't-break"), 'fix-dont-break');
    assert.equal(branchSlug('"C\'est déjà l’été."'), 'cest-deja-lete');
  });

  it('transliterates Latin letters that do not decompose (ß, æ, ł, đ, ø), as unidecode does', () => {
    assert.equal(branchSlug('Ich heiße'), 'ich-heisse');
    assert.equal(branchSlug('Æ'), 'ae');
    assert.equal(branchSlug('łŁ'), 'll');
    assert.equal(branchSlug('Dobrosław Żybort'), 'dobroslaw-zybort');
    assert.equal(branchSlug('Đanković & Kožušček'), 'dankovic-and-kozuscek');
    assert.equal(branchSlug('feature/søk'), 'feature-sok');
  });
});

describe('compileGoRegexp', () => {
  it('matches anywhere unless anchored, as Go MatchString does', () => {
    assert.ok(compileGoRegexp('feat', 'f').test('my-feature'));
    assert.ok(!compileGoRegexp('^feat', 'f').test('my-feature'));
  });

  it('turns a leading (?i) into the i flag', () => {
    const pattern = compileGoRegexp('(?i)^release-', 'f');
    assert.ok(pattern.test('RELEASE-1'));
    assert.ok(!compileGoRegexp('^release-', 'f').test('RELEASE-1'), 'case matters without it');
  });

  it('turns (?s) and (?m) into their flags', () => {
    assert.ok(compileGoRegexp('(?s)a.b', 'f').test('a\nb'));
    assert.ok(!compileGoRegexp('a.b', 'f').test('a\nb'));
    assert.ok(compileGoRegexp('(?m)^b$', 'f').test('a\nb\nc'));
    assert.ok(compileGoRegexp('(?im)^B$', 'f').test('a\nb'));
  });

  it('reads (?P<name>…) named groups', () => {
    const match = compileGoRegexp('^(?P<kind>feature|fix)/(?P<ticket>[A-Z]+-\\d+)', 'f').exec('fix/ABC-12-thing');
    assert.equal(match?.groups?.['kind'], 'fix');
    assert.equal(match?.groups?.['ticket'], 'ABC-12');
  });

  it('reads a trailing \\z as the end of the text', () => {
    const pattern = compileGoRegexp('^main\\z', 'f');
    assert.ok(pattern.test('main'));
    assert.ok(!pattern.test('main2'));
  });

  it('is stateless between tests (no global flag)', () => {
    const pattern = compileGoRegexp('a', 'f');
    assert.ok(pattern.test('a'));
    assert.ok(pattern.test('a'));
  });

  const invalid: [string, RegExp][] = [
    ['feature-(', /is not a valid regular expression/],
    ['[a-', /is not a valid regular expression/],
    ['(?U)a+', /\(\?U\) flag/],
  ];
  for (const [pattern, problem] of invalid) {
    it(`refuses ${JSON.stringify(pattern)} as a spec error naming the field`, () => {
      assert.throws(
        () => compileGoRegexp(pattern, 'pullRequest.filters[2].branchMatch'),
        (error: unknown) =>
          error instanceof GeneratorSpecError && error.message.startsWith('pullRequest.filters[2].branchMatch: ') && problem.test(error.message),
      );
    });
  }

  it('accepts Go escapes of punctuation such as \\- and \\_', () => {
    assert.ok(compileGoRegexp('^release\\-\\d+$', 'f').test('release-12'));
    assert.ok(compileGoRegexp('^feat\\_x', 'f').test('feat_x'));
  });

  it('reads an escaped backslash before a final z as a backslash and a z, not as \\z', () => {
    const pattern = compileGoRegexp('^a\\\\z', 'f');
    assert.ok(pattern.test('a\\z'));
    assert.ok(!pattern.test('a$'));
  });
});
