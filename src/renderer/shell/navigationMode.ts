import type { NavigationMode } from '../../shared/contract';

/** Below this window width, `auto` shows the sidebar as a rail of icons so the screen keeps its room. */
export const RAIL_BELOW_PX = 1200;

export const SIDEBAR_WIDTH = { full: 232, rail: 64 } as const;

/** Whether the sidebar shows icons only, from the admin's choice and the window's width. */
export function isRail(mode: NavigationMode, windowWidth: number): boolean {
  return mode === 'rail' || (mode === 'auto' && windowWidth < RAIL_BELOW_PX);
}

/** The choice a click on the collapse/expand button saves: the opposite of what is shown. */
export function toggledMode(rail: boolean): NavigationMode {
  return rail ? 'full' : 'rail';
}
