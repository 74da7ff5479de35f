/** The building blocks every contract module uses. */
import { z } from 'zod';

/**
 * What the engine does with a file or folder named in a call's input: read it (train, import) or write into it
 * (exports, reports). The app's page never names one by its path: it holds an opaque handle that its shell gave it
 * (a dialog or a drop in Electron, a staged upload in browser mode), and the shell turns the handle into the path
 * before the engine sees the call. The CLI and in-process callers pass real paths.
 */
export type PathAccess = 'read' | 'write';

export interface CallSpec<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** One line for docs, the CLI and error messages. */
  summary: string;
  /** Top-level input fields holding a file or folder path (a string, or an array of strings), and their access. */
  localPaths?: Readonly<Record<string, PathAccess>>;
}

export const call = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  summary: string,
  options: { localPaths?: Readonly<Record<string, PathAccess>> } = {},
): CallSpec<I, O> => ({
  input,
  output,
  summary,
  ...(options.localPaths && { localPaths: options.localPaths }),
});

/** Input of calls that take nothing. */
export const Empty = z.object({}).strict().optional();
export const Ok = z.object({ ok: z.literal(true) });
