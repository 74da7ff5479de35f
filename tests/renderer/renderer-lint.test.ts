/**
 * The renderer's lint rules fire where they should and only there: a screen's folder imports nothing from another
 * screen's (`project/screens-apart`), and outside the bridge nothing asks which transport it is — no transport module,
 * no `bridge.kind`, no preload `window.api`. Fixtures are linted as if they lived at the paths named.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** A screen file that crosses into other screens (and into the transports) every way an import can. */
const SCREEN = `
import { SettingsSection } from '../settings/SettingsSection';
import { JobActions } from '../../screens/jobs/JobActions';
import { formatCount } from '../../lib/format';
import { ConfirmModal } from '../../components/ConfirmModal';
import { navigateTo } from '../../shell/routes';
import { TicketRow } from './TicketRow';
import { STATUS_LABEL } from '../tickets/format';
import { createElectronBridge } from '../../bridge/electronBridge';
import { hostStaging } from '../../bridge/hostFiles';
import { useBridge } from '../../bridge/BridgeContext';
export { jobPercent } from '../jobs/jobPresentation';
export * from '../mentors/visibility';

export function Outsider() {
  const bridge = useBridge();
  const later = import('../analytics/AnalyticsScreen');
  const desktop = bridge.kind === 'electron';
  const api = window.api;
  return [SettingsSection, JobActions, formatCount, ConfirmModal, navigateTo, TicketRow, STATUS_LABEL, later, desktop, api];
}
`;

/** A file two folders down in the invitations screen: its own screen's files are near, another's one more up. */
const NESTED = `
import { InvitationsList } from '../InvitationsList';
import { wizard } from '../wizardStore';
import { JobActions } from '../../jobs/JobActions';
import { plural } from '../../../lib/format';
export const used = [InvitationsList, wizard, JobActions, plural];
`;

const RULES = ['project/screens-apart', 'no-restricted-imports', 'no-restricted-syntax'];

async function findings(text: string, filePath: string) {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, filePath) });
  return result!.messages
    .filter((message) => RULES.includes(message.ruleId ?? ''))
    .map((message) => ({ rule: message.ruleId, line: text.split('\n')[message.line - 1]!.trim() }));
}

describe("a screen's folder", () => {
  it('imports nothing from another screen, however the path is written; its own files, lib, components and the shell are fine', async () => {
    const found = await findings(SCREEN, 'src/renderer/screens/tickets/Outsider.tsx');
    expect(found.filter((f) => f.rule === 'project/screens-apart').map((f) => f.line)).toEqual([
      "import { SettingsSection } from '../settings/SettingsSection';",
      "import { JobActions } from '../../screens/jobs/JobActions';",
      "export { jobPercent } from '../jobs/jobPresentation';",
      "export * from '../mentors/visibility';",
      "const later = import('../analytics/AnalyticsScreen');",
    ]);
  });

  it('is the whole screen folder, nested ones included', async () => {
    const found = await findings(NESTED, 'src/renderer/screens/invitations/import/Nested.tsx');
    expect(found).toEqual([
      { rule: 'project/screens-apart', line: "import { JobActions } from '../../jobs/JobActions';" },
    ]);
  });

  it('is a rule of screens only: the shell composes them', async () => {
    const found = await findings(SCREEN.replaceAll("'../", "'../screens/"), 'src/renderer/shell/Outsider.tsx');
    expect(found.filter((f) => f.rule === 'project/screens-apart')).toEqual([]);
  });
});

describe('outside the bridge', () => {
  it('no file imports a transport, asks the bridge its kind or reaches for the preload’s window.api', async () => {
    for (const place of ['src/renderer/screens/tickets/Outsider.tsx', 'src/renderer/train/Outsider.tsx']) {
      const found = await findings(SCREEN, place);
      expect(
        found.filter((f) => f.rule !== 'project/screens-apart'),
        place,
      ).toEqual([
        { rule: 'no-restricted-imports', line: "import { createElectronBridge } from '../../bridge/electronBridge';" },
        { rule: 'no-restricted-imports', line: "import { hostStaging } from '../../bridge/hostFiles';" },
        { rule: 'no-restricted-syntax', line: "const desktop = bridge.kind === 'electron';" },
        { rule: 'no-restricted-syntax', line: 'const api = window.api;' },
      ]);
    }
  });

  it('the bridge itself is made of the transports', async () => {
    const found = await findings(SCREEN.replaceAll('../../bridge/', './'), 'src/renderer/bridge/createBridge.ts');
    expect(found).toEqual([]);
  });
});

describe('cached answers a screen drops itself', () => {
  const INVALIDATING = `
import { useQueryClient } from '@tanstack/react-query';
import { useCallKey } from '../../queries/useCall';
export function useOutsider(id: number) {
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  void queryClient.invalidateQueries({ queryKey: ['mentors.get'] });
  void queryClient.refetchQueries({ queryKey: ['resources.getSingle', { kind: 'branding' }] });
  void queryClient.invalidateQueries({ queryKey: callKey('tickets.get', { id, markRead: true }) });
  return queryClient.getQueryData(['mentors.list', {}]);
}
`;

  it('are named by callKey (one tenant’s), never by a key written by hand', async () => {
    const found = await findings(INVALIDATING, 'src/renderer/screens/mentors/Outsider.tsx');
    expect(found).toEqual([
      { rule: 'no-restricted-syntax', line: "void queryClient.invalidateQueries({ queryKey: ['mentors.get'] });" },
      {
        rule: 'no-restricted-syntax',
        line: "void queryClient.refetchQueries({ queryKey: ['resources.getSingle', { kind: 'branding' }] });",
      },
    ]);
  });

  it('the query layer itself builds keys', async () => {
    expect(await findings(INVALIDATING, 'src/renderer/queries/outsider.ts')).toEqual([]);
  });
});
