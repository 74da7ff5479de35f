import { useSubRoute } from '../../shell/routes';
import { MentorPage } from './MentorPage';
import { MentorsList } from './MentorsList';

/** `#/mentors` lists the mentors; `#/mentors/<unique id>` opens one, `#/mentors/<unique id>/<tab>` at that tab. */
export function MentorsScreen() {
  const [uniqueId, tab] = useSubRoute();
  return uniqueId ? (
    <MentorPage key={`${uniqueId}/${tab ?? ''}`} uniqueId={uniqueId} initialTab={tab} />
  ) : (
    <MentorsList />
  );
}
