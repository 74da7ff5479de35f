/**
 * The values a bulk change of mentors' settings sends: each picked setting's value from the form. A picked setting
 * left blank is asked for, unless blank is a value the spec allows for it (nullable): that one is sent as null, and
 * the review says it will be cleared.
 */
export function pickedValues(
  picked: readonly string[],
  body: Readonly<Record<string, unknown>>,
  blankAllowed: (name: string) => boolean,
): { values: Record<string, unknown>; blank: string[] } {
  const isBlank = (value: unknown) => value === undefined || value === null || value === '';
  const blank = picked.filter((name) => isBlank(body[name]) && !blankAllowed(name));
  const values = Object.fromEntries(picked.map((name) => [name, isBlank(body[name]) ? null : body[name]]));
  return { values, blank };
}
