import type { Profile } from '../../shared/contract';
import { notifyError, notifySuccess } from '../components/notify';
import { useMutationCall } from '../queries/useCall';

/** Switching tenants is offered in the top bar and in the tenants table; both say the same thing. */
export function useSetActiveTenant() {
  const mutation = useMutationCall('profiles.setActive');
  const activate = (profile: Pick<Profile, 'id' | 'name'>) =>
    mutation.mutate(
      { id: profile.id },
      {
        onSuccess: (active) => notifySuccess('Active tenant changed', `Now working on ${active.name}.`),
        onError: (error) => notifyError(`Could not switch to ${profile.name}`, error),
      },
    );
  return { activate, isPending: mutation.isPending };
}
