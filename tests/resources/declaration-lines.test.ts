/** What `resources.declaration_lines_p50` counts: the files that declare one simple kind, nothing else. */
import { describe, expect, it } from 'vitest';
import { simpleDeclarationFiles } from '../../bench/resources';

describe('declaration_lines_p50', () => {
  it('counts the files that declare exactly one kind, not helper modules or files of several kinds', () => {
    const files = [...simpleDeclarationFiles().keys()];
    for (const simple of ['api-tokens.ts', 'domains.ts', 'lti-keys.ts', 'lti-tools.ts', 'site-config.ts']) {
      expect(files).toContain(simple);
    }
    for (const helper of ['secrets.ts', 'history.ts', 'membership.ts', 'kit.ts', 'spec.ts', 'index.ts', 'images.ts']) {
      expect(files).not.toContain(helper);
    }
    for (const several of ['groups.ts', 'rbac.ts', 'credentials.ts', 'llms.ts', 'mentor-config.ts']) {
      expect(files).not.toContain(several);
    }
  });
});
