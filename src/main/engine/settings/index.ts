/** Application settings (theme, notifications, the jobs' waiting limit), stored one JSON value per key. */
export { DEFAULTS } from './settings';
export { SettingsStore } from './store';
