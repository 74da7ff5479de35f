/**
 * Multipart bodies the way the vendor SDK builds them: arrays become repeated fields, Blobs/Files stay files,
 * any other non-string value is JSON-encoded, null/undefined are left out.
 */
export function toMultipart(fields: object): FormData {
  const form = new FormData();
  const append = (name: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (typeof value === 'string' || value instanceof Blob) form.append(name, value);
    else form.append(name, JSON.stringify(value));
  };
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) value.forEach((item) => append(name, item));
    else append(name, value);
  }
  return form;
}
