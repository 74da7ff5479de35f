/** The building blocks every contract module uses. */
import { z } from 'zod';

export interface CallSpec<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** One line for docs, the CLI and error messages. */
  summary: string;
}

export const call = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  summary: string,
): CallSpec<I, O> => ({
  input,
  output,
  summary,
});

/** Input of calls that take nothing. */
export const Empty = z.object({}).strict().optional();
export const Ok = z.object({ ok: z.literal(true) });
