import { useSubRoute } from '../../shell/routes';
import { MentorPage } from './MentorPage';
import { MentorsList } from './MentorsList';

/** `#/mentors` lists the mentors; `#/mentors/<unique id>` opens one. */
export function MentorsScreen() {
  const [uniqueId] = useSubRoute();
  return uniqueId ? <MentorPage key={uniqueId} uniqueId={uniqueId} /> : <MentorsList />;
}
