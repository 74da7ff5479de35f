import { describe, expect, it } from 'vitest';
import { keptFields } from '../../src/main/engine/resources/cache';
import { mentorSettings } from '../../src/shared/resources';

describe('keptFields (what the cache and the history keep of an answer)', () => {
  it('drops each MCP server’s credentials from a mentor’s settings, leaving the answer itself untouched', () => {
    const answer = {
      mentor_name: 'Tutor',
      mcp_servers: [
        { name: 'Docs', url: 'https://mcp.example.org', credentials: 'secret-token' },
        { name: 'Open', url: 'https://open.example.org' },
      ],
    };
    const given = structuredClone(answer);
    const kept = keptFields(mentorSettings, answer);
    expect(kept).toEqual({
      mentor_name: 'Tutor',
      mcp_servers: [
        { name: 'Docs', url: 'https://mcp.example.org' },
        { name: 'Open', url: 'https://open.example.org' },
      ],
    });
    expect(answer).toEqual(given);
    // The server that held nothing to drop is the same object: only what changed is copied.
    expect((kept.mcp_servers as unknown[])[1]).toBe(answer.mcp_servers[1]);
  });

  it('answers a record with nothing to drop as it is, without copying it (a bulk job keeps hundreds)', () => {
    const none = { mentor_name: 'Tutor', disclaimer: 'x', mcp_servers: [{ name: 'Open' }] };
    expect(keptFields(mentorSettings, none)).toBe(none);
    const empty = { mentor_name: 'Tutor', mcp_servers: [] };
    expect(keptFields(mentorSettings, empty)).toBe(empty);
    const without = { mentor_name: 'Tutor' };
    expect(keptFields(mentorSettings, without)).toBe(without);
  });
});
