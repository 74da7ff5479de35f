import type { Area } from '../area';
import { analyticsArea } from './analytics';
import { badgesArea } from './badges';
import { coreArea } from './core';
import { documentsArea } from './documents';
import { mentorsArea } from './mentors';
import { invitationsArea } from './invitations';
import { catalogueArea } from './catalogue';
import { supportArea } from './support';
import { resourcesArea } from './resources';
import { personArea } from './person/routes';
import { licencesArea } from './licences';
import { reviewArea } from './review';
import { sessionsArea } from './sessions';
import { learningArea } from './learning';

/** Every area the sandbox serves, in seeding order (later areas may use earlier areas' rows). */
export const allAreas: Area[] = [
  coreArea,
  mentorsArea,
  documentsArea,
  analyticsArea,
  supportArea,
  invitationsArea,
  catalogueArea,
  resourcesArea,
  personArea,
  badgesArea,
  licencesArea,
  reviewArea,
  sessionsArea,
  learningArea,
];
