/**
 * Choosing audio files for the engine: the host's own dialog when it has one (handles to the files on disk),
 * otherwise the page's file input and a staged copy on the host (browser mode), so a recording never travels over
 * the WebSocket as a call's argument. The engine only ever sees handles.
 */
import { useRef, type ReactNode } from 'react';
import { AUDIO_ACCEPT } from '../../../../shared/audio';
import { useBridge } from '../../../bridge/BridgeContext';

export interface ChosenAudio {
  name: string;
  handle: string;
}

export function useAudioFiles({
  multiple,
  label,
  onChosen,
  onError,
}: {
  multiple: boolean;
  /** The hidden input's accessible name (tests set files on it). */
  label: string;
  onChosen(files: ChosenAudio[]): void;
  onError(message: string): void;
}): { choose(): void; input: ReactNode } {
  const host = useBridge().capabilities;
  const ref = useRef<HTMLInputElement>(null);

  async function staged(files: File[]) {
    if (!host.staging) throw new Error('Mentor Admin cannot take files here');
    const copied = await host.staging.stage(files.map((file) => ({ file, relativePath: file.name })));
    const refused = copied.notCopied[0];
    if (refused) throw new Error(refused.reason);
    return copied.entries.map((entry) => ({ name: entry.name, handle: entry.handle }));
  }

  async function fromInput(list: FileList | null) {
    const files = [...(list ?? [])];
    if (ref.current) ref.current.value = '';
    if (!files.length) return;
    try {
      if (host.dropPaths) {
        const granted = await host.dropPaths(files);
        onChosen(granted.map((entry) => ({ name: entry.name, handle: entry.handle })));
      } else onChosen(await staged(files));
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    }
  }

  function choose() {
    if (!host.pickFiles) {
      ref.current?.click();
      return;
    }
    host.pickFiles('audio-files').then(
      (chosen) => {
        const picked = multiple ? chosen : chosen.slice(0, 1);
        if (picked.length) onChosen(picked.map((entry) => ({ name: entry.name, handle: entry.handle })));
      },
      (error: unknown) => onError(error instanceof Error ? error.message : String(error)),
    );
  }

  const input = (
    <input
      ref={ref}
      type="file"
      accept={AUDIO_ACCEPT}
      multiple={multiple}
      aria-label={label}
      hidden
      onChange={(event) => void fromInput(event.currentTarget.files)}
    />
  );
  return { choose, input };
}
