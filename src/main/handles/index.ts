/** Handles for local files and folders, and the gate that turns them into paths for calls from the app's page. */
export { gatePagePaths, type Gated, type ResolveHandle } from './gate';
export {
  HANDLE_IDLE_MS,
  HandleRegistry,
  looksLikeHandle,
  MAX_HANDLES,
  type HandleRegistryOptions,
  type Refusal,
  type Resolution,
} from './registry';
