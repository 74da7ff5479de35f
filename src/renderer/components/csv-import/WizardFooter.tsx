import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** The wizard's Back / Next row: stays in view at the bottom of the window however long the step is. */
export function WizardFooter({ children }: { children: ReactNode }) {
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      py="sm"
      data-testid="wizard-footer"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        background: 'var(--mantine-color-body)',
        borderTop: '1px solid var(--mantine-color-default-border)',
      }}
    >
      {children}
    </Group>
  );
}
