import { describe, expect, it } from 'vitest';
import { BridgeCallError } from '../../src/shared/contract';
import { ConnectionLostError } from '../../src/renderer/bridge/errors';
import { UNREACHABLE_NEXT, nextStep } from '../../src/renderer/components/nextStep';

const api = (status: number) => new BridgeCallError({ code: 'api', message: `HTTP ${status}`, status });

describe('the next step after a list or page could not be loaded', () => {
  it('sends an unreachable tenant to its connection, with the editor', () => {
    const step = nextStep(new BridgeCallError({ code: 'unreachable', message: 'connect ECONNREFUSED 127.0.0.1:9' }));
    expect(step).toEqual({ text: UNREACHABLE_NEXT, editTenant: true });
  });

  it('sends a refused key (401) and a forbidden user (403) to the tenant editor, each with its own words', () => {
    const unauthorized = nextStep(api(401));
    const forbidden = nextStep(api(403));
    expect(unauthorized?.editTenant).toBe(true);
    expect(unauthorized?.text).toMatch(/did not accept the key/);
    expect(forbidden?.editTenant).toBe(true);
    expect(forbidden?.text).toMatch(/org and username/);
  });

  it('asks for patience when the tenant is busy (429) or in trouble (5xx), without the editor', () => {
    for (const status of [429, 500, 502, 503, 504]) {
      expect(nextStep(api(status)), String(status)).toEqual({
        text: expect.stringMatching(/try again in a few minutes/),
        editTenant: false,
      });
    }
  });

  it('has none where the error already says what to do, or the app itself lost its host', () => {
    expect(nextStep(api(400))).toBeNull();
    expect(nextStep(api(404))).toBeNull();
    expect(nextStep(new BridgeCallError({ code: 'api', message: 'no status' }))).toBeNull();
    expect(nextStep(new BridgeCallError({ code: 'not_found', message: 'No such mentor' }))).toBeNull();
    expect(nextStep(new BridgeCallError({ code: 'validation', message: 'bad' }))).toBeNull();
    // The WebSocket to the host dropped: the tenant may be fine, so no tenant editor.
    expect(nextStep(new ConnectionLostError())).toBeNull();
    expect(nextStep(new Error('boom'))).toBeNull();
    expect(nextStep('text')).toBeNull();
  });
});
