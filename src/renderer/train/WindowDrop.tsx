import { Group, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { UploadIcon } from '../components/icons';
import { useBridge } from '../bridge/BridgeContext';
import { sourceFromDrop } from './sources';
import { useTrainFlow } from './TrainFlowContext';

const carriesFiles = (event: DragEvent) =>
  !!event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files');

/**
 * Files dropped anywhere on the window: onto a mentor (its row handles the drop and marks it handled), onto a
 * mentor's page (that mentor), or elsewhere (the flow asks which mentor). Without this, the browser would open
 * the dropped file in place of the app.
 */
export function WindowDrop() {
  const { begin, pageMentor } = useTrainFlow();
  const [dragging, setDragging] = useState(false);
  const host = useBridge().capabilities;

  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer && !event.defaultPrevented) event.dataTransfer.dropEffect = 'copy';
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(event)) return;
      // A mentor row (or a drop zone) took it already.
      if (event.defaultPrevented) return;
      event.preventDefault();
      const source = event.dataTransfer && sourceFromDrop(host, event.dataTransfer);
      if (source) begin(source);
    };
    const end = () => {
      depth = 0;
      setDragging(false);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    window.addEventListener('dragend', end);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
      window.removeEventListener('dragend', end);
    };
  }, [begin, host]);

  if (!dragging) return null;
  return (
    <div
      aria-hidden="true"
      style={{
        position: 'fixed',
        inset: 8,
        zIndex: 400,
        pointerEvents: 'none',
        border: '2px dashed var(--mantine-primary-color-filled)',
        borderRadius: 'var(--mantine-radius-lg)',
        background: 'color-mix(in srgb, var(--mantine-primary-color-filled) 6%, transparent)',
        display: 'flex',
        alignItems: 'flex-end',
        justifyContent: 'center',
        paddingBottom: 32,
      }}
    >
      <Paper shadow="md" radius="xl" px="lg" py="sm" withBorder>
        <Group gap="sm" wrap="nowrap">
          <UploadIcon size={20} />
          <Text size="sm" fw={500}>
            {pageMentor
              ? `Drop to preview training for ${pageMentor.name}`
              : 'Drop on a mentor, or anywhere to choose one; you will see a preview first'}
          </Text>
        </Group>
      </Paper>
    </div>
  );
}
