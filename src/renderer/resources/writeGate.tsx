import { ActionIcon, Button, Tooltip, type ActionIconProps, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, MouseEvent, ReactNode } from 'react';
import type { Freshness } from '../../shared/contract';
import { useTenantReach } from '../tenants/useTenantReach';

/** The offline banner's promise, kept by every write action of the kit: said on the action itself too. */
export const OFFLINE_WRITE_REFUSAL = 'Changes cannot be saved until the tenant can be reached.';

/** Why the kit's write actions are off for a list shown from this freshness (the saved copy), or null. */
export function writeRefusalOf(freshness: Freshness | undefined): string | null {
  return freshness?.offline ? OFFLINE_WRITE_REFUSAL : null;
}

/**
 * The same for the tenant the window shows: off as well as soon as the engine knows the tenant cannot be reached, even
 * while this list's saved copy is still fresh enough not to have asked it.
 */
export function useWriteRefusal(freshness?: Freshness): string | null {
  const reach = useTenantReach();
  return writeRefusalOf(freshness) ?? (reach.unreachable ? OFFLINE_WRITE_REFUSAL : null);
}

/** A tooltip that a keyboard's focus opens as the mouse does: the reason an action is off reaches both. */
const KEYBOARD_TOO = { hover: true, focus: true, touch: false };

/**
 * Props that turn an action off with its reason: marked disabled (looks and reads so) but still focusable and
 * hoverable, so the keyboard and the mouse both reach the tooltip that says why.
 */
function gated(refusal: string | null, onClick: (() => void) | undefined) {
  return refusal
    ? {
        'data-disabled': true,
        'aria-disabled': true,
        // Stops a form's submit button too.
        onClick: (event: MouseEvent) => event.preventDefault(),
      }
    : onClick
      ? { onClick }
      : {};
}

/**
 * A button of the kit that writes to the tenant: off, with the reason in its tooltip, while `refusal` is set. A form's
 * submit button (`type="submit"`) needs no `onClick`: the form's own submit runs.
 */
export function WriteButton({
  refusal,
  onClick,
  children,
  ...props
}: ButtonProps &
  Pick<ComponentPropsWithoutRef<'button'>, 'type' | 'title'> & {
    refusal: string | null;
    onClick?: () => void;
    children: ReactNode;
  }) {
  return (
    <Tooltip label={refusal} disabled={!refusal} withArrow multiline maw={260} events={KEYBOARD_TOO}>
      <Button {...props} {...gated(refusal, onClick)}>
        {children}
      </Button>
    </Tooltip>
  );
}

/** A row's icon that writes (edit, delete): its name in the tooltip, or why it is off. */
export function WriteIcon({
  refusal,
  label,
  onClick,
  children,
  ...props
}: ActionIconProps & { refusal: string | null; label: string; onClick(): void; children: ReactNode }) {
  return (
    <Tooltip label={refusal ? `${label}: ${refusal}` : label} withArrow multiline maw={260} events={KEYBOARD_TOO}>
      <ActionIcon {...props} aria-label={label} {...gated(refusal, onClick)}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
