import { describe, expect, it } from 'vitest';
import { IMAGES_FORM } from '../../src/dashboard/codes/type-forms/file-forms.js';
import { readDraft } from '../../src/dashboard/codes/type-forms/read-draft.js';

/** A gallery form as sent: the images it holds (a, b, c at rows 0–2), with positions and removals. */
function sent(extra: Record<string, string>, uploaded: string[] = []) {
  const fields = { '/content/fileIds/0': 'fil_a', '/content/fileIds/1': 'fil_b', '/content/fileIds/2': 'fil_c', ...extra };
  return readDraft(IMAGES_FORM, fields, new Map([['/content/fileIds', uploaded]])).fileIds;
}

describe('a gallery keeps the order its owner gives', () => {
  it.each([
    ['positions as shown', { 'position:/content/fileIds/0': '1', 'position:/content/fileIds/1': '2', 'position:/content/fileIds/2': '3' }, ['fil_a', 'fil_b', 'fil_c']],
    ['renumbered by Up/Down', { 'position:/content/fileIds/0': '2', 'position:/content/fileIds/1': '3', 'position:/content/fileIds/2': '1' }, ['fil_c', 'fil_a', 'fil_b']],
    // Typed without JavaScript: 1 beside the third image makes it first, though the first still says 1.
    ['one position typed', { 'position:/content/fileIds/0': '1', 'position:/content/fileIds/1': '2', 'position:/content/fileIds/2': '1' }, ['fil_c', 'fil_a', 'fil_b']],
    ['no positions sent (an older form)', {}, ['fil_a', 'fil_b', 'fil_c']],
    ['a position that is not a number', { 'position:/content/fileIds/0': 'x', 'position:/content/fileIds/2': '0' }, ['fil_c', 'fil_a', 'fil_b']],
    ['a removed image', { 'remove:/content/fileIds/0': 'on', 'position:/content/fileIds/1': '3', 'position:/content/fileIds/2': '2' }, ['fil_c', 'fil_b']],
  ])('%s', (_case, extra, expected) => {
    expect(sent(extra)).toEqual(expected);
  });

  it('puts new uploads after the images already there, in the order chosen', () => {
    expect(sent({ 'position:/content/fileIds/2': '1' }, ['fil_new1', 'fil_new2'])).toEqual(['fil_c', 'fil_a', 'fil_b', 'fil_new1', 'fil_new2']);
  });
});
