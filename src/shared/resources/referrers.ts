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
    counts?: readonly { kind: string; refersTo: string; count: number; exact: boolean; asOf: string | null }[];
  },
  declarations: readonly ResourceDeclaration[],
): string[] {
  const singular = (of: string) => declarations.find((d) => d.kind === of)?.singular ?? of;
  return [
    ...(found.counts ?? []).map((c) => `${singular(kind)} ${c.refersTo} has ${countLine(c, declarations)}`),
    ...found.referrers.map(
      (r) => `${singular(r.kind)} "${r.name}" (${r.id}) refers to ${singular(kind)} ${r.refersTo} through ${r.field}`,
    ),
    ...found.unsure.map((u) => `Others may refer to it: ${u.reason}.`),
  ];
}

/** "12 department members" (or "no department members"), and where the figure comes from when not the platform. */
export function countLine(
  counted: { kind: string; count: number; exact: boolean; asOf: string | null },
  declarations: readonly ResourceDeclaration[],
  /** How the time of the saved list is written: as stored (ISO, the CLI's), or the app's date format. */
  when: (iso: string) => string = (iso) => iso,
): string {
  const declaration = declarations.find((d) => d.kind === counted.kind);
  const plural = declaration ? (declaration.plural ?? declaration.label.toLowerCase()) : counted.kind;
  if (!counted.exact && counted.asOf === null) return `an unknown number of ${plural} (the platform did not answer)`;
  const what =
    counted.count === 0
      ? `no ${plural}`
      : `${counted.count.toLocaleString('en-US')} ${counted.count === 1 ? (declaration?.singular ?? counted.kind) : plural}`;
  return counted.exact ? what : `${what} (as last read at ${when(counted.asOf!)}: the platform did not answer)`;
}
