/**
 * An image field: the current image, a file chosen here with its preview, refused at the field before anything is
 * sent when its bytes are no image, and a warning where the platform may still refuse it (size, SVG).
 */
import { Button, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { checkImage, IMAGE_ACCEPT } from '../../../shared/resources';
import { formatBytes } from '../../lib/format';

interface ImageFieldProps {
  id: string;
  label: string;
  description?: string | undefined;
  error?: string | undefined;
  /** The data: URL of the file chosen here, or '' (nothing chosen: the platform's image stays). */
  value: string;
  /** The image the platform has now (its address), if any. */
  current: unknown;
  onChange(value: string): void;
  onError(message: string | null): void;
  autoFocus?: boolean;
  dark?: boolean | undefined;
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });

/** What can be shown under the app's CSP (`img-src 'self' data:`): an image the app holds, not a remote address. */
const showable = (value: unknown): value is string => typeof value === 'string' && value.startsWith('data:image/');

export function ImagePreview({
  value,
  label,
  size = 72,
  dark = false,
}: {
  value: unknown;
  label: string;
  size?: number;
  /** Previewed on a dark background (a dark-mode logo), whatever the app's scheme. */
  dark?: boolean;
}) {
  if (showable(value)) {
    return (
      <Image
        src={value}
        alt={label}
        h={size}
        w="auto"
        maw={size * 3}
        fit="contain"
        radius="sm"
        bd="1px solid var(--mantine-color-default-border)"
        bg={dark ? 'var(--mantine-color-dark-7)' : 'var(--mantine-color-gray-0)'}
        p={4}
      />
    );
  }
  if (typeof value === 'string' && value) {
    return (
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      None uploaded
    </Text>
  );
}

export function ImageField(props: ImageFieldProps) {
  const [chosen, setChosen] = useState<{ name: string; note: string; warning: string | null } | null>(null);

  async function choose(file: File | null) {
    if (!file) return;
    const dataUrl = await readAsDataUrl(file);
    const checked = checkImage(dataUrl);
    if (!checked.ok) {
      // Refused here: nothing is kept to send, and the field says why.
      setChosen(null);
      props.onChange('');
      props.onError(`${file.name}: ${checked.message}`);
      return;
    }
    setChosen({ name: file.name, note: `${checked.format}, ${formatBytes(checked.size)}`, warning: checked.warning });
    props.onError(null);
    props.onChange(dataUrl);
  }

  return (
    <Input.Wrapper label={props.label} description={props.description} error={props.error} id={props.id}>
      <Group gap="md" align="center" wrap="wrap" mt={4}>
        <ImagePreview value={props.value || props.current} label={props.label} dark={props.dark} />
        <Stack gap={4}>
          <Group gap="xs">
            <FileButton onChange={(file) => void choose(file)} accept={IMAGE_ACCEPT}>
              {(button) => (
                <Button
                  {...button}
                  id={props.id}
                  size="xs"
                  variant="default"
                  data-autofocus={props.autoFocus || undefined}
                  aria-label={`Choose ${props.label.toLowerCase()}`}
                >
                  {props.value ? 'Choose another' : 'Choose image'}
                </Button>
              )}
            </FileButton>
            {props.value && (
              <Button
                size="xs"
                variant="subtle"
                onClick={() => {
                  setChosen(null);
                  props.onChange('');
                }}
              >
                Keep current
              </Button>
            )}
          </Group>
          {chosen && props.value && (
            <Text size="xs" c="dimmed">
              {chosen.name} ({chosen.note}): uploaded when you save
            </Text>
          )}
          {chosen?.warning && props.value && (
            <Text size="xs" c="yellow.8" role="status">
              {chosen.warning}
            </Text>
          )}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
