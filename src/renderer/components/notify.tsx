import { notifications } from '@mantine/notifications';
import { errorMessage } from '../bridge/errors';
import { CheckCircleIcon, WarningIcon } from './icons';

export function notifySuccess(title: string, message: string): void {
  notifications.show({ title, message, color: 'teal', icon: <CheckCircleIcon size={16} /> });
}

export function notifyError(title: string, error: unknown): void {
  notifications.show({
    title,
    message: errorMessage(error),
    color: 'red',
    icon: <WarningIcon size={16} />,
    autoClose: 8000,
  });
}
