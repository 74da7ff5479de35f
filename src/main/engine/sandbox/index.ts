/** The local sandbox platform, started as a process or worker thread and reached over HTTP like any tenant. */
export {
  launchSandbox,
  sandboxEnvironment,
  SANDBOX_ENV_ALLOWLIST,
  type RunningSandbox,
  type SandboxLaunchOptions,
  type SandboxRunner,
} from './launcher';
export { SandboxManager, SANDBOX_PROFILE_NAME, type SandboxState } from './manager';
