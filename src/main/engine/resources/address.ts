/**
 * How a record is named in one call. Most calls name it by the kind's id field; where the platform addresses it by
 * another of its fields (a program: listed by its numeric `id`, updated and deleted by its `program_id`), the
 * operation says which (`RecordOperation.id.field`) and the value comes from the record as this computer has it.
 * The record goes along too, for the call's other required parameters it carries (a pathway's owner `user_id`).
 */
import type { OperationRef, RecordOperation, ResourceDeclaration } from '../../../shared/resources';
import { EngineError } from '../errors';
import type { ResourceCache } from './cache';

type Row = Record<string, unknown>;

/** The record's field naming it in this operation when not the kind's id field. */
export const keyFieldOf = (operation: OperationRef | RecordOperation): string | undefined =>
  'id' in operation ? operation.id.field : undefined;

export function addressOf(
  cache: ResourceCache,
  profileId: string,
  declaration: ResourceDeclaration,
  operation: OperationRef | RecordOperation,
  id: string,
  known?: Row,
): { id: string; record?: Row } {
  const record = known ?? cache.find(profileId, declaration.kind, id) ?? undefined;
  const field = keyFieldOf(operation);
  if (!field) return { id, ...(record && { record }) };
  const key = record?.[field];
  if (key === undefined || key === null || key === '') {
    throw new EngineError(
      'not_found',
      `The ${declaration.singular} ${id} is not in this computer's copy of the list; refresh the list and try again`,
    );
  }
  return { id: String(key), record: record! };
}
