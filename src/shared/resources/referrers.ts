import type { ResourceDeclaration } from './kit';

/**
 * What is said before a delete about the records that refer to the ones deleted (resources.referrers' answer), one
 * line each: `LTI tool "Moodle courses" (3) refers to LTI key 5 through tool_key`, then why others may be missing.
 */
export function referrerLines(
  kind: string,
  found: {
    referrers: readonly { kind: string; field: string; id: string; name: string; refersTo: string }[];
    unsure: readonly { reason: string }[];
  },
  declarations: readonly ResourceDeclaration[],
): string[] {
  const singular = (of: string) => declarations.find((d) => d.kind === of)?.singular ?? of;
  return [
    ...found.referrers.map(
      (r) => `${singular(r.kind)} "${r.name}" (${r.id}) refers to ${singular(kind)} ${r.refersTo} through ${r.field}`,
    ),
    ...found.unsure.map((u) => `Others may refer to it: ${u.reason}.`),
  ];
}
