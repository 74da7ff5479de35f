import { useRef, useState, type DragEvent } from 'react';
import { useBridge } from '../bridge/BridgeContext';
import { sourceFromDrop } from './sources';
import { useTrainFlow, type MentorTarget } from './TrainFlowContext';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * Makes an element (a mentor row, a drop zone) a drop target for one mentor. The drop is marked handled with
 * preventDefault, so the window-wide drop layer leaves it alone.
 */
export function useMentorDropTarget(mentor: MentorTarget | null) {
  const { begin } = useTrainFlow();
  const host = useBridge().capabilities;
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed; count them to know when the pointer really left.
  const depth = useRef(0);

  const props = {
    onDragEnter: (event: DragEvent) => {
      if (!mentor || !carriesFiles(event)) return;
      depth.current += 1;
      setOver(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!mentor || !carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDragOver: (event: DragEvent) => {
      if (!mentor || !carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDrop: (event: DragEvent) => {
      depth.current = 0;
      setOver(false);
      if (!mentor || !carriesFiles(event)) return;
      event.preventDefault();
      const source = sourceFromDrop(host, event.dataTransfer);
      if (source) begin(source, mentor);
    },
  };
  return { over, props };
}
