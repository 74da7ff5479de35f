/** An error answer in the platform's shape: `{"detail": "<message>"}` with the catalogue's wording. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** The whole answer, where it is not `{detail}` (DRF's field errors). */
    readonly body?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** DRF's answer to invalid input: 400 with the messages by field, `{"name": ["…"]}`. */
export const fieldErrors = (errors: Record<string, string[]>) =>
  new HttpError(400, Object.values(errors).flat().join(' '), {}, errors);

/** DRF's words for a reference to a record that is not there (a PrimaryKeyRelatedField). */
export const invalidPkMessage = (value: unknown) => `Invalid pk "${String(value)}" - object does not exist.`;

/** DRF's 400 for a field that names a record that is not there. */
export const invalidPk = (field: string, value: unknown) => fieldErrors({ [field]: [invalidPkMessage(value)] });

export const badRequest = (detail = 'Bad request') => new HttpError(400, detail);
export const unauthorized = (detail = 'Authentication credentials were not provided.') => new HttpError(401, detail);
export const forbidden = (detail = 'You do not have permission to perform this action.') => new HttpError(403, detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, detail);
export const tooLarge = (detail = 'File too large') => new HttpError(413, detail);
