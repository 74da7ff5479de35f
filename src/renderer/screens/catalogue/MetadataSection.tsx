/**
 * A course's or a program's metadata in its details: each field with its value, changed one at a time (Save on the
 * row), and a new field added by name. Text stays text; other values (numbers, yes/no, lists) are edited as JSON.
 * The platform's refusal shows at the field it concerns (a name it does not take, a value it refuses).
 */
import { Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { BridgeCallError, type MetadataScope } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { notifySuccess } from '../../components/notify';
import { useCall, useMutationCall } from '../../queries/useCall';

/** A value as it is edited: text as it is, anything else as JSON. */
const editable = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What is sent for the text typed: a text field stays text; any other field (or a new one) takes JSON when it is. */
function valueOf(text: string, was: unknown): unknown {
  if (typeof was === 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function MetadataSection({ profileId, scope, id }: { profileId: string; scope: MetadataScope; id: string }) {
  const read = useCall('catalogue.metadata', { profileId, scope, id });
  const entries = Object.entries(read.data?.metadata ?? {});
  return (
    <Stack gap={6} data-testid="catalogue-metadata">
      <Text size="xs" c="dimmed">
        Metadata
      </Text>
      {read.error ? (
        <LoadErrorAlert title="The metadata could not be read" error={read.error} onRetry={() => void read.refetch()} />
      ) : read.isPending ? (
        <Skeleton height={28} />
      ) : (
        <>
          {entries.length === 0 && (
            <Text size="sm" c="dimmed">
              No metadata yet.
            </Text>
          )}
          {entries.map(([field, value]) => (
            <FieldRow key={field} profileId={profileId} scope={scope} id={id} field={field} value={value} />
          ))}
          <FieldRow profileId={profileId} scope={scope} id={id} />
        </>
      )}
    </Stack>
  );
}

/** One field (or, without `field`, a new one): its value and Save, the refusal under the input it concerns. */
function FieldRow({
  profileId,
  scope,
  id,
  field,
  value,
}: {
  profileId: string;
  scope: MetadataScope;
  id: string;
  field?: string;
  value?: unknown;
}) {
  const save = useMutationCall('catalogue.setMetadataField');
  const [name, setName] = useState('');
  const [text, setText] = useState(field === undefined ? '' : editable(value));
  const issues = save.error instanceof BridgeCallError ? (save.error.issues ?? []) : [];
  const at = (path: string) => issues.find((issue) => issue.path === path)?.message;
  const general = save.error && !at('field') && !at('value') ? errorMessage(save.error) : undefined;
  const adding = field === undefined;
  const changed = adding ? name.trim() !== '' : text !== editable(value);
  const target = adding ? name.trim() : field;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!changed) return;
        save.mutate(
          { profileId, scope, id, field: target, value: valueOf(text, adding ? undefined : value) },
          {
            onSuccess: (saved) => {
              notifySuccess('Metadata saved', `${saved.field} of ${id}`);
              if (adding) {
                setName('');
                setText('');
              }
            },
          },
        );
      }}
    >
      <Group align="flex-start" gap="xs" wrap="wrap">
        {adding ? (
          <TextInput
            aria-label="New field name"
            placeholder="New field"
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              save.reset();
            }}
            error={at('field')}
            w={170}
            size="sm"
          />
        ) : (
          <Text
            size="sm"
            fw={500}
            w={170}
            pt={6}
            style={{ overflowWrap: 'anywhere' }}
            title={field}
            c={at('field') ? 'red' : undefined}
          >
            {field}
          </Text>
        )}
        <TextInput
          aria-label={adding ? 'New field value' : `Value of ${field}`}
          placeholder={adding ? 'Value (text, or JSON such as 12 or ["a"])' : undefined}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            save.reset();
          }}
          error={at('value') ?? (adding ? undefined : at('field'))}
          style={{ flex: 1, minWidth: 160 }}
          size="sm"
        />
        <Button
          type="submit"
          variant={adding ? 'light' : 'default'}
          size="sm"
          loading={save.isPending}
          disabled={!changed}
          aria-label={adding ? 'Add field' : `Save ${field}`}
        >
          {adding ? 'Add' : 'Save'}
        </Button>
      </Group>
      {general && (
        <Text size="sm" c="red" mt={4}>
          {general}
        </Text>
      )}
    </form>
  );
}
