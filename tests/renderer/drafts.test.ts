import { describe, expect, it } from 'vitest';
import { keepDraft, keptDraft, rebaseDraft } from '../../src/renderer/lib/drafts';

describe('drafts of unsaved edits', () => {
  it('keeps a draft per tenant and record: never under another tenant or another record', () => {
    const scope = { profileId: 'tenant-a', kind: 'mentor-settings', key: 'm1' };
    const draft = { base: { name: 'Coach' }, values: { name: 'Coach (draft)' } };
    keepDraft(scope, draft);
    expect(keptDraft(scope)).toEqual(draft);
    expect(keptDraft({ ...scope, profileId: 'tenant-b' })).toBeUndefined();
    expect(keptDraft({ ...scope, key: 'm2' })).toBeUndefined();
    keepDraft(scope, null);
    expect(keptDraft(scope)).toBeUndefined();
  });

  it('puts the edited fields on the record as it is now, and names the edited ones changed meanwhile', () => {
    const draft = {
      base: { name: 'Coach', greeting: 'Hi', prompt: 'Be kind', tags: [1] },
      values: { name: 'Coach (draft)', greeting: 'Hi', prompt: 'Be brief', tags: [1, 2] },
    };
    const now = { name: 'Renamed elsewhere', greeting: 'Hello', prompt: 'Be kind', tags: [1, 2] };
    expect(rebaseDraft(draft, now)).toEqual({
      // The greeting was not edited here: the platform's new one stays.
      values: { name: 'Coach (draft)', greeting: 'Hello', prompt: 'Be brief', tags: [1, 2] },
      edited: ['name', 'prompt', 'tags'],
      // Tags changed elsewhere to what was typed here: no conflict.
      conflicts: ['name'],
    });
  });
});
