import type { Area } from '../area';
import { coreArea } from './core';

/** Every area the sandbox serves, in seeding order (later areas may use earlier areas' rows). */
export const allAreas: Area[] = [coreArea];
