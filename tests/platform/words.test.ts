/**
 * A refusal in the platform's own words (what a report row or a field shows): its `detail`, else DRF's field errors
 * with each field's messages together, else the status line.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, platformWords } from '../../src/main/engine/platform';

describe('platformWords', () => {
  it("says the platform's detail as it is", () => {
    const error = new ApiError({
      url: 'http://127.0.0.1/x/',
      status: 404,
      body: { detail: "Not found - license or user doesn't exist" },
    });
    expect(platformWords(error)).toBe("Not found - license or user doesn't exist");
  });

  it("joins DRF's field errors, a field's messages together, non-field errors without a name", () => {
    const error = new ApiError({
      url: 'http://127.0.0.1/x/',
      status: 400,
      body: { email: ['Enter a valid email address.', 'Too long.'], non_field_errors: ['Seats are full.'] },
    });
    expect(platformWords(error)).toBe('email: Enter a valid email address. Too long.; Seats are full.');
  });

  it('falls back to the status line, and to the message of anything else', () => {
    expect(platformWords(new ApiError({ url: 'http://127.0.0.1/x/', status: 502, body: '' }))).toBe('502 Bad Gateway');
    expect(platformWords(new Error('socket hang up'))).toBe('socket hang up');
  });
});
