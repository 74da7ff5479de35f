import type { MantineColor } from '@mantine/core';
import type { Profile } from '../../shared/contract';

/** The environment variable that supplies the key of one tenant (the CLI's --profile, or the app's first active). */
export const API_KEY_ENV_VAR = 'MENTOR_ADMIN_API_KEY';

export interface KeyStatus {
  label: string;
  color: MantineColor;
  explanation: string;
}

/** Where a tenant's key comes from, in words: the renderer knows only this, never the key itself. */
export function keyStatusOf(profile: Pick<Profile, 'hasSecret' | 'secretSource'>): KeyStatus {
  switch (profile.secretSource) {
    case 'keychain':
      return { label: 'Key in keychain', color: 'teal', explanation: 'The key is stored in the OS keychain.' };
    case 'env':
      return {
        label: `Key from ${API_KEY_ENV_VAR}`,
        color: 'blue',
        explanation:
          `The key comes from the ${API_KEY_ENV_VAR} environment variable of the running app. It serves this ` +
          'tenant only: the one active when the app started (or the first made active after that).',
      };
    case 'session':
      return {
        label: 'Key for this session',
        color: 'cyan',
        explanation:
          "The key is kept in Mentor Admin's memory until it quits, never on disk. Enter it again next time.",
      };
    case 'unavailable':
      return {
        label: 'Keychain unavailable',
        color: 'orange',
        explanation: 'The OS keychain cannot be reached, so the stored key cannot be read right now.',
      };
    case 'sandbox':
      return {
        label: 'Sandbox key',
        color: 'grape',
        explanation: 'The local sandbox platform issues its own key; Mentor Admin manages it for you.',
      };
    case 'none':
      return NO_KEY;
    default:
      // A source added to the contract later: say nothing wrong rather than break the table.
      return profile.hasSecret ? { label: 'Key stored', color: 'teal', explanation: 'A key is available.' } : NO_KEY;
  }
}

const NO_KEY: KeyStatus = {
  label: 'No key',
  color: 'gray',
  explanation: 'No key is stored, so the tenant will refuse calls. Edit the tenant to add one.',
};
