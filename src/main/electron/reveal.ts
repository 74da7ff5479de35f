/**
 * "Show in folder" in the desktop app. `analytics.reveal` goes to the engine as it does everywhere (the engine finds
 * the export's file from its job); then, when `revealDecision` agrees, the main process opens the folder with the
 * file selected and answers `shown: true`. Only types come from `electron`, so tests drive it with fakes.
 */
import type { BridgeResult, CallName } from '../../shared/contract';
import type { CallTarget } from './ipc-bridge';
import { revealDecision } from './policies';

export function withShowInFolder(
  engine: CallTarget,
  showItemInFolder: (path: string) => void,
  options: { platform?: string; warn?: (line: string) => void } = {},
): CallTarget {
  const platform = options.platform ?? process.platform;
  const warn = options.warn ?? ((line: string) => console.warn(line));
  return {
    async call(name: CallName, input: unknown): Promise<BridgeResult> {
      const answer = await engine.call(name, input);
      if (name !== 'analytics.reveal' || !answer.ok) return answer;
      const id = (input as { id?: unknown } | null | undefined)?.id;
      const recorded = typeof id === 'string' ? await engine.call('analytics.export', { id }) : undefined;
      const decision = revealDecision({
        id,
        answer: answer.value,
        recorded: recorded?.ok ? recorded.value : undefined,
        platform,
      });
      if (!decision.show) {
        // The page still gets the engine's answer (where the file was) and says so; nothing is opened.
        if ((answer.value as { exists?: unknown }).exists) warn(`Show in folder refused: ${decision.reason}`);
        return answer;
      }
      try {
        showItemInFolder(decision.path);
      } catch (error) {
        warn(`Show in folder failed: ${error instanceof Error ? error.message : String(error)}`);
        return answer;
      }
      return { ok: true, value: { ...(answer.value as object), shown: true } };
    },
  };
}
